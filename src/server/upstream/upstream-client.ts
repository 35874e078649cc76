import http from 'node:http';
import https from 'node:https';
import { type ApplicantsQuery, upstreamApplicantsPath } from '../../kyc/contract/applicants.ts';
import { encodeIdSegment, type LookupKind } from '../../kyc/contract/lookup.ts';
import type { RemoteUpstream } from '../config/config.ts';
import { type AnswerGuard, createAnswerGuard } from '../answer/answer-guard.ts';
import type { ScannedBody } from '../answer/answer-scan.ts';
import type { AskedCandidate } from '../answer/asked-id-watch.ts';
import { type KeySearch, keySearch } from '../answer/key-watch.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { secondsOf, wholeAnswerDeadline } from './answer-deadline.ts';
import { saidIn } from './service-message.ts';
import { redirected } from './redirect.ts';
import {
  declaredTooLarge,
  describeNetworkError,
  type FailureOfStatus,
  type KeyInUse,
  keyInUse,
  malformedAnswer,
  failureOfListStatus,
  failureOfStatus,
} from './upstream-failures.ts';
import { type ServiceOperation, type SharedWait, serviceWaitState } from './service-wait.ts';
import { ERROR_BODY_DEADLINE_MS, type ErrorBody, readErrorBody } from './error-body.ts';

/** The KYC service this server asks, with its keys: the configured one, or the embedded sandbox. */
export type UpstreamTarget = Omit<RemoteUpstream, 'kind'>;

export interface UpstreamLimits {
  /** For the status line and headers, and for each gap in the body (limits.upstreamTimeoutMs). */
  timeoutMs: number;
  /** For the whole answer, its body included (limits.upstreamAnswerTimeoutMs): a body trickled a byte at a time ends too. */
  answerTimeoutMs: number;
  maxResponseBytes: number;
}

/** Either the service's successful response, its headers read and its body still to come, or why not. */
export type UpstreamOutcome =
  | { ok: false; failure: ApiFailure; upstreamStatus: number | null }
  | { ok: true; response: http.IncomingMessage };

export interface CandidateRequest {
  kind: LookupKind;
  id: string;
  /** Which key asks: the full one, or the status-level one (only when configured). */
  scope: 'full' | 'status';
}

export interface UpstreamCall {
  outcome: Promise<UpstreamOutcome>;
  /**
   * Settles once the request no longer holds a connection to the service: it failed, or its response
   * closed (read to its end, cut or ended by its deadlines). Never rejects.
   */
  over: Promise<void>;
  /** Ends the request to the service, and its response if one is flowing (the browser went away). */
  abort(): void;
}

export interface ApplicantsRequest {
  query: ApplicantsQuery;
  /** Which key asks: the list holds status-level data, so the status-level key when there is one. */
  scope: 'full' | 'status';
}

export interface UpstreamClient {
  fetchCandidate(request: CandidateRequest): UpstreamCall;
  /** The list operation; its body is always uncompressed (this server reads and reduces it). */
  fetchApplicants(request: ApplicantsRequest): UpstreamCall;
  /** This service's keys, for the key watch of an answer's scan (key-watch.ts). */
  readonly keys: KeySearch;
  /**
   * A fresh guard for a full answer's body: envelope start checked, JSON throughout, the full key never
   * passed on. A full answer is only ever asked for with the full key, so only that key is searched: the
   * status key, not sent with it, cannot be reflected in it. With `asked`, nothing of a record that is
   * another candidate's is passed on (asked-id-watch.ts).
   */
  answerGuard(body: ScannedBody, asked?: AskedCandidate): AnswerGuard;
  /**
   * Until when the service asked to be left alone with `operation` (the last 429's wait of that operation, service-wait.ts),
   * in ms on the client's clock; 0 or a past time when it did not. A batch waits for the lookups', the crawler for its own.
   */
  pausedUntil(operation: ServiceOperation): number;
  /** During that wait: the refusal of a request that is then not sent, with the seconds left; else undefined. */
  waiting(operation: ServiceOperation): ApiFailure | undefined;
  /**
   * A 429 stated inside a lookup's 200 error envelope (statedErrorOf) asked for a wait: held as a lookup's
   * 429 is, at once here, and told to the other instances without holding this answer for them.
   */
  statedWait(seconds: number): void;
  /** The same stated in a list page's 200 (statedListError): held as the list's 429 is, other instances told before it settles. */
  statedListWait(seconds: number): Promise<void>;
  /** The key a request of `scope` goes with and where it is set: what a 401 stated in a 200's envelope names, as an HTTP 401 does. */
  keyInUse(scope: 'full' | 'status'): KeyInUse;
}

/**
 * What the service is asked with, whoever asks and whatever the browser accepts (none of the browser's
 * headers reach the service): JSON, the one form the service speaks and this server reads, and
 * uncompressed, so that each byte passed on can be checked for the key (answer-guard.ts).
 */
