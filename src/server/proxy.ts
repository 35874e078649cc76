import http from 'node:http';
import https from 'node:https';
import { API_PREFIX, type ApiErrorCode, type ApiErrorBody, type ApiMeta } from '../kyc/api.ts';
import { checkId, encodeIdSegment, isLookupKind, type LookupKind } from '../kyc/lookup.ts';

/**
 * The key-holding proxy: one connect-style handler for `/api/*`, mounted by the Vite plugin in
 * development and by the production server. The API key lives only in this closure.
 */
export interface UpstreamTarget {
  baseUrl: string;
  clientId: string;
  apiKey: string;
}

export interface ApiHandlerOptions {
  upstream: UpstreamTarget;
  timeoutMs: number;
  maxResponseBytes: number;
  meta: ApiMeta;
  /** One line per request: method, route, status, duration, bytes. Never an id, a key or candidate data. */
  log?: (line: string) => void;
}

export type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next?: () => void) => void;

/** Response headers of the upstream that reach the browser; all others are dropped. */
const FORWARDED_RESPONSE_HEADERS = ['content-type', 'content-length', 'content-encoding'] as const;
/** Request headers of the browser that reach the upstream; all others are dropped. */
const FORWARDED_REQUEST_HEADERS = ['accept', 'accept-encoding'] as const;

const CANDIDATE_ROUTE = `${API_PREFIX}/candidates/`;

export function createApiHandler(options: ApiHandlerOptions): Middleware {
  const base = new URL(options.upstream.baseUrl);
  const transport = base.protocol === 'https:' ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets: 128 });
  const basePath = base.pathname.replace(/\/+$/, '');
  const clientSegment = encodeURIComponent(options.upstream.clientId);
  const metaBody = JSON.stringify(options.meta);
  const log = options.log ?? (() => {});

  return (req, res, next) => {
    const rawPath = (req.url ?? '/').split('?')[0]!;
    if (rawPath !== API_PREFIX && !rawPath.startsWith(`${API_PREFIX}/`)) {
      if (next) return next();
      return sendError(res, 404, 'no_such_route', 'Not found.');
    }
    const started = performance.now();
    let route = 'unknown';
    res.once('close', () => {
      const outcome = res.writableFinished ? String(res.statusCode) : `${res.statusCode} aborted`;
      const ms = Math.round(performance.now() - started);
      log(`${req.method} ${route} ${outcome} ${ms}ms ${bytesSent(res)}B`);
    });

    if (rawPath === `${API_PREFIX}/meta`) {
      route = '/api/meta';
      if (!allowGet(req, res)) return;
      return sendJson(res, 200, metaBody);
    }
    if (!rawPath.startsWith(CANDIDATE_ROUTE)) {
      return sendError(res, 404, 'no_such_route', `There is no API route ${API_PREFIX}/… of that name.`);
    }
    const rest = rawPath.slice(CANDIDATE_ROUTE.length);
    const slash = rest.indexOf('/');
    const kind = slash === -1 ? rest : rest.slice(0, slash);
    if (slash === -1 || !isLookupKind(kind)) {
      return sendError(res, 404, 'no_such_route', 'Look candidates up at /api/candidates/refId/<id> or /api/candidates/recordId/<id>.');
    }
    route = `/api/candidates/${kind}/:id`;
    if (!allowGet(req, res)) return;
    const encodedId = rest.slice(slash + 1);
    if (encodedId.includes('/')) {
      return sendError(res, 400, 'invalid_id', 'The id must be one URL path segment: encode "/" as %2F.');
    }
    let id: string;
    try {
      id = decodeURIComponent(encodedId);
    } catch {
      return sendError(res, 400, 'invalid_id', 'The id is not correctly percent-encoded.');
    }
    const check = checkId(id);
    if (!check.ok) return sendError(res, 400, 'invalid_id', check.message);

    forward(req, res, kind, id);
  };

  function forward(req: http.IncomingMessage, res: http.ServerResponse, kind: LookupKind, id: string): void {
    const headers: http.OutgoingHttpHeaders = {
      authorization: options.upstream.apiKey,
      'cache-control': 'no-cache',
      accept: 'application/json',
    };
    for (const name of FORWARDED_REQUEST_HEADERS) {
      if (req.headers[name] !== undefined) headers[name] = req.headers[name];
    }
    const upstreamReq = transport.request({
      protocol: base.protocol,
      hostname: base.hostname.replace(/^\[|\]$/g, ''),
      port: base.port || undefined,
      method: 'GET',
      path: `${basePath}/kyc/1.0/connect/${clientSegment}/${kind}/${encodeIdSegment(id)}`,
      headers,
      agent,
    });

    let settled = false;
    const fail = (status: number, code: ApiErrorCode, message: string, extra?: Partial<ApiErrorBody['error']>) => {
      if (settled) return;
      settled = true;
      clearTimeout(headersDeadline);
      upstreamReq.destroy();
      sendError(res, status, code, message, extra);
    };
    const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
    const headersDeadline = setTimeout(
      () => fail(504, 'upstream_timeout', `The KYC service did not answer within ${seconds(options.timeoutMs)}.`),
      options.timeoutMs,
    );
    // Idle time on the socket, so that a body that stops flowing is cut as well.
    upstreamReq.setTimeout(options.timeoutMs, () => {
      if (!settled) {
        fail(504, 'upstream_timeout', `The KYC service did not answer within ${seconds(options.timeoutMs)}.`);
      } else {
        upstreamReq.destroy(new Error('upstream body stalled'));
      }
    });
    upstreamReq.on('error', (error: NodeJS.ErrnoException) => {
      fail(502, 'upstream_unreachable', `The KYC service could not be reached (${describeNetworkError(error)}).`);
    });
    res.once('close', () => {
      if (!res.writableFinished) upstreamReq.destroy();
    });

    upstreamReq.on('response', (upstreamRes) => {
      if (settled) return upstreamRes.destroy();
      const status = upstreamRes.statusCode ?? 502;
      if (status < 200 || status >= 300) {
        upstreamRes.resume();
        if (status === 404) return fail(404, 'not_found', `No candidate with ${kind} "${id}".`);
        if (status === 401 || status === 403) {
          return fail(
            502,
            'upstream_unauthorized',
            `The KYC service rejected this server's API key (HTTP ${status}). An administrator must check KYC_API_KEY and KYC_CLIENT_ID.`,
          );
        }
        if (status === 429) {
          const retryAfter = parseRetryAfter(upstreamRes.headers['retry-after']);
          if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
          return fail(
            429,
            'upstream_rate_limited',
            retryAfter === undefined
              ? 'The KYC service is limiting requests (HTTP 429). Wait a little and try again.'
              : `The KYC service is limiting requests (HTTP 429). Try again in ${retryAfter} s.`,
            retryAfter === undefined ? undefined : { retryAfterSeconds: retryAfter },
          );
        }
        return fail(502, 'upstream_error', `The KYC service answered with an error (HTTP ${status}).`, {
          upstreamStatus: status,
        });
      }

      const declaredLength = Number(upstreamRes.headers['content-length']);
      if (declaredLength > options.maxResponseBytes) {
        upstreamRes.destroy();
        return fail(502, 'response_too_large', tooLargeMessage(options.maxResponseBytes));
      }
      settled = true;
      clearTimeout(headersDeadline);

      const outgoing: http.OutgoingHttpHeaders = { 'cache-control': 'no-store' };
      for (const name of FORWARDED_RESPONSE_HEADERS) {
        if (upstreamRes.headers[name] !== undefined) outgoing[name] = upstreamRes.headers[name];
      }
      res.writeHead(200, outgoing);

      // Streamed, never buffered: a full record with pictures weighs megabytes. Any failure once the
      // status line is sent can only be signalled by cutting the connection, so the browser sees an
      // incomplete body rather than a truncated one that looks whole.
      let received = 0;
      upstreamRes.on('data', (chunk: Buffer) => {
        received += chunk.length;
        countBytes(res, chunk.length);
        if (received > options.maxResponseBytes) upstreamRes.destroy(new Error('response too large'));
      });
      upstreamRes.once('error', () => res.destroy());
      upstreamRes.once('aborted', () => res.destroy());
      upstreamRes.once('close', () => {
        if (!upstreamRes.complete) res.destroy();
      });
      upstreamRes.pipe(res);
    });
    upstreamReq.end();
  }
}

