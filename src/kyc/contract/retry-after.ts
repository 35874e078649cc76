/**
 * A `Retry-After` header as seconds: delay-seconds (a fraction rounded up; the first of a list a proxy
 * joined with commas) or an HTTP date (counted from now). Undefined when absent, unreadable, or no wait
 * at all (0, a date past): a 429 that asks for no wait is read as one that did not say, so that the
 * caller's own backoff applies rather than asking again at once, and no page says "Try again in 0 s".
 * Only a text with a clock time is read as a date: V8's Date.parse takes "1.5", "-5" and "120, 5" as days
 * of 2001. Any run of digits is a wait, the longest read as MAX_RETRY_AFTER_SECONDS, which each caller caps
 * to its own maximum (the proxy to 300 s, as it caps the body's): `99999999999` was read as no wait at all.
 * The proxy reads the service's, the browser the proxy's.
 */
export function parseRetryAfter(value: string | readonly string[] | null | undefined): number | undefined {
  const text = (typeof value === 'string' ? value : value?.[0])?.trim();
  if (!text) return undefined;
  const seconds = /^(\d+)(\.\d+)?\s*(?:,|$)/.exec(text);
  if (seconds) return positive(secondsOfDigits(seconds[1]!) + (seconds[2] ? Math.ceil(Number(seconds[2])) : 0));
  if (!/[A-Za-z]{3}/.test(text) || !/\d{1,2}:\d{2}:\d{2}/.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return positive(Math.ceil((date - Date.now()) / 1000));
}

/**
 * The longest wait read, about 31 years (the 9 digits once read): finite, and a time from now a Date still
 * holds (its range is some 275 000 years), whatever the run of digits or the date.
 */
export const MAX_RETRY_AFTER_SECONDS = 999_999_999;

/** A count of seconds read from text (any run of digits, however long), at most MAX_RETRY_AFTER_SECONDS. */
export function secondsOfDigits(digits: string): number {
  return Math.min(Number(digits), MAX_RETRY_AFTER_SECONDS);
}

const positive = (seconds: number) => (seconds > 0 ? Math.min(seconds, MAX_RETRY_AFTER_SECONDS) : undefined);
