import http from 'node:http';
import https from 'node:https';
import { API_PREFIX, type ApiErrorBody, type ApiErrorCode, type ApiMeta } from '../kyc/contract/api.ts';
import { checkId, encodeIdSegment, isLookupKind, type LookupKind } from '../kyc/contract/lookup.ts';
import { candidateEnvelopeSchema } from '../kyc/contract/schema.ts';
import { createAccessControl, type AccessControl, type Identity } from './auth/access.ts';
import type { AuditEntry, AuditLog } from './audit.ts';
import { RateLimiter } from './rate-limit.ts';
import { setSecurityHeaders } from './security-headers.ts';

/**
 * The key-holding proxy: one connect-style handler for `/api/*`, mounted by the Vite plugin in
 * development and by the production server. The API keys live only in this closure.
 */
export interface UpstreamTarget {
  baseUrl: string;
  clientId: string;
  /** The full key: compliance users' lookups. */
  apiKey: string;
  /** A status-level key: support users' lookups. Without it, identity data is removed here. */
  statusApiKey?: string;
}

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

/** Response headers of the upstream that reach the browser; all others are dropped. The content type is
 * always JSON: whatever the upstream says, personal data is never served as something a browser renders. */
const FORWARDED_RESPONSE_HEADERS = ['content-length', 'content-encoding'] as const;
/** Request headers of the browser that reach the upstream; all others are dropped. */
const FORWARDED_REQUEST_HEADERS = ['accept', 'accept-encoding'] as const;

const CANDIDATE_ROUTE = `${API_PREFIX}/candidates/`;

/** What a status-level response may hold (besides `<status>Date` fields). */
const STATUS_LEVEL_FIELDS = new Set(['status', 'refId', 'recordId', 'isArchived', 'blockPassID', 'submitCount']);

type Level = NonNullable<AuditEntry['level']>;

interface Failure {
  status: number;
  code: ApiErrorCode;
  message: string;
  extra?: Partial<ApiErrorBody['error']>;
  headers?: Record<string, string>;
}

type UpstreamOutcome = { ok: false; failure: Failure; upstreamStatus: number | null } | { ok: true; response: http.IncomingMessage };

