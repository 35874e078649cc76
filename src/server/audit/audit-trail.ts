import type http from 'node:http';
import type { ApplicantsQuery } from '../../kyc/contract/applicants.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import type {
  AnswerCut,
  AuditEntry,
  AuditLine,
  AuditReadEntry,
  AuditLog,
  ExportAuditEntry,
  ListAuditEntry,
  RefusalsAuditEntry,
  RefusedRequestAuditEntry,
} from './audit.ts';
import type { ShownCandidate } from './audit-entries.ts';
import type { RefusalLog, RefusedEntry } from './audit-refusals.ts';
import type { Identity } from '../http/identity.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { clientOf } from '../http/client.ts';
import { sendFailure } from '../http/http-reply.ts';
import { requestIdOf } from '../log/log.ts';
import { cutText, MAX_LOGGED_ID } from './audit-line.ts';

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
  /** An answer refused as another candidate's (other_candidate): the id its record gave. */
  answeredId?: string;
}

type Level = NonNullable<AuditEntry['level']>;

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
  /** The answer's record was another candidate's: the id it gave (other_candidate). */
  answeredId?: string;
}

/** Writes this request's audit line, or counts it; false, with a 503 already sent, when it could not be written. */
export type Audit = (status: number, code: Outcome['code'], options?: LineOptions) => Promise<boolean>;

