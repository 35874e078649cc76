import type { ApiErrorBody, ApiErrorCode } from '../../kyc/contract/api.ts';
import { parseRetryAfter } from '../../kyc/contract/retry-after.ts';

/**
 * The proxy's error codes a lookup (or a page of the applicants list) can answer with. The browser's kind
 * for each is the code itself, so a name means one thing end to end: `rate_limited` is this server's
 * per-user limit, `upstream_rate_limited` the KYC service's.
 */
const LOOKUP_CODES = [
  'invalid_id',
  'unauthenticated',
  'rate_limited',
  'audit_unavailable',
  'store_unavailable',
  'not_found',
  'upstream_unauthorized',
  'upstream_rate_limited',
  'upstream_error',
  'upstream_unreachable',
  'upstream_timeout',
  'response_too_large',
  'archiving_key',
  'applicants_unavailable',
] as const satisfies readonly ApiErrorCode[];
type LookupCode = (typeof LOOKUP_CODES)[number];

/** What went wrong with a lookup, in terms a reviewer can act on. One kind per distinct situation. */
export type LookupErrorKind =
  | LookupCode
  // Found by the browser itself: no answer, or an answer it cannot use.
  | 'server_unreachable'
  | 'interrupted'
  | 'not_json'
  | 'malformed';

export class LookupError extends Error {
  override name = 'LookupError';
  constructor(
    readonly kind: LookupErrorKind,
    message: string,
    readonly details: { detail?: string; retryAfterSeconds?: number; retryAt?: Date; status?: number } = {},
  ) {
    super(message);
  }

  /** Worth trying again by itself: the network, not the request, failed. */
  get transient(): boolean {
    return this.kind === 'interrupted' || this.kind === 'server_unreachable';
  }
}

function isLookupCode(code: string): code is LookupCode {
  return (LOOKUP_CODES as readonly string[]).includes(code);
}

/** What an answer without a known error code most likely means, from its HTTP status alone. */
function kindOfStatus(status: number): LookupErrorKind {
  if (status === 401 || status === 403) return 'unauthenticated';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status === 504) return 'upstream_timeout';
  if (status === 502 || status === 503) return 'server_unreachable';
  if (status >= 500) return 'upstream_error';
  return 'invalid_id';
}

/** Turns the proxy's JSON error (or anything else a failing server or gateway sent) into a LookupError. */
export function lookupErrorFromBody(status: number, body: ApiErrorBody | undefined, retryAfterHeader: string | null): LookupError {
  const retryAfterSeconds = body?.error.retryAfterSeconds ?? parseRetryAfter(retryAfterHeader);
  const retry = retryAfterSeconds === undefined ? {} : { retryAfterSeconds, retryAt: new Date(Date.now() + retryAfterSeconds * 1000) };
  if (body) {
    const code: string = body.error.code;
    const kind = isLookupCode(code) ? code : kindOfStatus(status);
    return new LookupError(kind, body.error.message, { ...retry, status });
  }
  return new LookupError(kindOfStatus(status), `The server answered HTTP ${status} without an explanation.`, { ...retry, status });
}
