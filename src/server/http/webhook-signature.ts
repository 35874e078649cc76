import { createHmac, timingSafeEqual } from 'node:crypto';

/** The digest as the service sends it: 64 hex digits, bare or after `sha256=` (`SHA256=` too: neither the prefix's case nor the digits' matters). */
const SIGNATURE = /^(?:sha256=)?([0-9a-f]{64})$/i;

/** The HMAC-SHA256 of `body` with `secret`, in hex: what the service puts in `X-Hub-Signature`. */
export function signatureOf(body: Buffer | string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Whether `header` signs exactly these bytes with `secret`. A header of the wrong form is refused before
 * any comparison (its length tells nothing about the secret); one of the right form is compared byte
 * for byte in constant time, so the time taken does not say how much of a forged digest was right.
 */
export function signatureMatches(body: Buffer, header: string | string[] | undefined, secret: string): boolean {
  if (typeof header !== 'string') return false;
  const given = SIGNATURE.exec(header.trim());
  if (!given) return false;
  return timingSafeEqual(Buffer.from(given[1]!, 'hex'), createHmac('sha256', secret).update(body).digest());
}