function allowGet(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (req.method === 'GET') return true;
  res.setHeader('Allow', 'GET');
  sendError(res, 405, 'method_not_allowed', `${req.method} is not allowed here: this API is read-only (GET).`);
  return false;
}

function tooLargeMessage(limit: number): string {
  return `The KYC service's response is larger than the ${Math.round(limit / 1024 / 1024) || '<1'} MB this server accepts (KYC_MAX_RESPONSE_BYTES).`;
}

function describeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host name not found';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'network unreachable';
    default:
      return error.code ?? 'network error';
  }
}

/** Retry-After as seconds: either delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text.trim());
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

const BYTES = Symbol('bytes sent');
type Counted = http.ServerResponse & { [BYTES]?: number };

function countBytes(res: http.ServerResponse, n: number): void {
  (res as Counted)[BYTES] = ((res as Counted)[BYTES] ?? 0) + n;
}

function bytesSent(res: http.ServerResponse): number {
  return (res as Counted)[BYTES] ?? 0;
}

function sendJson(res: http.ServerResponse, status: number, body: string): void {
  const length = Buffer.byteLength(body);
  countBytes(res, length);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': length,
    'cache-control': 'no-store',
  });
  res.end(body);
}

export function sendError(
  res: http.ServerResponse,
  status: number,
  code: ApiErrorCode,
  message: string,
  extra?: Partial<ApiErrorBody['error']>,
): void {
  const body: ApiErrorBody = { status: 'error', error: { code, message, ...extra } };
  sendJson(res, status, JSON.stringify(body));
}
