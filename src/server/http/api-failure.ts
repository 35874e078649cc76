import type { NotAnId } from '../../kyc/contract/answered-id.ts';
import type { ApiErrorBody } from '../../kyc/contract/api.ts';
import { API_ERRORS, type ApiErrorCode, type ApiErrorReason } from '../../kyc/contract/api-errors.ts';
import { readsFullRecord, type Role } from '../../kyc/contract/roles.ts';

export interface FailureDetails {
  /** How long to wait before asking again: the answer's `Retry-After` and `retryAfterSeconds` (default: the code's own, if any). */
  retryAfterSeconds?: number;
  /** The KYC service's own HTTP status, for upstream_error. */
  upstreamStatus?: number;
  /** The methods the route takes, for method_not_allowed (its `Allow` header). */
  allow?: string;
  /**
   * The message in this server's words only, when the message quotes the KYC service's own
   * (upstream-failures.ts): whatever answered wrote those, and they may name a candidate.
   */
  ownMessage?: string;
  /** For other_candidate: the id the answer's record gave, said to the browser and written on the audit line. */
  answeredId?: string;
  /** For a batch refused for its size: the most ids its budget takes in a minute, which the page offers to look up. */
  idsAtMost?: number;
  /** Which refusal of its code it is, where a page treats them apart (api-errors.ts): a lead's third export at once. */
  reason?: ApiErrorReason;
}

/**
 * An error answer of the API, not yet sent: a step that fails returns one (the pipeline decides when it
 * leaves, after its audit line), a route that has nothing to record throws it. Its status is the code's,
 * from the contract's table: never given by hand. `sendFailure` (http-reply.ts) is the one place that
 * sends it; anything thrown that is not an ApiFailure is unexpected, logged and answered 500.
 */
export class ApiFailure extends Error {
  override name = 'ApiFailure';
  readonly status: number;
  readonly retryAfterSeconds: number | undefined;
  readonly upstreamStatus: number | undefined;
  readonly allow: string | undefined;
  readonly answeredId: string | undefined;
  readonly idsAtMost: number | undefined;
  readonly reason: ApiErrorReason | undefined;
  /** The message without the service's words (the message itself when it quotes none): for logs, the queue index and support users. */
  readonly ownMessage: string;

  constructor(
    readonly code: ApiErrorCode,
    message: string,
    details: FailureDetails = {},
  ) {
    super(message);
    const info = API_ERRORS[code];
    this.status = info.status;
    this.retryAfterSeconds = details.retryAfterSeconds ?? ('retryAfterSeconds' in info ? info.retryAfterSeconds : undefined);
    this.upstreamStatus = details.upstreamStatus;
    this.allow = details.allow;
    this.answeredId = details.answeredId;
    this.idsAtMost = details.idsAtMost;
    this.reason = details.reason;
    this.ownMessage = details.ownMessage ?? message;
  }

  /**
   * The failure as a user of `role` is told it: the service's own words only to whoever may read the full
   * record (roles.ts), as they help there ("Invalid client id"); a support user sees the status level only,
   * and the service's words may name a candidate, so they get this server's sentence and the HTTP status.
   */
  toldTo(role: Role): ApiFailure {
    if (readsFullRecord(role) || this.ownMessage === this.message) return this;
    const { retryAfterSeconds, upstreamStatus, allow, answeredId, idsAtMost, reason } = this;
    return new ApiFailure(this.code, this.ownMessage, {
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
      ...(upstreamStatus === undefined ? {} : { upstreamStatus }),
      ...(allow === undefined ? {} : { allow }),
      ...(answeredId === undefined ? {} : { answeredId }),
      ...(idsAtMost === undefined ? {} : { idsAtMost }),
      ...(reason === undefined ? {} : { reason }),
    });
  }

  /** The JSON the browser gets (apiErrorBodySchema). */
  body(): ApiErrorBody {
    const { retryAfterSeconds, upstreamStatus, answeredId, idsAtMost, reason } = this;
    return {
      status: 'error',
      error: {
        code: this.code,
        message: this.message,
        ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
        ...(upstreamStatus === undefined ? {} : { upstreamStatus }),
        ...(answeredId === undefined ? {} : { answeredId }),
        ...(idsAtMost === undefined ? {} : { idsAtMost }),
        ...(reason === undefined ? {} : { reason }),
      },
    };
  }

  /** The headers it goes out with besides the JSON ones. */
  headers(): Record<string, string> {
    return {
      ...(this.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(this.retryAfterSeconds) }),
      ...(this.allow === undefined ? {} : { Allow: this.allow }),
    };
  }
}

/**
 * The refusal of an answer whose record is another candidate's (answeredOther in the contract's lookup.ts):
 * nothing of it is sent, only the id it gave, cut as an audit line cuts an id (audit-line.ts); or, for an id
 * that is no text nor number (NotAnId), its kind: such a record cannot be shown to be the asked candidate's.
 */
export function otherCandidate(kind: string, asked: string, answered: string | NotAnId): ApiFailure {
  if (typeof answered !== 'string') {
    return new ApiFailure(
      'other_candidate',
      `Asked for ${kind} ${asked}, the KYC service answered with a record whose ${kind} is ${answered.notAnId}, not an id, so it cannot be shown to be the candidate looked up. Nothing of it was sent. Something in front of the service (a cache, a gateway) may be answering wrongly.`,
      { answeredId: `(${answered.notAnId})` },
    );
  }
  const shown = [...answered].length > 256 ? `${[...answered].slice(0, 256).join('')}…` : answered;
  return new ApiFailure(
    'other_candidate',
    `Asked for ${kind} ${asked}, the KYC service answered with the record of ${kind} ${shown}. Nothing of it was sent: it is not the candidate looked up. Something in front of the service (a cache, a gateway) may be answering wrongly.`,
    { answeredId: shown },
  );
}

/** For anything thrown that no rule foresaw: what went wrong stays in the log, under the request's id. */
export const INTERNAL_ERROR_MESSAGE =
  'Candidate Lookup failed unexpectedly while answering. Nothing about it is shown here: an administrator can find it in the server log by the X-Request-Id of this answer.';

/**
 * The KYC service's answer ended before it was whole (its connection failed or closed early): the
 * message of the `upstream_error` it is answered with, wherever the reading noticed.
 */
export const BROKE_OFF_MESSAGE = "The KYC service's answer broke off before it was complete.";

/**
 * What a reader of the service's body answers when the body ended early: the failure the body was cut
 * with (the whole answer's deadline, upstream-client.ts), or that it broke off.
 */
export function brokenOff(error?: unknown): ApiFailure {
  return error instanceof ApiFailure ? error : new ApiFailure('upstream_error', BROKE_OFF_MESSAGE);
}
