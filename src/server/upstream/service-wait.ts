import { MAX_RETRY_AFTER_SECONDS, parseRetryAfter, secondsOfDigits } from '../../kyc/contract/retry-after.ts';
import { ApiFailure } from '../http/api-failure.ts';

/**
 * How long the KYC service asks to be left alone after its 429, read in one place. Integrations of the
 * real service read the wait from the body, `{"status":"error",…,"extra":{"retryAfter":30}}` (seconds);
 * no published answer shows a `Retry-After` header, but a gateway in front of it may add one. Either is
 * honoured, the larger when both are given, and never more than MAX_SERVICE_WAIT_SECONDS.
 */

/**
 * What a wait holds back: the service's answer to one operation. The list (`.../applicants/<status>`) is
 * asked only by the queue's crawler; a lookup (`.../refId/<id>`, `.../recordId/<id>`) by every user, batch,
 * webhook check and the crawler's dating. Nothing the service publishes says whether its 429 counts per
 * operation or for the whole key (no scope in the answer, upstream-api-facts.md), so a wait holds the
 * operation that was told it. Held for the whole key, a list answering 429 for ever refused every
 * reviewer's lookup: the crawler asked again as each wait ended and set the next. If the limit is the
 * key's, the first lookup sent is answered its own 429 and lookups wait from then: one request more.
 */
export type ServiceOperation = 'lookup' | 'list';

/**
 * The longest wait honoured: 5 minutes. A lookup's wait stops every lookup of an environment (every user,
 * every batch, the queue's crawler), so one answer must not stop it for hours: a wait in milliseconds
 * read as seconds (30000), a bug or a hostile answer. Five minutes covers any per-minute quota the
 * service may count; after it one request asks again, and a service still limiting says so anew.
 */
export const MAX_SERVICE_WAIT_SECONDS = 300;

/** The wait in seconds, from the header and the body (either may be missing or unreadable); undefined when neither says. */
export function serviceWaitSeconds(retryAfterHeader: string | string[] | undefined, body: Buffer | undefined): number | undefined {
  return serviceWaitOf(retryAfterHeader, body === undefined ? undefined : jsonOf(body));
}

/** The wait in seconds, from the header and the value the body holds (errorBodyValue: all of it, or what of a long one was read). */
export function serviceWaitOf(retryAfterHeader: string | string[] | undefined, value: unknown): number | undefined {
  const asked = askedWaitOf(retryAfterHeader, value);
  return asked === undefined ? undefined : Math.min(MAX_SERVICE_WAIT_SECONDS, asked);
}

/**
 * The wait as the service asked for it, before serviceWaitOf caps it (at most MAX_RETRY_AFTER_SECONDS):
 * for the words only, which say when it asked for longer than this server waits (waitWords).
 */
export function askedWaitOf(retryAfterHeader: string | string[] | undefined, value: unknown): number | undefined {
  const fromHeader = parseRetryAfter(retryAfterHeader);
  const fromBody = bodyRetryAfter(value);
  if (fromHeader === undefined && fromBody === undefined) return undefined;
  // 0 says no wait at all: read as not said (parseRetryAfter), so that no one asks again at once.
  const seconds = Math.max(fromHeader ?? 0, fromBody ?? 0);
  return seconds > 0 ? seconds : undefined;
}

/**
 * The end of a 429's sentence: when to try again, `waitSeconds` (capped). A service that asked for longer
 * is said to have: "Try again in 300 s." after it asked for an hour was false, the page promising an
 * answer the service had said it would not give. Said in minutes (or hours) then, as the service's wait is.
 */
export function waitWords(waitSeconds: number, askedSeconds: number | undefined): string {
  if (askedSeconds === undefined || askedSeconds <= waitSeconds) return `Try again in ${waitSeconds} s.`;
  return `It asked to wait ${spanOf(askedSeconds)}; this server asks again in ${spanOf(waitSeconds)}.`;
}

/**
 * A 429's sentence without its "when" (waitWords), for a page that says when on its own (the queue's tab:
 * queue-view-failure.ts): the wait the service asked for, when longer, stays said.
 */
export function withoutWhen(message: string): string {
  return message.replace(/ Try again in \d+ s\.$/, '').replace(/; this server asks again in [^.;]+\.$/, '.');
}

