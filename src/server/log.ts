import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import pino from 'pino';

/**
 * The server's log: JSON lines (pino) on stdout, one per request plus start-up and operational events.
 * A request line names the route's shape, never the path: a path can hold a candidate id (a deep link
 * such as /candidates/refId/<id> reaches the static files too). Never an id, a key or candidate data.
 */
export type Logger = pino.Logger;

/** `destination`: where lines go (default stdout, written synchronously so none is lost at exit). */
export function createLogger(destination?: pino.DestinationStream): Logger {
  return pino(
    {
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ fd: 1, sync: true }),
  );
}

export interface RequestRecord {
  reqId: string;
  method: string;
  /** The route's shape (`/api/candidates/refId/:id`, `static`, `/healthz`), never the path itself. */
  route: string;
  status: number;
  ms: number;
  /** Body bytes sent. */
  bytes: number;
  /** The connection closed before the answer was complete. */
  aborted?: true;
}

const REQUEST_ID = Symbol('request id');
const ROUTE = Symbol('route');
type Tagged = http.ServerResponse & { [REQUEST_ID]?: string; [ROUTE]?: string };

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
}

/**
 * Calls `done` once with the request's record when its response is finished or its connection closes.
 * `bytes` is asked then, as the handler that answered knows it best.
 */
export function whenRequestDone(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  bytes: () => number,
  done: (record: RequestRecord) => void,
): void {
  const started = performance.now();
  const reqId = requestIdOf(res);
  res.once('close', () => {
    done({
      reqId,
      method: req.method ?? '?',
      route: (res as Tagged)[ROUTE] ?? 'unknown',
      status: res.statusCode,
      ms: Math.round(performance.now() - started),
      bytes: bytes(),
      ...(res.writableFinished ? {} : { aborted: true as const }),
    });
  });
}

/** The same record as one line of text, for Vite's dev server log. */
export function formatRecord(record: RequestRecord): string {
  return `${record.method} ${record.route} ${record.status}${record.aborted ? ' aborted' : ''} ${record.ms}ms ${record.bytes}B ${record.reqId}`;
}
