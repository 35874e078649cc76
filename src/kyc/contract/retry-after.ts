/**
 * A `Retry-After` header as seconds: either delay-seconds or an HTTP date (then counted from now, never
 * below 0). Undefined when absent or unreadable. The proxy reads the service's, the browser the proxy's.
 */
export function parseRetryAfter(value: string | readonly string[] | null | undefined): number | undefined {
  const text = (typeof value === 'string' ? value : value?.[0])?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}