/** A wait of minutes or more in words: "5 min", "60 min", "3 h", "2 days" (rounded up; under 2 min in seconds). */
function spanOf(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes <= 120) return `${minutes} min`;
  const hours = Math.ceil(minutes / 60);
  return hours <= 48 ? `${hours} h` : `${Math.ceil(hours / 24)} days`;
}

function jsonOf(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The wait a JSON body gives: `extra.retryAfter`, as integrations read it, or `retryAfter` at the top of
 * the body (`{"status":"error","code":429,"retryAfter":17}`), the larger when both are; each read alike,
 * as the header is: a number of seconds (a fraction rounded up), or a string of digits, however large
 * (`1e400` is JSON's Infinity; 11 digits as text), a long wait, which serviceWaitOf caps (askedWaitOf keeps it, for the words).
 */
function bodyRetryAfter(json: unknown): number | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const { extra, retryAfter } = json as { extra?: unknown; retryAfter?: unknown };
  const nested = typeof extra === 'object' && extra !== null ? (extra as { retryAfter?: unknown }).retryAfter : undefined;
  const waits = [secondsOf(nested), secondsOf(retryAfter)].filter((seconds) => seconds !== undefined);
  return waits.length ? Math.max(...waits) : undefined;
}

/** One `retryAfter` value as seconds: a number not below 0 (rounded up), or a string of digits. */
function secondsOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value >= 0 ? Math.ceil(Math.min(value, MAX_RETRY_AFTER_SECONDS)) : undefined;
  const digits = typeof value === 'string' ? /^\s*(\d+)\s*$/.exec(value) : null;
  return digits ? secondsOfDigits(digits[1]!) : undefined;
}

/** A request not sent because the service's wait has not passed: said as the service's 429 would be, with the seconds left. */
export function stillWaiting(seconds: number): ApiFailure {
  return new ApiFailure(
    'upstream_rate_limited',
    `The KYC service is limiting requests (HTTP 429) and asked to wait: nothing was sent to it. Try again in ${seconds} s.`,
    { retryAfterSeconds: seconds },
  );
}

/**
 * The wait as every instance of an environment shares it, with REDIS_URL (service-wait-redis.ts).
 * Without a shared store there is none, and the wait is this process's alone.
 */
export interface SharedWait {
  /** Tells the other instances that the service asked to wait `ms` from now; settles once told or not (never rejects). */
  tell(ms: number): Promise<void>;
  /**
   * `learned(ms)` is called with each wait another instance was told, in ms left from now, and with the
   * one standing when this instance connects (or connects again).
   */
  watch(learned: (ms: number) => void): void;
}

/** Every environment's shared waits, by its name and the operation: the same on every instance is the same wait. */
export interface SharedWaits {
  of(environment: string, operation?: ServiceOperation): SharedWait;
  close(): Promise<void>;
}

/**
 * The service's wait as the client remembers it, per environment: until when no request should reach
 * it. `now` is the clock of the waits (tests give one that does not wait). With `shared`, the waits the
 * other instances were told end it too: `until` is kept here, so that asking whether to wait stays a
 * comparison, never a question to Redis.
 */
export function serviceWaitState(now: () => number, shared?: SharedWait) {
  let until = 0;
  // Only ever later: no answer, this instance's or another's, shortens a wait (a later 429 that asks less).
  const waitFor = (ms: number) => {
    until = Math.max(until, now() + ms);
  };
  // What another instance says is capped as the service's own word is: a wait there stops this instance too.
  shared?.watch((ms) => {
    if (ms > 0) waitFor(Math.min(ms, MAX_SERVICE_WAIT_SECONDS * 1000));
  });
  return {
    /** The service asked to wait this long: remembered here at once, then told to the other instances (settles when told, or not). */
    asked(seconds: number): Promise<void> {
      waitFor(seconds * 1000);
      return shared ? shared.tell(seconds * 1000) : Promise.resolve();
    },
    /** When the wait ends, on the `now` clock; 0 or a past time when there is none. */
    pausedUntil: () => until,
    /** The refusal of a request made during the wait, with the whole seconds left; undefined when it has passed. */
    waiting(): ApiFailure | undefined {
      const left = until - now();
      return left > 0 ? stillWaiting(Math.ceil(left / 1000)) : undefined;
    },
  };
}
