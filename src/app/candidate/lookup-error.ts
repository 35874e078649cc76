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
  'no_such_environment',
  'environment_forbidden',
  'archiving_check_unavailable',
  'not_a_record',
  'server_busy',
  'internal_error',
] as const satisfies readonly ApiErrorCode[];
type LookupCode = (typeof LOOKUP_CODES)[number];

/**
 * The codes that have no screen of their own on the candidate page: sign-in's, the request's shape and
 * route, and the request guard's. A lookup answered with one is read by its HTTP status (kindOfStatus).
 */
const NOT_LOOKUP_CODES = [
  'sign_in_failed',
  'too_many_sign_in_attempts',
  'identity_provider_unavailable',
  'bad_request',
  'body_too_large',
  'unsupported_media_type',
  'method_not_allowed',
  'no_such_route',
  'not_from_app',
  'proxied_request',
  // Only the development server's: its message says the API did not start, under server_unreachable's screen.
  'api_not_started',
] as const satisfies readonly ApiErrorCode[];

/**
 * Every code of the contract is sorted, once: a code added to API_ERROR_CODES does not compile until it
 * is a lookup code (and then candidate-error.tsx's switch needs its screen) or listed as not one. The
 * error names the code left out.
 */
type Unsorted = Exclude<ApiErrorCode, LookupCode | (typeof NOT_LOOKUP_CODES)[number]>;
type Both = Extract<LookupCode, (typeof NOT_LOOKUP_CODES)[number]>;
const everyCodeSorted: [Unsorted, Both] extends [never, never] ? true : { unsorted: Unsorted; both: Both } = true;
void everyCodeSorted;

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
