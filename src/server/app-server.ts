import http from 'node:http';
import sirv from 'sirv';
import { bytesSent } from './http-reply.ts';
import type { Middleware } from './proxy.ts';
import { type RequestRecord, setRoute, whenRequestDone } from './log.ts';
import { setSecurityHeaders } from './security-headers.ts';

export interface AppServerOptions {
  api: Middleware;
  staticDir: string;
  /** `/healthz` and `/readyz`: answers true when it handled the request. */
  health?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean;
  /** A record per request, whoever answered it (API, health, static files). */
  log?: (record: RequestRecord) => void;
}

/**
 * The production server: the API handler first, then the built SPA with history fallback, so that a
 * deep link such as /candidates/refId/abc reloads into the app.
 */
export function createAppServer(options: AppServerOptions): http.Server {
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
    setRoute(res, 'static'); // never the path: a deep link holds a candidate id
    setSecurityHeaders(req, res); // the API handler sets its own
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
    if (options.log) whenRequestDone(req, res, () => bytesSent(res) || Number(res.getHeader('content-length') ?? 0), options.log);
    try {
      if (options.health?.(req, res)) return;
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
