import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import pino from 'pino';

/**
 * The server's one log: JSON lines (pino) on stdout, one per request plus start-up and operational
 * events, warnings among them. Each request logs through a child bound to its id, its route's shape and,
 * once known, its user. A request line names the route's shape, never the path: a path can hold a
 * candidate id (a deep link such as /candidates/refId/<id> reaches the static files too). Never an id,
 * a key or candidate data.
 */
export type Logger = pino.Logger;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** How lines are written (LOG_FORMAT): text for a person at a terminal, or JSON lines for a collector. */
export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** `destination`: where lines go (default stdout, written synchronously so none is lost at exit). */
export function createLogger(destination?: pino.DestinationStream, level: LogLevel = 'info'): Logger {
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ fd: 1, sync: true }),
  );
}

/** For a handler given no logger (tests): nothing is written. */
export const SILENT_LOGGER: Logger = pino({ level: 'silent' });

export interface RequestRecord {
  reqId: string;
  method: string;
  /** The route's shape (`/api/candidates/refId/:id`, `static`, `/healthz`), never the path itself. */
  route: string;
  /** Who asked, once known (a signed-in user's name, as in the audit log). */
  user?: string;
  status: number;
  ms: number;
  /** Body bytes sent. */
  bytes: number;
  /** The connection closed before the answer was complete. */
  aborted?: true;
}

const REQUEST_ID = Symbol('request id');
const ROUTE = Symbol('route');
const USER = Symbol('user');
const LOG = Symbol('request log');
type RequestLog = { base: Logger; child?: Logger };
type Tagged = http.ServerResponse & { [REQUEST_ID]?: string; [ROUTE]?: string; [USER]?: string; [LOG]?: RequestLog };

/**
 * This request's id, made here (never taken from the request: a client could put anything in it),
 * sent back as `X-Request-Id` and written to the audit line, so a log line and an audit line can be
 * matched.
 */
export function requestIdOf(res: http.ServerResponse): string {
  const tagged = res as Tagged;
  if (!tagged[REQUEST_ID]) {
    tagged[REQUEST_ID] = randomUUID();
    if (!res.headersSent) res.setHeader('X-Request-Id', tagged[REQUEST_ID]);
  }
  return tagged[REQUEST_ID];
}

export function setRoute(res: http.ServerResponse, route: string): void {
  (res as Tagged)[ROUTE] = route;
  forgetChild(res);
}

/** The signed-in user asking, for this request's log lines. */
export function noteUser(res: http.ServerResponse, user: string): void {
  (res as Tagged)[USER] = user;
  forgetChild(res);
}

function forgetChild(res: http.ServerResponse): void {
  const log = (res as Tagged)[LOG];
  if (log) log.child = undefined;
}

/**
 * Starts this request's log under `logger`, and writes its line (method, status, duration, bytes) when
 * its response is finished or its connection closes. The first caller wins (the app server, before the
 * API handler that also runs alone under Vite): one line per request. `bytes` is asked then, as the
 * handler that answered knows it best.
 */
export function startRequestLog(req: http.IncomingMessage, res: http.ServerResponse, logger: Logger, bytes: () => number): void {
  const tagged = res as Tagged;
  if (tagged[LOG]) return;
  tagged[LOG] = { base: logger };
  requestIdOf(res);
  const started = performance.now();
  res.once('close', () => {
    const line = {
      method: req.method ?? '?',
      // Nothing answered: the browser left first (499, as proxies and the audit log write it), not the
      // 200 Node's response holds until a status is set (resilience review: 200s that never happened).
      status: res.headersSent ? res.statusCode : 499,
      ms: Math.round(performance.now() - started),
      bytes: bytes(),
      ...(res.writableFinished ? {} : { aborted: true as const }),
    };
    requestLog(res).info(line, 'request');
  });
}

