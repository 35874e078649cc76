import { type BatchTriage, batchRowOf } from '../../kyc/contract/batch.ts';
import { seesCertificateOutcomes } from '../../kyc/contract/roles.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import { batchTriesAs, type LookupKind } from '../../kyc/contract/lookup.ts';
import { auditWritable, written } from '../audit/audit-trail.ts';
import { batchRowLine } from '../audit/audit-lines.ts';
import type { OneResult } from './batch-runner.ts';
import { ApiFailure, otherCandidate } from '../http/api-failure.ts';
import {
  admit,
  archivingGate,
  checkedId,
  type Level,
  type LookupDeps,
  levelOf,
  type Sent,
  sendRequest,
  takeSlot,
  waitingFrom,
} from './lookup-steps.ts';
import type { SignedInCall } from '../http/routes.ts';
import { logFaultOf, requestLog } from '../log/log.ts';
import { markOpened } from './opened-candidates.ts';
import { answeredOtherOf, reduceToStatusLevel } from '../answer/status-level.ts';
import { serviceSettingsOf, statedErrorOf } from '../upstream/upstream-failures.ts';

/**
 * One row of a batch: the single lookup's steps (lookup-steps.ts) for one id, always at status level
 * (with, for compliance users and leads, the queue index's triage of the candidate: foundRow), answered as a row of the batch's NDJSON instead of an HTTP answer. The limit is the batch's (its
 * budget, reserved whole), and the batch's invalid ids were counted in one line before it started.
 */

export type FoundRow = ReturnType<typeof batchRowOf>;

export interface BatchRow {
  kind: LookupKind;
  id: string;
  index: number;
}

const CANCELLED = new ApiFailure('cancelled', 'The batch was cancelled before this row was answered.');

/**
 * A row as the search box would find it: a refId the service does not know that has the form of a
 * recordId is tried once as one (the one rule, triesAsRecordId), and in recordId mode an id without that
 * form once as a refId (batchTriesAs); the row says how it was found. Both lookups are audited, each
 * under its own kind, as the search box's two are.
 */
export async function lookupRowAsSearched(
  deps: LookupDeps,
  call: SignedInCall,
  row: BatchRow,
  gone: AbortSignal,
): Promise<OneResult<FoundRow>> {
  const first = await lookupRow(deps, call, row, gone);
  if (first.ok || gone.aborted) return first;
  const other = batchTriesAs(row.kind, row.id, first.code);
  if (!other) return first;
  const second = await lookupRow(deps, call, { ...row, kind: other }, gone);
  if (second.ok) return { ok: true, row: { ...second.row, foundBy: other } };
  if (second.code !== 'not_found') return second;
  return { ...first, message: `No candidate with refId or recordId "${row.id}".` };
}