export function createApiHandler(options: ApiHandlerOptions): Middleware {
  const base = new URL(options.upstream.baseUrl);
  const transport = base.protocol === 'https:' ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets: 256 });
  const basePath = base.pathname.replace(/\/+$/, '');
  const clientSegment = encodeURIComponent(options.upstream.clientId);
  const metaBody = JSON.stringify(options.meta);
  const access = options.access ?? createAccessControl({ mode: 'local', allowUnauthenticated: false });
  const rateLimiter = options.rateLimiter ?? new RateLimiter(0);
  const log = options.log ?? (() => {});

  return (req, res, next) => {
    const rawPath = (req.url ?? '/').split('?')[0]!;
    if (rawPath !== API_PREFIX && !rawPath.startsWith(`${API_PREFIX}/`)) {
      if (next) return next();
      return sendError(res, 404, 'no_such_route', 'Not found.');
    }
    setSecurityHeaders(res);
    const started = performance.now();
    let route = 'unknown';
    res.once('close', () => {
      const outcome = res.writableFinished ? String(res.statusCode) : `${res.statusCode} aborted`;
      const ms = Math.round(performance.now() - started);
      log(`${req.method} ${route} ${outcome} ${ms}ms ${bytesSent(res)}B`);
    });

    if (rawPath === `${API_PREFIX}/session`) {
      route = '/api/session';
      return access.handleSession(
        req,
        (status, body, headers) => sendJson(res, status, JSON.stringify(body), headers),
        (status, code, message, headers) => sendError(res, status, code, message, undefined, headers),
      );
    }

    // Everything else needs a known user, and nothing reaches the upstream without one.
    const identity = access.identify(req);
    if (!identity) {
      route = rawPath.startsWith(CANDIDATE_ROUTE) ? '/api/candidates/…' : rawPath === `${API_PREFIX}/meta` ? '/api/meta' : 'unknown';
      return sendError(res, 401, 'unauthenticated', 'Sign in to look candidates up.');
    }

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
    lookup(req, res, identity, kind, rest.slice(slash + 1), started);
  };

  function lookup(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    identity: Identity,
    kind: LookupKind,
    encodedId: string,
    started: number,
  ): void {
    const level: Level = identity.role === 'compliance' ? 'full' : options.upstream.statusApiKey ? 'status' : 'stripped';
    let id = encodedId;
    const audited = (status: number, code: ApiErrorCode | null, upstreamStatus: number | null, reached: boolean) =>
      (
        options.audit?.record({
          time: new Date().toISOString(),
          user: identity.user,
          role: identity.role,
          kind,
          id,
          status,
          code,
          upstreamStatus,
          level: reached ? level : null,
          durationMs: Math.round(performance.now() - started),
        }) ?? Promise.resolve()
      ).then(
        () => true,
        () => {
          sendError(
            res,
            503,
            'audit_unavailable',
            'This lookup could not be recorded in the audit log, so it was refused. An administrator must check AUDIT_LOG.',
          );
          return false;
        },
      );
    // Fail closed: an answer leaves only once its audit line is written.
    const refuse = (failure: Failure, upstreamStatus: number | null = null, reached = false) =>
      void audited(failure.status, failure.code, upstreamStatus, reached).then((ok) => {
        if (ok) sendError(res, failure.status, failure.code, failure.message, failure.extra, failure.headers);
      });

    if (encodedId.includes('/')) {
      return refuse({ status: 400, code: 'invalid_id', message: 'The id must be one URL path segment: encode "/" as %2F.' });
    }
    try {
      id = decodeURIComponent(encodedId);
    } catch {
      return refuse({ status: 400, code: 'invalid_id', message: 'The id is not correctly percent-encoded.' });
    }
    const check = checkId(id);
    if (!check.ok) return refuse({ status: 400, code: 'invalid_id', message: check.message });

    const allowed = rateLimiter.take(access.rateLimitKey(req, identity));
    if (!allowed.ok) {
      return refuse({
        status: 429,
        code: 'rate_limited',
        message: `You have made many lookups in a short time. Try again in ${allowed.retryAfterSeconds} s.`,
        extra: { retryAfterSeconds: allowed.retryAfterSeconds },
        headers: { 'Retry-After': String(allowed.retryAfterSeconds) },
      });
    }

    const key = level === 'status' ? options.upstream.statusApiKey! : options.upstream.apiKey;
    // Reducing needs the plain JSON: ask the upstream not to compress it.
    forward(req, res, kind, id, key, level === 'full', (outcome) => {
      if (!outcome.ok) return refuse(outcome.failure, outcome.upstreamStatus, outcome.upstreamStatus !== null);
      const upstreamRes = outcome.response;
      const upstreamStatus = upstreamRes.statusCode ?? 200;
      // Without a length or chunked framing, a body cut short would look complete: not passed on.
      const framed =
        upstreamRes.headers['content-length'] !== undefined || /\bchunked\b/i.test(upstreamRes.headers['transfer-encoding'] ?? '');
      if (!framed) {
        upstreamRes.destroy();
        return refuse(
          {
            status: 502,
            code: 'upstream_error',
            message: 'The KYC service sent a response without a length, so it could not be checked to be complete.',
          },
          upstreamStatus,
          true,
        );
      }
      if (level !== 'full') {
        // Support users: the status-level record only, checked here whichever key fetched it.
        return void reduceToStatusLevel(upstreamRes).then((reduced) => {
          if (!reduced.ok) return refuse(reduced.failure, upstreamStatus, true);
          void audited(200, null, upstreamStatus, true).then((ok) => ok && sendJson(res, 200, reduced.body));
        });
      }
      // Watched from now on: a failure while the audit line is written must not go unnoticed.
      let broken = false;
      const markBroken = () => (broken = true);
      upstreamRes.once('error', markBroken);
      upstreamRes.once('aborted', markBroken);
      void audited(200, null, upstreamStatus, true).then((ok) => {
        if (!ok) return upstreamRes.destroy();
        if (broken || upstreamRes.destroyed) {
          return sendError(res, 502, 'upstream_error', 'The response of the KYC service broke off.');
        }
        stream(res, upstreamRes);
      });
    });
  }

  /** Sends the upstream body on unchanged, streamed, never buffered: a full record weighs megabytes. */
  function stream(res: http.ServerResponse, upstreamRes: http.IncomingMessage): void {
    const outgoing: http.OutgoingHttpHeaders = { 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' };
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      if (upstreamRes.headers[name] !== undefined) outgoing[name] = upstreamRes.headers[name];
    }
    res.writeHead(200, outgoing);
    // Once the status line is sent, a failure can only be signalled by cutting the connection, so the
    // browser sees an incomplete body rather than a truncated one that looks whole.
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
  }

  /**
   * For support users: the whole body is read, checked against the contract, and only the status-level
   * fields are kept (an allowlist: status, ids, archive flag, submission count, dates). Whatever cannot
   * be checked is refused, never passed on.
   */
  function reduceToStatusLevel(upstreamRes: http.IncomingMessage): Promise<{ ok: true; body: string } | { ok: false; failure: Failure }> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let received = 0;
      const refuseWith = (failure: Failure) => resolve({ ok: false, failure });
      upstreamRes.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > options.maxResponseBytes) upstreamRes.destroy(new Error('response too large'));
        else chunks.push(chunk);
      });
      upstreamRes.once('error', () =>
        refuseWith(
          received > options.maxResponseBytes
            ? {
                status: 502,
                code: 'response_too_large',
                message: "The KYC service's response is larger than this server accepts (KYC_MAX_RESPONSE_BYTES).",
              }
            : { status: 502, code: 'upstream_error', message: 'The response of the KYC service broke off.' },
        ),
      );
      upstreamRes.once('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return refuseWith({
            status: 502,
            code: 'upstream_error',
            message: 'The response of the KYC service is not JSON, so it could not be reduced to status level.',
          });
        }
        const parsed = candidateEnvelopeSchema.safeParse(json);
        if (!parsed.success) {
          return refuseWith({
            status: 502,
            code: 'upstream_error',
            message: 'The response of the KYC service does not have the expected shape, so it could not be reduced to status level.',
          });
        }
        const data = Object.fromEntries(
          Object.entries(parsed.data.data).filter(([field]) => STATUS_LEVEL_FIELDS.has(field) || field.endsWith('Date')),
        );
        resolve({ ok: true, body: JSON.stringify({ status: 'success', data }) });
      });
    });
  }

  function forward(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    kind: LookupKind,
    id: string,
    key: string,
    mayCompress: boolean,
    settle: (outcome: UpstreamOutcome) => void,
  ): void {
    const headers: http.OutgoingHttpHeaders = {
      authorization: key,
      'cache-control': 'no-cache',
      accept: 'application/json',
    };
    for (const name of FORWARDED_REQUEST_HEADERS) {
      if (req.headers[name] !== undefined) headers[name] = req.headers[name];
    }
    if (!mayCompress) headers['accept-encoding'] = 'identity';
    let upstreamReq: http.ClientRequest;
    try {
      upstreamReq = transport.request({
        protocol: base.protocol,
        hostname: base.hostname.replace(/^\[|\]$/g, ''),
        port: base.port || undefined,
        method: 'GET',
        path: `${basePath}/kyc/1.0/connect/${clientSegment}/${kind}/${encodeIdSegment(id)}`,
        headers,
        agent,
      });
    } catch {
      // Only a configuration no check caught can get here (a key Node refuses to send as a header).
      return settle({
        ok: false,
        upstreamStatus: null,
        failure: {
          status: 502,
          code: 'upstream_error',
          message: 'The request to the KYC service could not be made. An administrator must check KYC_API_KEY.',
        },
      });
    }

    let settled = false;
    const fail = (failure: Failure, upstreamStatus: number | null = null) => {
      if (settled) return;
      settled = true;
      clearTimeout(headersDeadline);
      upstreamReq.destroy();
      settle({ ok: false, failure, upstreamStatus });
    };
    const timeout = (): Failure => ({
      status: 504,
      code: 'upstream_timeout',
      message: `The KYC service did not answer within ${Math.round(options.timeoutMs / 100) / 10} s.`,
    });
    const headersDeadline = setTimeout(() => fail(timeout()), options.timeoutMs);
    // Idle time on the socket, so that a body that stops flowing is cut as well.
    upstreamReq.setTimeout(options.timeoutMs, () => {
      if (!settled) fail(timeout());
      else upstreamReq.destroy(new Error('upstream body stalled'));
    });
    upstreamReq.on('error', (error: NodeJS.ErrnoException) => {
      fail({
        status: 502,
        code: 'upstream_unreachable',
        message: `The KYC service could not be reached (${describeNetworkError(error)}).`,
      });
    });
    res.once('close', () => {
      if (!res.writableFinished) upstreamReq.destroy();
    });

    upstreamReq.on('response', (upstreamRes) => {
      if (settled) return upstreamRes.destroy();
      const status = upstreamRes.statusCode ?? 502;
      if (status < 200 || status >= 300) {
        upstreamRes.resume();
        return fail(failureOfStatus(status, kind, id, upstreamRes.headers['retry-after']), status);
      }
      if (Number(upstreamRes.headers['content-length']) > options.maxResponseBytes) {
        return fail(
          {
            status: 502,
            code: 'response_too_large',
            message: `The KYC service's response is larger than the ${Math.round(options.maxResponseBytes / 1024 / 1024) || '<1'} MB this server accepts (KYC_MAX_RESPONSE_BYTES).`,
          },
          status,
        );
      }
      settled = true;
      clearTimeout(headersDeadline);
      settle({ ok: true, response: upstreamRes });
    });
    upstreamReq.end();
  }
}