/** The request's logger: its id, route and user bound to every line (silent if no log was started). */
export function requestLog(res: http.ServerResponse): Logger {
  const tagged = res as Tagged;
  const log = tagged[LOG];
  if (!log) return SILENT_LOGGER;
  log.child ??= log.base.child({
    reqId: requestIdOf(res),
    route: tagged[ROUTE] ?? 'unknown',
    ...(tagged[USER] !== undefined ? { user: tagged[USER] } : {}),
  });
  return log.child;
}

/**
 * An error nobody expected, logged once on the request's line of log: its type, its code and where it
 * was thrown, never its message. A message can hold anything that reached the code that threw: an
 * upstream body quoted in a parse error, a candidate's name, the key in a header Node refused.
 */
export function logUnexpected(res: http.ServerResponse, error: unknown): void {
  requestLog(res).error({ error: describeUnexpected(error) }, 'unexpected error');
}

/**
 * A failure that carries this server's own fault as its `cause` (an `internal_error`: a reader of an answer
 * that threw, upstream-body.ts's scanFaultFailure), logged once where it is settled, as logUnexpected logs
 * what was thrown: a batch row, the crawler's lookups and list pages, an answer (http-reply.ts). Nothing for
 * any other failure, nor for none.
 */
export function logFaultOf(logger: Logger, failure: { code: string; cause?: unknown } | undefined): void {
  if (failure?.code === 'internal_error' && failure.cause !== undefined)
    logger.error({ error: describeUnexpected(failure.cause) }, 'unexpected error');
}

export interface UnexpectedError {
  /** The error's class name (`TypeError`), or the type of what was thrown when it is not an Error. */
  type: string;
  /** Node's error code (`ERR_STREAM_WRITE_AFTER_END`), when it has one of that shape. */
  code?: string;
  /** The stack's frames, without the message that V8 writes at its top. */
  stack: string[];
}

export function describeUnexpected(error: unknown): UnexpectedError {
  if (!(error instanceof Error)) return { type: error === null ? 'null' : typeof error, stack: [] };
  const code = (error as NodeJS.ErrnoException).code;
  return {
    type: /^[A-Za-z_$][\w$]{0,63}$/.test(error.name) ? error.name : 'Error',
    ...(typeof code === 'string' && /^[A-Z][A-Z0-9_]{0,63}$/.test(code) ? { code } : {}),
    stack: framesOf(error),
  };
}

/**
 * V8 writes `<name>: <message>` at the top of a stack, over as many lines as the message has, then one
 * `    at …` line per frame. The top is cut by its length; and only lines shaped like frames are kept, in
 * case the message was changed after the stack was taken (a line of it could look like a frame, but
 * not end like one: a position in a file, or V8's `(index N)`, `(native)` and `(<anonymous>)`).
 */
function framesOf(error: Error): string[] {
  const stack = error.stack ?? '';
  const top = String(error);
  const frames = stack.startsWith(top) ? stack.slice(top.length) : stack;
  return frames
    .split('\n')
    .filter((line) => /^\s+at \S.*(:\d+:\d+\)?|\(index \d+\)|\(native\)|\(<anonymous>\))$/.test(line))
    .map((line) => line.trim());
}

/** A log line as one line of text, for Vite's dev server output. */
export function formatLine(text: string): { level: string; text: string } {
  const line = JSON.parse(text) as Partial<RequestRecord> & { level: string; msg: string; error?: UnexpectedError };
  if (line.msg === 'request') {
    return {
      level: line.level,
      text: `${line.method} ${line.route} ${line.status}${line.aborted ? ' aborted' : ''} ${line.ms}ms ${line.bytes}B ${line.reqId}`,
    };
  }
  const where = line.reqId ? ` ${line.route} ${line.reqId}` : '';
  const { error } = line;
  const why = error ? ` ${error.type}${error.code ? ` ${error.code}` : ''}\n    ${error.stack.join('\n    ')}` : '';
  return { level: line.level, text: `${line.msg}${where}${why}` };
}
