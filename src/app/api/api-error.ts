import type { ApiErrorCode, ApiErrorReason } from '../../kyc/contract/api.ts';
import { parseRetryAfter } from '../../kyc/contract/retry-after.ts';

/**
 * Found by the browser itself: no answer (`server_unreachable`), an answer that broke off (`interrupted`),
 * or one it cannot use (`not_json`, `malformed`).
 */
export type ClientErrorCode = 'server_unreachable' | 'interrupted' | 'not_json' | 'malformed';

/**
 * The browser's words for an answer whose connection broke while it was being read: every reader of a
 * body (a lookup, its parts, any other answer) says the same.
 */
export const INTERRUPTED_MESSAGE = 'The connection broke while the response was downloading. Try again.';

/**
 * The proxy's codes keep their names in the browser, so a name means one thing end to end: `rate_limited`
 * is this server's per-user limit, `upstream_rate_limited` the KYC service's.
 */
export type ErrorCode = ApiErrorCode | ClientErrorCode;

export interface ApiErrorDetails {
  /** The HTTP status of the answer; none when there was no answer. */
  status?: number;
  retryAfterSeconds?: number;
  /** The KYC service's own HTTP status, for upstream_error: whether trying again can help. */
  upstreamStatus?: number;
  /** What exactly was wrong with an answer that could not be used (a schema's complaint, the start of a body). */
  detail?: string;
  /**
   * An answer that could not be used but did say when the service deletes the candidate's identity data
   * (archive after extract): the lookup started the deletion all the same, and the page must say so.
   */
  willArchiveAtDate?: string;
  /** For other_candidate: the id the service's answer gave, whose record the server did not send. */
  answeredId?: string;
  /** For a batch too large for this server's batch budget: the most ids it looks up in a minute's batches. */
  idsAtMost?: number;
  /** Which refusal of its code it is, where the page treats them apart: `exports_under_way`, a lead's third export at once. */
  reason?: ApiErrorReason;
}

/** Every failure of a call to this server's `/api`, whatever the call: the one error type of the app's API layer. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** When the wait asked for ends, on this browser's clock. */
  readonly retryAt: Date | undefined;
  readonly upstreamStatus: number | undefined;
  readonly detail: string | undefined;
  readonly willArchiveAtDate: string | undefined;
  readonly answeredId: string | undefined;
  readonly idsAtMost: number | undefined;
  readonly reason: ApiErrorReason | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    details: ApiErrorDetails = {},
  ) {
    super(message);
    this.status = details.status;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.retryAt = details.retryAfterSeconds === undefined ? undefined : new Date(Date.now() + details.retryAfterSeconds * 1000);
    this.upstreamStatus = details.upstreamStatus;
    this.detail = details.detail;
    this.willArchiveAtDate = details.willArchiveAtDate;
    this.answeredId = details.answeredId;
    this.idsAtMost = details.idsAtMost;
    this.reason = details.reason;
  }

  /** Worth trying again by itself: the network, not the request, failed. */
  get transient(): boolean {
    return this.code === 'interrupted' || this.code === 'server_unreachable';
  }

  /** The same failure, said in the words of what the caller was doing. */
  reworded(message: string): ApiError {
    const { status, retryAfterSeconds, upstreamStatus, detail, willArchiveAtDate } = this;
    return new ApiError(this.code, message, { status, retryAfterSeconds, upstreamStatus, detail, willArchiveAtDate });
  }
}

/** Anything thrown by a call, as an ApiError (a bug's TypeError included, as an answer that could not be read). */
export function asApiError(error: unknown, message: string): ApiError {
  return error instanceof ApiError ? error : new ApiError('malformed', message, { detail: String(error) });
}

/** What an answer without a known error code most likely means, from its HTTP status alone. */
export function codeOfStatus(status: number): ErrorCode {
  if (status === 401 || status === 403) return 'unauthenticated';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status === 504) return 'upstream_timeout';
  if (status === 502 || status === 503) return 'server_unreachable';
  if (status >= 500) return 'upstream_error';
  return 'bad_request';
}

/** A failing answer: the proxy's JSON error, or whatever else a failing server or gateway sent. */
export async function apiErrorOf(response: Response): Promise<ApiError> {
  const json: unknown = await response.json().catch(() => undefined);
  // The schema loads with the contract (not part of the first load); without it, the status speaks.
  const schema = await import('../../kyc/contract/api.ts').then((contract) => contract.apiErrorBodySchema).catch(() => undefined);
  const parsed = schema?.safeParse(json);
  const body = parsed?.success ? parsed.data.error : undefined;
  const status = response.status;
  const retryAfterSeconds = body?.retryAfterSeconds ?? parseRetryAfter(response.headers.get('retry-after'));
  // The body's own details (upstreamStatus, answeredId, idsAtMost, reason) as it gives them; the wait as the answer says it.
  if (body) return new ApiError(body.code, body.message, { ...body, status, retryAfterSeconds });
  return new ApiError(codeOfStatus(status), `The server answered HTTP ${status} without an explanation.`, { status, retryAfterSeconds });
}
