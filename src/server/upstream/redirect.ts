import type http from 'node:http';
import { ApiFailure } from '../http/api-failure.ts';

/**
 * A redirect (3xx) of the service's address: never followed, so that the API key goes nowhere but the
 * address configured. It is not a passing fault either: the base URL moved (another host, http to
 * https), and every lookup gets the same answer until an administrator updates it. The page is told where
 * it points, by its origin only (never its path, which may hold an id), and only when that is another
 * address than the one configured (a path moved on the same address says so without naming it).
 */

/** The longest origin named: a host name is at most 253 characters, and a page line need not hold more. */
export const MAX_REDIRECT_ORIGIN = 120;

/** What stands in for the configured address while a relative Location is resolved: never a real host. */
const SAME = 'http://same-address.invalid';

/**
 * Where a Location points: `same` (a path of the configured address), an origin (`https://kyc.example.org`,
 * host names in their ASCII form, as the URL parser writes them: no direction control or invisible
 * character survives it), or `unreadable` (absent, not a URL, or not a web address).
 */
export function redirectTarget(location: string | string[] | undefined): 'same' | 'unreadable' | { origin: string } {
  const text = typeof location === 'string' ? location.trim() : undefined;
  if (!text) return 'unreadable';
  let url: URL;
  try {
    url = new URL(text, SAME);
  } catch {
    return 'unreadable';
  }
  if (url.origin === SAME) return 'same';
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'unreadable';
  // The parser's origin is ASCII (punycode, percent-escapes): still bounded, as a host may be long.
  const origin = url.origin.replace(/[^\x21-\x7e]/g, '');
  return { origin: origin.length <= MAX_REDIRECT_ORIGIN ? origin : `${origin.slice(0, MAX_REDIRECT_ORIGIN - 1)}…` };
}

/** The failure of a 3xx answer, `upstream_redirected`: where it points, and that an administrator must update the base URL. */
export function redirected(status: number, headers: http.IncomingHttpHeaders): ApiFailure {
  const target = redirectTarget(headers.location);
  const where =
    target === 'same'
      ? 'to another path of the same address'
      : target === 'unreadable'
        ? 'without an address that can be read'
        : `to ${target.origin}`;
  return new ApiFailure(
    'upstream_redirected',
    `The KYC service's address redirects (HTTP ${status}) ${where}: an administrator must update the environment's base URL (KYC_BASE_URL, or baseUrl in CONFIG_FILE). ` +
      'The redirect is not followed, so that the API key is sent nowhere else; trying again gets the same answer.',
    { upstreamStatus: status },
  );
}

/** The failure of a 204 (or 205) to a lookup or the list: an answer with no content, neither a record nor an error. */
export function noContent(status: number): ApiFailure {
  return new ApiFailure(
    'upstream_no_content',
    `The KYC service answered with no content (HTTP ${status}): neither a record nor an error. If it keeps happening, tell whoever runs Candidate Lookup.`,
    { upstreamStatus: status },
  );
}