function failureOfStatus(status: number, kind: LookupKind, id: string, retryAfterHeader: string | string[] | undefined): Failure {
  if (status === 404) return { status: 404, code: 'not_found', message: `No candidate with ${kind} "${id}".` };
  if (status === 401 || status === 403) {
    return {
      status: 502,
      code: 'upstream_unauthorized',
      message: `The KYC service rejected this server's API key (HTTP ${status}). An administrator must check KYC_API_KEY and KYC_CLIENT_ID.`,
    };
  }
  if (status === 429) {
    // Without the service's word on when, a minute: a browser must be told something to wait for.
    const retryAfter = parseRetryAfter(retryAfterHeader) ?? 60;
    return {
      status: 429,
      code: 'upstream_rate_limited',
      message: `The KYC service is limiting requests (HTTP 429). Try again in ${retryAfter} s.`,
      extra: { retryAfterSeconds: retryAfter },
      headers: { 'Retry-After': String(retryAfter) },
    };
  }
  return {
    status: 502,
    code: 'upstream_error',
    message: `The KYC service answered with an error (HTTP ${status}).`,
    extra: { upstreamStatus: status },
  };
}

function allowGet(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (req.method === 'GET') return true;
  sendError(res, 405, 'method_not_allowed', `${req.method} is not allowed here: this API is read-only (GET).`, undefined, { Allow: 'GET' });
  return false;
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

function sendJson(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.destroy();
  const length = Buffer.byteLength(body);
  countBytes(res, length);
  res.writeHead(status, {
    ...headers,
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
  headers?: Record<string, string>,
): void {
  const body: ApiErrorBody = { status: 'error', error: { code, message, ...extra } };
  sendJson(res, status, JSON.stringify(body), headers);
}