const ASKED_FORM = { 'cache-control': 'no-cache', accept: 'application/json', 'accept-encoding': 'identity' } as const;

/**
 * One keep-alive agent and one base path for every lookup; the keys stay in here. One client per
 * environment, so it is also where the service's waits are remembered, one per operation: `now` is their
 * clock, and `sharedWait` (with REDIS_URL) the same wait on every instance of the environment.
 */
export function createUpstreamClient(
  target: UpstreamTarget,
  limits: UpstreamLimits,
  now = () => Date.now(),
  sharedWait?: (operation: ServiceOperation) => SharedWait,
): UpstreamClient {
  const base = new URL(target.baseUrl);
  const transport = base.protocol === 'https:' ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets: 256, timeout: IDLE_SOCKET_MS });
  const prefix = `${base.pathname.replace(/\/+$/, '')}/kyc/1.0/connect/${encodeURIComponent(target.clientId)}`;
  const requestOptions = (path: string, headers: http.OutgoingHttpHeaders): http.RequestOptions => ({
    protocol: base.protocol,
    hostname: base.hostname.replace(/^\[|\]$/g, ''),
    port: base.port || undefined,
    method: 'GET',
    path: `${prefix}/${path}`,
    headers,
    agent,
  });
  const keyFor = (scope: 'full' | 'status') => (scope === 'status' && target.statusApiKey ? target.statusApiKey : target.apiKey);
  const fullKey = keySearch([target.apiKey]);
  const waits = { lookup: serviceWaitState(now, sharedWait?.('lookup')), list: serviceWaitState(now, sharedWait?.('list')) };
  // Every 429 that says how long to wait is remembered for its operation, whichever user got it. With a
  // shared wait, the 429 is answered once the other instances have been told (or could not be: Redis
  // away fails at once, a frozen one within its 2 s command timeout), so that an answer "wait 30 s" is
  // never followed by another instance still asking. Only a 429 pays this: no other answer waits on Redis.
  const remembered = (operation: ServiceOperation, call: UpstreamCall): UpstreamCall => ({
    abort: call.abort,
    over: call.over,
    outcome: call.outcome.then(async (outcome) => {
      const seconds = outcome.ok ? undefined : outcome.failure.retryAfterSeconds;
      if (!outcome.ok && outcome.upstreamStatus === 429 && seconds !== undefined) await waits[operation].asked(seconds);
      return outcome;
    }),
  });
  const keys = keySearch([target.apiKey, target.statusApiKey]);
  return {
    keys,
    answerGuard: (body, asked) => createAnswerGuard(body, fullKey, asked ? { asked } : {}),
    pausedUntil: (operation) => waits[operation].pausedUntil(),
    waiting: (operation) => waits[operation].waiting(),
    statedWait: (seconds) => void waits.lookup.asked(seconds).catch(() => {}),
    statedListWait: (seconds) => waits.list.asked(seconds).catch(() => {}),
    keyInUse: (scope) => keyInUse(target, scope),
    fetchCandidate(request) {
      const headers = { authorization: keyFor(request.scope), ...ASKED_FORM };
      const options = requestOptions(`${request.kind}/${encodeIdSegment(request.id)}`, headers);
      const failureOf: FailureOfStatus = (status, said) => failureOfStatus(status, request, said, keyInUse(target, request.scope));
      return remembered('lookup', send(transport, options, failureOf, limits, keys));
    },
    fetchApplicants(request) {
      const headers = { authorization: keyFor(request.scope), ...ASKED_FORM };
      const options = requestOptions(upstreamApplicantsPath(request.query), headers);
      const failureOf: FailureOfStatus = (status, said) => failureOfListStatus(status, said, keyInUse(target, request.scope));
      return remembered('list', send(transport, options, failureOf, limits, keys));
    },
  };
}

/**
 * How long a kept-alive socket may stay idle before this side drops it: under Node's server default of
 * 5 s (keepAliveTimeout), so that a request is not sent on a socket the service is closing at that very
 * moment. Given this, Node's agent also honours a `Keep-Alive: timeout=N` answer header (N-1 s); without
 * an agent timeout it ignores the header.
 */
export const IDLE_SOCKET_MS = 4000;

/** The socket closed under a request that had not been answered yet: sent on a socket the service was closing. */
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE']);

/**
 * One request to the service, asked again once on a kept-alive socket it was closing (isStaleSocket),
 * never after `abort()`: the reset of a request ended by whoever asked (the browser left, a batch
 * cancelled) is its own doing, and asking again sent every cancelled lookup to the service a second time.
 * `keys`: what an error's message must not hold to be shown (service-message.ts).
 */
