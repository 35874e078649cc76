import type http from 'node:http';
import { clientOf } from './client.ts';
import type { ApiErrorCode } from '../../kyc/contract/api.ts';
import { ApiFailure, INTERNAL_ERROR_MESSAGE } from './api-failure.ts';
import { logFaultOf, logUnexpected, requestLog } from '../log/log.ts';
import { StoreUnavailableError } from '../state/store.ts';
import { ClientGoneError } from './request-body.ts';

/** Answers of the API, and the few things it reads from a request. Every API answer is JSON and `no-store`. */

/** The shared store (Redis) cannot be asked: sign-ins and lookups fail closed until it is back. */
export const STORE_UNAVAILABLE = new ApiFailure(
  'store_unavailable',
  'Candidate Lookup cannot reach its session store (Redis), so sign-in and lookups are paused. ' +
    'They resume by themselves once it is back: try again in a moment.',
);

/** `{"status":"success","data":null}`: an answer that holds no record, said as that, not as one perhaps encrypted. */
export const NO_RECORD = new ApiFailure(
  'not_a_record',
  "The KYC service's answer holds no record (data is null). If it keeps happening, tell whoever runs Candidate Lookup.",
);

/**
 * A success whose envelope gives `status` or `data` twice (envelope-members.ts): which one holds cannot be
 * told (JSON.parse keeps the last, a reader of its start the first), so it is read neither as a record nor
 * as an error, at either level.
 */
export const repeatedMember = (member: string) =>
  new ApiFailure(
    'not_a_record',
    `The KYC service's answer gives its envelope's "${member}" more than once, so it cannot be told whether it is a record or an error: it was refused. ` +
      'If it keeps happening, tell whoever runs Candidate Lookup.',
  );

const BYTES = Symbol('bytes sent');
const ERROR_CODE = Symbol('error code sent');
type Counted = http.ServerResponse & { [BYTES]?: number; [ERROR_CODE]?: ApiErrorCode };

/** Body bytes sent on this response, for the request log line. */
export function countBytes(res: http.ServerResponse, n: number): void {
  (res as Counted)[BYTES] = ((res as Counted)[BYTES] ?? 0) + n;
}

export function bytesSent(res: http.ServerResponse): number {
  return (res as Counted)[BYTES] ?? 0;
}

/** The error code this response answered, for metrics; undefined for a success. */
export function errorCodeSent(res: http.ServerResponse): ApiErrorCode | undefined {
  return (res as Counted)[ERROR_CODE];
}

export function sendJson(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  // Too late for an answer: cutting the connection is the only honest signal left.
  if (res.headersSent) return void res.destroy();
  const length = Buffer.byteLength(body);
  countBytes(res, length);
  // Answered before its body was whole (refused before it was read): Node would go on reading and dropping
  // the rest on the open connection until its deadline for the whole request, so a body trickled in would
  // hold it. It is closed once answered instead.
  if (res.req && !res.req.complete) res.setHeader('connection', 'close');
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': length,
    'cache-control': 'no-store',
  });
  res.end(body);
}

/** The one way an error leaves the API: the code's status, its JSON body, `Retry-After` or `Allow` when it has them. */
export function sendFailure(res: http.ServerResponse, failure: ApiFailure): void {
  if (!res.headersSent) (res as Counted)[ERROR_CODE] = failure.code;
  // This server's own fault, carried to here (a reader of an answer that threw: scanFaultFailure): logged once, by where it was thrown.
  logFaultOf(requestLog(res), failure);
  sendJson(res, failure.status, JSON.stringify(failure.body()), failure.headers());
}

/**
 * What a route threw, answered: an ApiFailure as itself, the shared store being down as 503 (expected:
 * sessions and limits cannot be checked, so the request fails closed and the next one tries again), and
 * anything else, unexpected, logged once (logUnexpected: where, never what it said) and answered 500.
 * Once an answer has started, cutting the connection is the only honest signal left. A client that left
 * before its body arrived (ClientGoneError) gets nothing.
 */
export function sendThrown(res: http.ServerResponse, error: unknown): void {
  // The client left before its request was whole: nobody is there to answer, and nothing went wrong here.
  if (error instanceof ClientGoneError) return void res.destroy();
  const failure = error instanceof ApiFailure ? error : error instanceof StoreUnavailableError ? STORE_UNAVAILABLE : undefined;
  if (!failure) logUnexpected(res, error);
  if (res.headersSent) return void res.destroy();
  sendFailure(res, failure ?? new ApiFailure('internal_error', INTERNAL_ERROR_MESSAGE));
}

/** A route that takes only `methods`: anything else is refused with 405 and `Allow`. */
export function methodNotAllowed(methods: string, message: string): ApiFailure {
  return new ApiFailure('method_not_allowed', message, { allow: methods });
}

/** The path exactly as sent, still percent-encoded, without the query string. */
export function rawPathOf(req: http.IncomingMessage): string {
  return (req.url ?? '/').split('?')[0]!;
}

/** Whether the browser reached us over TLS, directly or through a trusted proxy that says so (client.ts). */
export function isHttps(req: http.IncomingMessage): boolean {
  return clientOf(req).https;
}

export function readCookie(req: http.IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=') || undefined;
  }
  return undefined;
}

/** Aborted when the browser goes away before its answer is complete. */
export function leftEarly(res: http.ServerResponse): AbortSignal {
  const gone = new AbortController();
  // Gone before it was asked: its 'close' has passed.
  if (res.closed && !res.writableFinished) gone.abort();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  return gone.signal;
}
