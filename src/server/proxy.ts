import type http from 'node:http';
import { API_PREFIX, type ApiMeta } from '../kyc/contract/api.ts';
import { LOOKUP_KINDS } from '../kyc/contract/lookup.ts';
import type { AuditLog } from './audit.ts';
import { type AccessControl, createAccessControl } from './auth/access.ts';
import { bytesSent, rawPathOf, sendError, sendJson } from './http-reply.ts';
import { type LookupDeps, lookup } from './lookup.ts';
import { RateLimiter } from './rate-limit.ts';
import { any, type ApiCall, findRoute, get, open, type Route, routeLabel } from './routes.ts';
import { setSecurityHeaders } from './security-headers.ts';
import { createUpstreamClient, type UpstreamTarget } from './upstream-client.ts';

/**
 * The key-holding proxy: one connect-style handler for `/api/*`, mounted by the Vite plugin in
 * development and by the production server. Setup happens once here; each route is a line of the table.
 */
export interface ApiHandlerOptions {
  upstream: UpstreamTarget;
  timeoutMs: number;
  maxResponseBytes: number;
  meta: ApiMeta;
  /** Who may look (default: local mode, everyone is a compliance user). */
  access?: AccessControl;
  /** Every lookup is recorded here before anything is answered (default: not recorded). */
  audit?: AuditLog;
  /** Lookups per minute per user (default: no limit). */
  rateLimiter?: RateLimiter;
  /** One line per request: method, route, status, duration, bytes. Never an id, a key or candidate data. */
  log?: (line: string) => void;
}

export type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next?: () => void) => void;

export function createApiHandler(options: ApiHandlerOptions): Middleware {
  const access = options.access ?? createAccessControl({ mode: 'local', allowUnauthenticated: false });
  const log = options.log ?? (() => {});
  const metaBody = JSON.stringify(options.meta);
  const deps: LookupDeps = {
    upstream: createUpstreamClient(options.upstream, options),
    hasStatusKey: Boolean(options.upstream.statusApiKey),
    access,
    rateLimiter: options.rateLimiter ?? new RateLimiter(0),
    audit: options.audit,
    maxResponseBytes: options.maxResponseBytes,
  };

  const routes: Route[] = [
    open(`${API_PREFIX}/session`, (call) => sessionRoute(access, call)),
    get(`${API_PREFIX}/meta`, (call) => sendJson(call.res, 200, metaBody)),
    ...LOOKUP_KINDS.map((kind) =>
      get(`${API_PREFIX}/candidates/${kind}/:id*`, (call) => lookup(deps, { ...call, kind, encodedId: call.params.id! })),
    ),
    any(`${API_PREFIX}/candidates/:rest*`, (call) =>
      sendError(call.res, 404, 'no_such_route', 'Look candidates up at /api/candidates/refId/<id> or /api/candidates/recordId/<id>.'),
    ),
  ];

  return (req, res, next) => {
    const path = rawPathOf(req);
    if (path !== API_PREFIX && !path.startsWith(`${API_PREFIX}/`)) {
      if (next) return next();
      return sendError(res, 404, 'no_such_route', 'Not found.');
    }
    setSecurityHeaders(res);
    const started = performance.now();
    const found = findRoute(routes, path);
    logWhenDone(req, res, log, found ? routeLabel(found.route) : 'unknown', started);
    const call: ApiCall = { req, res, params: found?.params ?? {}, started };
    if (found && !found.route.signedIn) return settle(res, found.route.handle(call));

    // Everything else needs a known user, and nothing reaches the upstream without one.
    const identity = access.identify(req);
    if (!identity) return sendError(res, 401, 'unauthenticated', 'Sign in to look candidates up.');
    if (!found) return sendError(res, 404, 'no_such_route', `There is no API route ${API_PREFIX}/… of that name.`);
    if (found.route.signedIn) settle(res, found.route.handle({ ...call, identity }));
  };
}

function sessionRoute(access: AccessControl, { req, res }: ApiCall): void {
  access.handleSession(
    req,
    (status, body, headers) => sendJson(res, status, JSON.stringify(body), headers),
    (status, code, message, headers) => sendError(res, status, code, message, undefined, headers),
  );
}

function logWhenDone(req: http.IncomingMessage, res: http.ServerResponse, log: (line: string) => void, route: string, started: number) {
  res.once('close', () => {
    const outcome = res.writableFinished ? String(res.statusCode) : `${res.statusCode} aborted`;
    const ms = Math.round(performance.now() - started);
    log(`${req.method} ${route} ${outcome} ${ms}ms ${bytesSent(res)}B`);
  });
}

/** An asynchronous route that fails unexpectedly costs its own request only, never the process. */
function settle(res: http.ServerResponse, handled: void | Promise<void>): void {
  handled?.catch(() => res.destroy());
}