function send(
  transport: typeof http | typeof https,
  options: http.RequestOptions,
  failureOf: FailureOfStatus,
  limits: UpstreamLimits,
  keys: KeySearch,
): UpstreamCall {
  let upstreamReq: http.ClientRequest | undefined;
  let aborted = false;
  const outcome = new Promise<UpstreamOutcome>((settle) => {
    let settled = false;
    // Once an error status has come: what the request comes to, also when its body then stalls or breaks off.
    let refused: (() => void) | undefined;
    let bodyDeadline: NodeJS.Timeout | undefined;
    const fail = (failure: ApiFailure, upstreamStatus: number | null = null) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(bodyDeadline);
      whole.clear();
      upstreamReq?.destroy();
      settle({ ok: false, failure, upstreamStatus });
    };
    const expire = () => (refused ? refused() : fail(lateFailure(upstreamReq, limits.timeoutMs)));
    const deadline = setTimeout(expire, limits.timeoutMs);
    const whole = wholeAnswerDeadline(limits.answerTimeoutMs, (failure) => (refused ? refused() : fail(failure)));
    const onResponse = (upstreamRes: http.IncomingMessage) => {
      if (settled) return upstreamRes.destroy();
      const status = upstreamRes.statusCode ?? 502;
      // Never followed (the key goes nowhere else), nor said to pass: the base URL moved (redirect.ts).
      if (status >= 300 && status < 400) return fail(redirected(status, upstreamRes.headers), status);
      if (status < 200 || status >= 300) {
        const failWith = (body?: ErrorBody) => fail(failureOf(status, saidIn(upstreamRes, status, body, keys)), status);
        refused = () => failWith();
        // The real service gives its wait in the body, a 404's says what was not found, and every error's
        // its reason (`message`): a few KiB of it are read, within a deadline of their own (error-body.ts).
        bodyDeadline = setTimeout(refused, ERROR_BODY_DEADLINE_MS);
        return void readErrorBody(upstreamRes).then(failWith);
      }
      const tooLarge = declaredTooLarge(upstreamRes, limits.maxResponseBytes);
      if (tooLarge) return fail(tooLarge, status);
      settled = true;
      clearTimeout(deadline);
      whole.flowing(upstreamRes);
      settle({ ok: true, response: upstreamRes });
    };
    const attempt = (retried: boolean) => {
      try {
        upstreamReq = transport.request(options);
      } catch {
        // Only a configuration no check caught can get here (a key Node refuses to send as a header).
        const message = 'The request to the KYC service could not be made. An administrator must check KYC_API_KEY.';
        return fail(new ApiFailure('upstream_error', message));
      }
      const req = upstreamReq;
      // Idle time on the socket, so that a body that stops flowing is cut as well.
      req.setTimeout(limits.timeoutMs, () => {
        if (!settled) expire();
        else req.destroy(new Error('upstream body stalled'));
      });
      let answered = false;
      req.on('socket', (socket) => socket.once('data', () => (answered = true)));
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (settled) return;
        if (refused) return refused();
        // Node's HTTP parser refused the answer: the service was reached, and answered what is no HTTP answer.
        const malformed = malformedAnswer(error);
        if (malformed) return fail(malformed);
        if (!retried && !aborted && isStaleSocket(req, error, answered)) return attempt(true);
        fail(new ApiFailure('upstream_unreachable', `The KYC service could not be reached (${describeNetworkError(error)}).`));
      });
      req.on('response', onResponse);
      req.end();
    };
    attempt(false);
  });
  return {
    outcome,
    over: outcome.then((settled) => (settled.ok ? closeOf(settled.response) : undefined)),
    abort: () => {
      aborted = true;
      upstreamReq?.destroy();
    },
  };
}

/** Resolves once the response has closed. */
function closeOf(response: http.IncomingMessage): Promise<void> {
  return response.closed ? Promise.resolve() : new Promise((resolve) => response.once('close', () => resolve()));
}

/**
 * No status line in time: the service's delay, or, for a request still waiting for one of the agent's
 * connections (all 256 busy, with webhook checks and the queue's crawler too), this server's own: the
 * service was never asked, and a 504 "did not answer" would blame it.
 */
function lateFailure(req: http.ClientRequest | undefined, timeoutMs: number): ApiFailure {
  if (req && !req.socket) return NO_CONNECTION;
  return new ApiFailure('upstream_timeout', `The KYC service did not answer within ${secondsOf(timeoutMs)} s.`);
}

const NO_CONNECTION = new ApiFailure(
  'server_busy',
  'This server has as many requests to the KYC service under way as it can make at once, so this one was not sent. Try again in a moment.',
);

/**
 * A GET sent on a kept-alive socket that the service closed before a byte of its answer came back: the
 * service was closing that idle socket as the request went out (Node documents `reusedSocket` for this).
 * Asking again, once, on another socket is safe. A fresh socket's reset, or one after answer bytes, is
 * the service's doing and is reported.
 */
function isStaleSocket(req: http.ClientRequest, error: NodeJS.ErrnoException, answered: boolean): boolean {
  return req.reusedSocket && !answered && req.method === 'GET' && RESET_CODES.has(error.code ?? '');
}
