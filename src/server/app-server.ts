import http from 'node:http';
import sirv from 'sirv';
import type { Middleware } from './proxy.ts';
import { setSecurityHeaders } from './security-headers.ts';

/**
 * The production server: the API handler first, then the built SPA with history fallback, so that a
 * deep link such as /candidates/refId/abc reloads into the app.
 */
export function createAppServer(options: { api: Middleware; staticDir: string }): http.Server {
  const assets = sirv(options.staticDir, {
    single: true,
    etag: true,
    gzip: false,
    brotli: false,
    setHeaders(res, pathname) {
      res.setHeader('Cache-Control', cacheControlOf(pathname));
    },
  });
  const serveAsset = (req: http.IncomingMessage, res: http.ServerResponse) => {
    setSecurityHeaders(res); // the API handler sets its own
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed');
      return;
    }
    // sirv trusts the Range header and throws on a reversed range; nothing here needs ranges.
    delete req.headers.range;
    assets(req, res, () => {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Not found');
    });
  };
  return http.createServer((req, res) => {
    try {
      options.api(req, res, () => serveAsset(req, res));
    } catch {
      // Whatever went wrong with one request, the server goes on serving the others.
      if (res.headersSent) res.destroy();
      else {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Internal error');
      }
    }
  });
}

/**
 * Hashed bundles never change. Everything else is never stored: it may be the page itself (served for
 * every deep link), and a stored copy or the back/forward cache could bring a candidate page back after
 * sign-out. The only other files (the icon) are tiny.
 */
function cacheControlOf(pathname: string): string {
  return pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-store';
}
