import type http from 'node:http';
import { clientOf } from './client.ts';

/**
 * Headers on every response of the production server. The CSP allows no inline script; images may be
 * blob: URLs because identity pictures are decoded in the browser into object URLs.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/**
 * Over https, browsers are told to use nothing else for a year (HSTS). Sent only then: over plain http
 * the header means nothing, and on a name that is also served without TLS it would lock users out. Not
 * `includeSubDomains`: other services under the same domain are not this server's to decide for.
 */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

export function setSecurityHeaders(req: http.IncomingMessage, res: http.ServerResponse): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  if (clientOf(req).https) res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
}
