import type { ApiErrorBody } from '../../kyc/contract/api.ts';
import { parseRetryAfter } from '../../kyc/contract/retry-after.ts';

/** What went wrong with a lookup, in terms a reviewer can act on. One kind per distinct situation. */
export type LookupErrorKind =
  | 'invalid_id'
  | 'unauthenticated'
  | 'too_many_lookups'
  | 'audit_unavailable'
  | 'store_unavailable'
  | 'not_found'
  | 'unauthorized'
  | 'rate_limited'
  | 'upstream_error'
  | 'unreachable'
  | 'timeout'
  | 'too_large'
  | 'server_unreachable'
  | 'interrupted'
  | 'not_json'
  | 'malformed'
  | 'archiving_key'
  | 'not_offered';

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

const KIND_OF_CODE: Readonly<Record<string, LookupErrorKind>> = {
  invalid_id: 'invalid_id',
  unauthenticated: 'unauthenticated',
  rate_limited: 'too_many_lookups',
  audit_unavailable: 'audit_unavailable',
  store_unavailable: 'store_unavailable',
  not_found: 'not_found',
  upstream_unauthorized: 'unauthorized',
  upstream_rate_limited: 'rate_limited',
  upstream_error: 'upstream_error',
  upstream_unreachable: 'unreachable',
  upstream_timeout: 'timeout',
  response_too_large: 'too_large',
  archiving_key: 'archiving_key',
  applicants_unavailable: 'not_offered',
};

/** What an answer without a known error code most likely means, from its HTTP status alone. */
function kindOfStatus(status: number): LookupErrorKind {
  if (status === 401 || status === 403) return 'unauthenticated';
  if (status === 404) return 'not_found';
  if (status === 429) return 'too_many_lookups';
  if (status === 504) return 'timeout';
  if (status === 502 || status === 503) return 'server_unreachable';
  if (status >= 500) return 'upstream_error';
  return 'invalid_id';
}

/** Turns the proxy's JSON error (or anything else a failing server or gateway sent) into a LookupError. */
export function lookupErrorFromBody(status: number, body: ApiErrorBody | undefined, retryAfterHeader: string | null): LookupError {
  const retryAfterSeconds = body?.error.retryAfterSeconds ?? parseRetryAfter(retryAfterHeader);
  const retry = retryAfterSeconds === undefined ? {} : { retryAfterSeconds, retryAt: new Date(Date.now() + retryAfterSeconds * 1000) };
  if (body) {
    const code = body.error.code;
    const kind = Object.hasOwn(KIND_OF_CODE, code) ? KIND_OF_CODE[code]! : kindOfStatus(status);
    return new LookupError(kind, body.error.message, { ...retry, status });
  }
  return new LookupError(kindOfStatus(status), `The server answered HTTP ${status} without an explanation.`, { ...retry, status });
}
