import http from 'node:http';
import path from 'node:path';
import sirv from 'sirv';
import { createClientResolver, noteClient } from '../http/client.ts';
import { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS, deadlineOptions, guardConnections } from '../http/connection-guard.ts';
import { bytesSent } from '../http/http-reply.ts';
import type { Middleware } from './api-handler.ts';
import { type Logger, logUnexpected, requestLog, setRoute, startRequestLog } from '../log/log.ts';
import { setSecurityHeaders } from '../http/security-headers.ts';
import type { Metrics } from '../ops/metrics.ts';

export interface AppServerOptions {
  api: Middleware;
  staticDir: string;
  /** `/healthz` and `/readyz`: answers true when it handled the request. */
  health?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean;
  /** A line per request, whoever answered it (API, health, static files), and any unexpected error (default: none). */
  logger?: Logger;
  /**
   * Reverse proxies believed about the browser's protocol and address (TRUSTED_PROXIES, as the API
   * handler is given), settled before `/healthz` and `/readyz` answer: behind a TLS proxy they carry
   * HSTS like every other answer. Without it, the API handler settles it for everything but health.
   */
  trustedProxies?: readonly string[];
  /**
   * Deadlines for a request's headers and whole body, and the caps on connections nobody has signed in
   * on (connection-guard.ts; default: its defaults, the cap of all addresses from the open-file limit).
   */
  connections?: ConnectionLimits;
  /** Counts the connections not signed in, and those the caps closed. */
  metrics?: Metrics;
}

/**
 * The production server: the API handler first, then the built SPA with history fallback, so that a
 * deep link such as /candidates/refId/abc reloads into the app.
 */
export function createAppServer(options: AppServerOptions): http.Server {
  const staticDir = path.resolve(options.staticDir);
  const assets = sirv(staticDir, {
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
    // sirv reads the file with a stream that has no error listener, from the index it made at start: a
    // file gone since (a build in place, a replaced folder) would end the process. It costs this response.
    res.once('pipe', (source: NodeJS.ReadableStream) => {
      source.once('error', (error: NodeJS.ErrnoException) => {
        const file = path.relative(staticDir, error.path ?? '');
        requestLog(res).error({ code: error.code, file }, 'a file of the built app could not be read: restart the server after each build');
        res.destroy();
      });
    });
    assets(req, res, () => {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Not found');
    });
  };
  const resolveClient = options.trustedProxies && createClientResolver(options.trustedProxies);
  const limits = options.connections ?? DEFAULT_CONNECTION_LIMITS;
  const server = http.createServer(deadlineOptions(limits), (req, res) => {
    if (resolveClient) noteClient(req, resolveClient);
    if (options.logger) startRequestLog(req, res, options.logger, () => bytesSent(res) || Number(res.getHeader('content-length') ?? 0));
    try {
      if (options.health?.(req, res)) return;
      options.api(req, res, () => serveAsset(req, res));
    } catch (error) {
      // Whatever went wrong with one request, the server goes on serving the others; the operator is told.
      logUnexpected(res, error);
      if (res.headersSent) res.destroy();
      else {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Internal error');
      }
    }
  });
  guardConnections(server, limits, { trustedProxies: options.trustedProxies, metrics: options.metrics });
  return server;
}

/**
 * Hashed bundles never change. Everything else is never stored: it may be the page itself (served for
 * every deep link), and a stored copy or the back/forward cache could bring a candidate page back after
 * sign-out. The only other files (the icon) are tiny.
 */
function cacheControlOf(pathname: string): string {
  return pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-store';
}
