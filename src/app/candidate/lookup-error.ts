import type { ApiErrorBody } from '../../kyc/api.ts';

/** What went wrong with a lookup, in terms a reviewer can act on. One kind per distinct situation. */
export type LookupErrorKind =
  | 'invalid_id'
  | 'unauthenticated'
  | 'too_many_lookups'
  | 'audit_unavailable'
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
  | 'malformed';

export class LookupError extends Error {
  override name = 'LookupError';
  constructor(
    readonly kind: LookupErrorKind,
    message: string,
    readonly details: { detail?: string; retryAfterSeconds?: number; status?: number } = {},
  ) {
    super(message);
  }

  /** Worth trying again by itself: the network, not the request, failed. */
  get transient(): boolean {
    return this.kind === 'interrupted' || this.kind === 'server_unreachable';
  }
}

const KIND_OF_CODE: Record<string, LookupErrorKind> = {
  invalid_id: 'invalid_id',
  unauthenticated: 'unauthenticated',
  rate_limited: 'too_many_lookups',
  audit_unavailable: 'audit_unavailable',
  not_found: 'not_found',
  upstream_unauthorized: 'unauthorized',
  upstream_rate_limited: 'rate_limited',
  upstream_error: 'upstream_error',
  upstream_unreachable: 'unreachable',
  upstream_timeout: 'timeout',
  response_too_large: 'too_large',
};

/** Turns the proxy's JSON error (or anything else a failing server sent) into a LookupError. */
export function lookupErrorFromBody(status: number, body: ApiErrorBody | undefined, retryAfterHeader: string | null): LookupError {
  if (body) {
    const kind = KIND_OF_CODE[body.error.code] ?? (status >= 500 ? 'upstream_error' : 'invalid_id');
    const retryAfter = body.error.retryAfterSeconds ?? (retryAfterHeader && /^\d+$/.test(retryAfterHeader) ? Number(retryAfterHeader) : undefined);
    return new LookupError(kind, body.error.message, { retryAfterSeconds: retryAfter, status });
  }
  return new LookupError(
    status >= 500 ? 'upstream_error' : 'invalid_id',
    `The Candidate Lookup server answered HTTP ${status} without an explanation.`,
    { status },
  );
}
