/**
 * A `Retry-After` header as seconds: delay-seconds (a fraction rounded up; the first of a list a proxy
 * joined with commas) or an HTTP date (counted from now). Undefined when absent, unreadable, or no wait
 * at all (0, a date past): a 429 that asks for no wait is read as one that did not say, so that the
 * caller's own backoff applies rather than asking again at once, and no page says "Try again in 0 s".
 * Only a text with a clock time is read as a date: V8's Date.parse takes "1.5", "-5" and "120, 5" as days
 * of 2001. The proxy reads the service's, the browser the proxy's.
 */
export function parseRetryAfter(value: string | readonly string[] | null | undefined): number | undefined {
  const text = (typeof value === 'string' ? value : value?.[0])?.trim();
  if (!text) return undefined;
  const seconds = /^(\d{1,9})(\.\d+)?\s*(?:,|$)/.exec(text);
  if (seconds) return positive(Number(seconds[1]) + (seconds[2] ? Math.ceil(Number(seconds[2])) : 0));
  if (!/[A-Za-z]{3}/.test(text) || !/\d{1,2}:\d{2}:\d{2}/.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return positive(Math.ceil((date - Date.now()) / 1000));
}

const positive = (seconds: number) => (seconds > 0 ? seconds : undefined);
