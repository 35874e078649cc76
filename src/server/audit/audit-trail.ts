import type http from 'node:http';
import type { AuditHeld } from '../../kyc/contract/audit-held.ts';
import type { AnswerCut, AuditLine, AuditLog } from './audit.ts';
import type { RefusalLog, RefusedEntry } from './audit-refusals.ts';
import type { Identity } from '../http/identity.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { sendFailure } from '../http/http-reply.ts';

/**
 * Audit, then answer: each request's line, written (or, for a refusal that repeats, counted) before
 * its answer leaves; a line that cannot be written turns the answer into a 503. One home for the rule,
 * whichever route writes the line: a lookup, a page of the applicants list, a request refused for its
 * environment.
 */

/** Where lines go: the audit log, and the refusals counted per user (audit-refusals.ts). */
export interface AuditDeps {
  audit: AuditLog;
  refusals: RefusalLog;
}

/** Who asked, on which response, since when. */
export interface AuditedCall {
  res: http.ServerResponse;
  identity: Identity;
  /** Who this instance last knew for the session, the shared store not answering (routes.ts): each line says so. */
  identityFromCache?: true;
  /** `performance.now()` when the request arrived. */
  started: number;
}

/** What came of a request, as its line says it. */
export interface Outcome {
  status: number;
  code: ApiFailure['code'] | null;
  /** The KYC service's HTTP status; null when it was not asked or did not answer. */
  upstreamStatus: number | null;
  /** The service was asked: the line names the level fetched. */
  reached: boolean;
  /** A full answer cut short after its status line: the request's second line says why (audit-entries.ts). */
  cut?: AnswerCut;
  /** A cut answer's body bytes written before the cut (lookup/answer-end.ts). */
  sentBytes?: number;
  /** An answer refused as another candidate's (other_candidate): the id its record gave. */
  answeredId?: string;
  /** A full answer read and passed on whole: what it held, for the request's closing line (lookup/answer-end.ts). */
  held?: AuditHeld;
}

/** How far a request got, for its line: each left out when not so. */
export interface LineOptions {
  /** The KYC service's HTTP status, when it answered. */
  upstreamStatus?: number | null;
  /** The service was asked (the line names the level fetched). */
  reached?: boolean;
  /** A refusal over the user's limit: added to their counted refusals (audit-refusals.ts) instead of written. */
  counted?: boolean;
  /** The answer was cut short after its status line, for this reason (lookup/answer-end.ts). */
  cut?: AnswerCut;
  /** How many bytes of the cut answer's body had been written (lookup/answer-end.ts). */
  sentBytes?: number;
  /** The answer's record was another candidate's: the id it gave (other_candidate). */
  answeredId?: string;
  /** The closing line of a full answer read and passed on whole: what it held. No answer waits on it to be sent (`written`). */
  held?: AuditHeld;
}

/** Writes this request's audit line, or counts it; false, with a 503 already sent, when it could not be written. */
export type Audit = (status: number, code: Outcome['code'], options?: LineOptions) => Promise<boolean>;

/** The audit of one request: `line` says what it was, `what` names it in the 503 ("lookup", "request"). */
export function auditTrail(deps: AuditDeps, res: http.ServerResponse, what: string, line: (outcome: Outcome) => RefusedEntry): Audit {
  return (status, code, { upstreamStatus = null, reached = false, counted = false, cut, sentBytes, answeredId, held } = {}) => {
    const entry = line({
      status,
      code,
      upstreamStatus,
      reached,
      ...(cut ? { cut } : {}),
      ...(sentBytes === undefined ? {} : { sentBytes }),
      ...(answeredId === undefined ? {} : { answeredId }),
      ...(held ? { held } : {}),
    });
    // A closing line's answer has its status line out: a line the log cannot take leaves the 200 line alone.
    if (held) return deps.audit.available() ? written(deps, entry) : Promise.resolve(false);
    return counted ? countLine(deps, res, what, entry) : writeLine(deps, res, what, entry);
  };
}

/** Writes one line and waits for it; false, with a 503 already sent, when it could not be written. */
export function writeLine(deps: Pick<AuditDeps, 'audit'>, res: http.ServerResponse, what: string, entry: AuditLine): Promise<boolean> {
  return recorded(res, what, () => deps.audit.record(entry));
}

/** Adds a refusal to the user's counted ones (audit-refusals.ts); false, with a 503 already sent, when it could not be. */
export function countLine(
  deps: Pick<AuditDeps, 'refusals'>,
  res: http.ServerResponse,
  what: string,
  entry: RefusedEntry,
): Promise<boolean> {
  return recorded(res, what, () => deps.refusals.refused(entry));
}

/** While the audit log hangs, requests are refused at once rather than each waiting for the timeout. */
export const AUDIT_STUCK = new ApiFailure(
  'audit_unavailable',
  'The audit log is not answering, so lookups are refused for now. An administrator must check AUDIT_LOG.',
);

/**
 * The audit-writable step, before anything is asked of the service (a lookup, a batch and each of its
 * rows): nothing reaches the service while the audit log could not record it. The refusal itself is
 * not written: the log is not answering.
 */
export function auditWritable(deps: Pick<AuditDeps, 'audit'>): ApiFailure | undefined {
  return deps.audit.available() ? undefined : AUDIT_STUCK;
}

/** Waits for a line to be written; false, with a 503 already sent, when it could not be. */
async function recorded(res: http.ServerResponse, what: string, write: () => Promise<void> | undefined): Promise<boolean> {
  try {
    await write();
    return true;
  } catch {
    const message = `This ${what} could not be recorded in the audit log, so it was refused. An administrator must check AUDIT_LOG.`;
    sendFailure(res, new ApiFailure('audit_unavailable', message));
    return false;
  }
}

/** Writes a line no answer waits for alone (a batch's row, whose 200 has left): whether it was written. */
export async function written(deps: Pick<AuditDeps, 'audit'>, entry: AuditLine): Promise<boolean> {
  try {
    await deps.audit.record(entry);
    return true;
  } catch {
    return false;
  }
}

/** The refusal, once its line is written. */
export async function refuse(res: http.ServerResponse, audit: Audit, failure: ApiFailure, options: LineOptions = {}) {
  // The browser left before any answer (its page closed, its batch cancelled): what broke was its leaving
  // (the copy of the answer it was to be sent ends with it), not the service; the line says so.
  const told = res.destroyed && !res.headersSent ? LEFT_BEFORE_ANSWER : failure;
  // Another candidate's record refused: the line names the id it gave beside the one asked.
  const answered = told.answeredId === undefined ? {} : { answeredId: told.answeredId };
  if (await audit(told.status, told.code, { ...options, ...answered })) sendFailure(res, told);
}

/** The browser left before its answer: only its audit line says so (nobody is there to be told). */
export const LEFT_BEFORE_ANSWER = new ApiFailure('cancelled', 'The browser left before the answer came.');