/** Checked, asked at status level, reduced, audited. Never rejects. */
export async function lookupRow(deps: LookupDeps, call: SignedInCall, row: BatchRow, gone: AbortSignal): Promise<OneResult<FoundRow>> {
  const level = levelOf('support', deps.hasStatusKey);
  const asked = checkedId(row.id);
  // Counted with the batch's other invalid ids, in its one line (batch.ts).
  if (!asked.ok) return failedRow(deps, call, level, asked.failure);
  const settleRow = rowSettler(deps, call, row, level);
  // A row that fails once the batch was cancelled failed by the cancel (its request cut), not the service.
  const settle: typeof settleRow = (failure, ...rest) => settleRow(failure && gone.aborted ? CANCELLED : failure, ...rest);
  // Nothing reaches the service while the audit log could not record it: a log that hangs mid-batch stops the rest.
  const stuck = auditWritable(deps);
  if (stuck) return failedRow(deps, call, level, stuck);
  // Without a status key a batch looks with the full key: a key that archives after extract would delete each candidate.
  const log = requestLog(call.res);
  const archiving = await archivingGate(deps, level, log);
  if (archiving) return settle(archiving, null, false);
  // One budget for the waits for a turn: the user's slot, then admission.
  const turn = waitingFrom(deps, deps.access.rateLimitKey(call.req, call.identity));
  const slot = await takeSlot(deps, { ...call, level }, gone, { behind: true, waiting: turn });
  if (typeof slot !== 'function') return settle(slot === 'gone' ? CANCELLED : slot, null, false);
  let sent: Sent | undefined;
  try {
    const admission = await admit(deps, level, gone, log, turn);
    if (!admission.ok) return settle(admission.failure ?? CANCELLED, null, false);
    // Asked again: the log may have hung while this row waited for its slot.
    const stuckNow = auditWritable(deps);
    if (stuckNow) {
      admission.pass?.watch({ ok: false, failure: stuckNow, upstreamStatus: null }, Date.now());
      return failedRow(deps, call, level, stuckNow);
    }
    // The service asked to wait since this row's turn came (another row's 429, or a user's): nothing is sent, the batch waits and tries it again.
    const waiting = deps.upstream.waiting('lookup');
    if (waiting) {
      admission.pass?.watch({ ok: false, failure: waiting, upstreamStatus: null }, Date.now());
      return settle(waiting, null, false);
    }
    sent = sendRequest(deps, { kind: row.kind, id: asked.id, scope: 'status' }, admission.pass);
    gone.addEventListener('abort', sent.abort, { once: true });
    try {
      const fetched = await sent.answer;
      if (!fetched.ok) return settle(fetched.failure, fetched.upstreamStatus, fetched.upstreamStatus !== null);
      const { upstreamRes } = fetched;
      const stated = statedErrorOf({ kind: row.kind, id: asked.id, scope: 'status' }, upstreamRes.headers, deps.upstream);
      const settings = serviceSettingsOf(deps.upstream.keyInUse('status'));
      const reading = { maxResponseBytes: deps.settings.limits.maxResponseBytes, keys: deps.upstream.keys, stated, settings };
      const reduced = await reduceToStatusLevel(upstreamRes, reading);
      if (!reduced.ok) return settle(reduced.failure, fetched.upstreamStatus, true);
      // Another candidate's status is no row of the id asked (a cache or gateway answering wrongly).
      const other = answeredOtherOf(reduced, row.kind, asked.id);
      if (other !== undefined) return settle(otherCandidate(row.kind, asked.id, other), fetched.upstreamStatus, true);
      return settle(undefined, fetched.upstreamStatus, true, await foundRow(deps, call, row.index, reduced.record));
    } finally {
      gone.removeEventListener('abort', sent.abort);
    }
  } finally {
    // Freed once the request no longer holds a connection to the service: a cancelled row's answer
    // with the full key is read on to its end (archive-watch.ts), and counts against its user meanwhile.
    void (sent?.over ?? Promise.resolve()).then(slot);
  }
}

/**
 * The row found: status level, and for compliance users and leads what the queue index knows of the
 * candidate for triage (batch-triage.ts), as their queue shows it; never for a support user. The index
 * could not be read: the row says the triage is not known, rather than failing a lookup that was answered.
 */
async function foundRow(deps: LookupDeps, call: SignedInCall, index: number, record: CandidateRecord): Promise<FoundRow> {
  const found = batchRowOf(index, record);
  if (!seesCertificateOutcomes(call.identity.role) || !deps.indexedTriage) return found;
  const triage = await deps.indexedTriage(record).catch((): BatchTriage => ({ known: false }));
  return { ...found, triage };
}

/** Writes the row's line, then gives its result: the row, or why not; audit_unavailable when the line could not be written. */
function rowSettler(deps: LookupDeps, call: SignedInCall, row: BatchRow, level: Level) {
  const line = batchRowLine(deps.environment, { ...call, started: performance.now() }, row.kind, row.id, level);
  return async (failure: ApiFailure | undefined, upstreamStatus: number | null, reached: boolean, found?: FoundRow) => {
    const answered = failure?.answeredId === undefined ? {} : { answeredId: failure.answeredId };
    const entry = line({ status: failure?.status ?? 200, code: failure?.code ?? null, upstreamStatus, reached, ...answered });
    if (!(await written(deps, entry))) {
      return failedRow(deps, call, level, new ApiFailure('audit_unavailable', 'This lookup could not be recorded in the audit log.'));
    }
    if (failure) return failedRow(deps, call, level, failure);
    // A row found is a lookup answered: its candidate is opened for the user's hand-offs, under the kind it was found by.
    const { opened, environment } = deps;
    await markOpened({ opened, environment, user: call.identity.user, kind: row.kind, id: row.id, log: requestLog(call.res) }, 'open');
    deps.metrics.lookups.inc({ code: 'ok', role: call.identity.role, level });
    return { ok: true as const, row: found! };
  };
}

/**
 * A failed row, counted in the metrics; its line is written already, counted with the batch's invalid ids,
 * or cannot be. Its message as the user may be told it: the service's own words to compliance users only
 * (api-failure.ts, toldTo), in the row and so in the batch's CSV.
 */
function failedRow(deps: Pick<LookupDeps, 'metrics'>, call: SignedInCall, level: Level, failure: ApiFailure): OneResult<FoundRow> {
  deps.metrics.lookups.inc({ code: failure.code, role: call.identity.role, level });
  logFaultOf(requestLog(call.res), failure);
  const { message } = failure.toldTo(call.identity.role);
  return { ok: false, code: failure.code, message, retryAfterSeconds: failure.retryAfterSeconds };
}