/** The audit of one request: `line` says what it was, `what` names it in the 503 ("lookup", "request"). */
export function auditTrail(deps: AuditDeps, res: http.ServerResponse, what: string, line: (outcome: Outcome) => RefusedEntry): Audit {
  return (status, code, { upstreamStatus = null, reached = false, counted = false, cut, answeredId } = {}) => {
    const entry = line({
      status,
      code,
      upstreamStatus,
      reached,
      ...(cut ? { cut } : {}),
      ...(answeredId === undefined ? {} : { answeredId }),
    });
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

/** What every line starts with: when, which request, who, from where, and in which environment. */
function lineStart(env: string, call: AuditedCall) {
  const { user, role } = call.identity;
  return { time: new Date().toISOString(), requestId: requestIdOf(call.res), user, role, ...clientOfCall(call), env };
}

/** The address the request came from (http/client.ts, which believes only TRUSTED_PROXIES' forwarding), when known. */
export function clientOfCall(call: Pick<AuditedCall, 'res'>): { client?: string } {
  const req = call.res.req as http.IncomingMessage | undefined;
  const address = req ? clientOf(req).address : '';
  return address ? { client: address } : {};
}

function elapsed(call: AuditedCall): number {
  return Math.round(performance.now() - call.started);
}

/** What a support user's lookup read, as known when its line is written: the level, the support fields shown or why none were fetched. */
export type LookupShown = Pick<AuditEntry, 'fields' | 'fieldsWithheld'> & { level: Level | null };

/**
 * A lookup's line: its kind and id as asked, and the level fetched once the service was asked; `shown`,
 * read when the line is written, gives a lookup's level and support fields decided after the line began.
 */
export function lookupLine(
  env: string,
  call: AuditedCall,
  kind: LookupKind,
  id: string,
  level: Level | null = null,
  shown?: () => LookupShown,
) {
  return (outcome: Outcome): AuditEntry => {
    const read = shown?.() ?? { level };
    return {
      ...lineStart(env, call),
      kind,
      id,
      status: outcome.status,
      code: outcome.code,
      upstreamStatus: outcome.upstreamStatus,
      level: outcome.reached ? read.level : null,
      // The names of the fields answered, never their values.
      ...(outcome.reached && read.fields ? { fields: read.fields } : {}),
      ...(read.fieldsWithheld ? { fieldsWithheld: read.fieldsWithheld } : {}),
      durationMs: elapsed(call),
      ...(outcome.cut ? { cut: outcome.cut } : {}),
      ...(outcome.answeredId === undefined ? {} : { answeredId: cutText(outcome.answeredId, MAX_LOGGED_ID) }),
    };
  };
}

/** One id of a batch: a lookup's line, marked `batch`; `call.started` is when the row started. */
export function batchRowLine(env: string, call: AuditedCall, kind: LookupKind, id: string, level: Level) {
  const line = lookupLine(env, call, kind, id, level);
  return (outcome: Outcome): AuditEntry => ({ ...line(outcome), batch: true });
}

/** A batch refused whole (its budget) after its body was read: how many ids it held, not which. */
export function refusedBatchLine(env: string, call: AuditedCall, kind: LookupKind, count: number) {
  const line = lookupLine(env, call, kind, '');
  return (outcome: Outcome): AuditEntry => ({ ...line(outcome), batchSize: count, batch: true });
}

/** A hand-off (a summary, reply or certificate copied, a page printed) of the candidate looked up by `kind` and `id`. */
export function exportLine(
  env: string,
  call: AuditedCall,
  what: ExportAuditEntry['what'],
  lookupKind: LookupKind,
  id: string,
  extra: Pick<ExportAuditEntry, 'template' | 'masked' | 'slug'> = {},
): ExportAuditEntry {
  // The id is cut to 256 characters in the line (audit-line.ts), as a lookup's.
  return { ...lineStart(env, call), kind: 'export', what, ...extra, lookupKind, id };
}

/**
 * A page of the applicants list: what was asked (null when the query could not be read) and, once
 * answered, how many records it held; and `shown`, the candidates of a view that carried personal data,
 * their ids cut as a lookup's (a page holds at most 100).
 */
export function listLine(
  env: string,
  call: AuditedCall,
  query: ApplicantsQuery | undefined,
  level: Level | null = null,
  records: number | null = null,
  shown: readonly ShownCandidate[] = [],
) {
  const candidates = shown.map(({ refId, recordId }) => ({
    ...(refId ? { refId: cutText(refId, MAX_LOGGED_ID) } : {}),
    ...(recordId ? { recordId: cutText(recordId, MAX_LOGGED_ID) } : {}),
  }));
  return (outcome: Outcome): ListAuditEntry => ({
    ...lineStart(env, call),
    kind: 'list',
    filter: query ? (query.status ?? 'all') : null,
    skip: query?.skip ?? null,
    limit: query?.limit ?? null,
    // The view's other tabs were counted within this one request (and line).
    ...(query?.counts ? { counts: true } : {}),
    // Which rows the view kept: a lead reads "over SLA only" apart from the whole tab.
    ...(query?.overSla ? { overSla: true } : {}),
    ...(query?.attention ? { attention: true } : {}),
    records,
    ...(candidates.length > 0 ? { candidates } : {}),
    status: outcome.status,
    code: outcome.code,
    upstreamStatus: outcome.upstreamStatus,
    level: outcome.reached ? level : null,
    durationMs: elapsed(call),
  });
}

/** A batch or an export refused before its body was read (an export also for its id): only the route it came to is known. */
export function requestLine(env: string, call: AuditedCall, kind: RefusedRequestAuditEntry['kind']) {
  return (outcome: Outcome): RefusedRequestAuditEntry => ({
    ...lineStart(env, call),
    kind,
    status: outcome.status,
    code: outcome.code,
    durationMs: elapsed(call),
  });
}

/**
 * A batch's invalid ids, counted in one line (audit-refusals.ts): their text is the user's, up to 256
 * characters each, and a batch may hold 500, so each written out would cost ten times a lookup's line.
 */
export function invalidIdsLine(env: string, call: AuditedCall, count: number): RefusalsAuditEntry {
  const start = lineStart(env, call);
  return { ...start, kind: 'refusals', batch: true, count, codes: { invalid_id: count }, from: start.time, to: start.time };
}

/**
 * The audit trail read by a lead (issue 34): a search (a page of it) or an export, with the filter as
 * asked, its texts cut as a lookup's line cuts an id, and for a search how many rows it answered.
 */
export function auditReadLine(
  call: Omit<AuditedCall, 'started'>,
  what: AuditReadEntry['what'],
  filter: AuditReadEntry['filter'],
  extra: Pick<AuditReadEntry, 'page' | 'rows'> = {},
): AuditReadEntry {
  const { env: _env, ...start } = lineStart('', { ...call, started: 0 });
  const cut = Object.fromEntries(
    Object.entries(filter).map(([name, value]) => [name, typeof value === 'string' ? cutText(value, MAX_LOGGED_ID) : value]),
  );
  return { ...start, kind: 'audit', what, filter: cut, ...extra };
}
