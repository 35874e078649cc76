import type http from 'node:http';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { type Audit, auditTrail, auditWritable, type Outcome, refuse } from '../audit/audit-trail.ts';
import { type LookupShown, lookupLine } from '../audit/audit-lines.ts';
import type { AuditEntry } from '../audit/audit-entries.ts';
import { type ApiFailure, otherCandidate } from '../http/api-failure.ts';
import type { Identity } from '../http/identity.ts';
import { answerFull, type FullAnswer } from './full-answer.ts';
import { listedRecordIdFor } from './listed-record-id.ts';
import { auditOpening } from './opened-candidates.ts';
import { bytesSent, errorCodeSent, leftEarly, sendFailure, sendJson } from '../http/http-reply.ts';
import {
  admit,
  archivingGate,
  type Level,
  type LookupDeps,
  levelOf,
  type Plan,
  planOf,
  readId,
  type Sent,
  sendRequest,
  takeSlot,
  takeToken,
  waitingFrom,
} from './lookup-steps.ts';
import type { Waiting } from '../archiving/archiving-gate.ts';
import { type Logger, requestLog } from '../log/log.ts';
import type { Metrics } from '../ops/metrics.ts';
import { partsAccepted } from '../answer/multipart-answer.ts';
import { answeredOtherOf, type Reduced, reduceToStatusLevel } from '../answer/status-level.ts';
import { watchRecord } from '../answer/record-triage.ts';
import { HeldReader } from '../answer/answer-held.ts';
import { serviceSettingsOf, statedErrorOf } from '../upstream/upstream-failures.ts';
import type { CandidateRequest } from '../upstream/upstream-client.ts';

/**
 * One lookup, audit then answer: the steps of lookup-steps.ts (limit, audit writable, id, archiving
 * gate, upstream slot, admission, fetch and read), and only once the audit line is written does an
 * answer (or a refusal) leave. An audit log that cannot be written turns every answer into a 503: the
 * lookup fails closed.
 */

export interface LookupCall {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  identity: Identity;
  kind: LookupKind;
  /** The path text after `/<kind>/`, still percent-encoded. */
  encodedId: string;
  /** `performance.now()` when the request arrived. */
  started: number;
  /** Status level whatever the role (the candidate page's freshness check). */
  statusOnly?: boolean;
}

export async function lookup(deps: LookupDeps, call: LookupCall): Promise<void> {
  const role = call.statusOnly ? 'support' : call.identity.role;
  // The level as planned before the limit; the support fields' plan (planOf) may change it once the lookup may go on.
  let plan: Plan = { level: levelOf(role, deps.hasStatusKey) };
  const shown: LookupShown = { level: plan.level };
  countLookup(deps.metrics, call, () => plan.level);
  const asked = readId(call.encodedId);
  const audit = openingAudit(
    deps,
    call,
    asked,
    auditTrail(
      deps,
      call.res,
      'lookup',
      statusCheckLine(
        call,
        lookupLine(deps.environment, call, call.kind, asked.auditId, null, () => shown),
      ),
    ),
  );
  // The user's limit comes before anything else: every request costs a token, an invalid id too, and
  // once over the limit (or while the shared store is down) the refusals are counted rather than
  // written one by one.
  const limited = await takeToken(deps, call.req, call.identity, 'lookup');
  if (limited) return refuse(call.res, audit, limited, { counted: true });
  const stuck = auditWritable(deps);
  if (stuck) return void sendFailure(call.res, stuck);
  if (!asked.ok) return refuse(call.res, audit, asked.failure);
  const log = requestLog(call.res);
  // The freshness check stays at status level: it re-reads the status, never the support fields.
  if (!call.statusOnly) plan = await planOf(deps, role, log);
  Object.assign(shown, { level: plan.level }, plan.withheld ? { fieldsWithheld: plan.withheld } : {});
  const archiving = await archivingGate(deps, plan.level, log);
  if (archiving) return refuse(call.res, audit, archiving);
  // The service asked to wait (its 429): until then nothing is sent, whoever asks; repeated asks are counted as the limit's are.
  const waiting = deps.upstream.waiting('lookup');
  if (waiting) return refuse(call.res, audit, waiting, { counted: true });

  return fetchAndAnswer(deps, call, { audit, plan, shown, id: asked.id, log });
}

/**
 * A lookup answered opens its candidate for the user's hand-offs (opened-candidates.ts), under the kind
 * and id asked, which the page then exports by. The page's own status check opens nothing: the trail
 * does not show it as a lookup asked for, so a copy after it alone would still be of a candidate never opened.
 */
function openingAudit(deps: LookupDeps, call: LookupCall, asked: ReturnType<typeof readId>, audit: Audit): Audit {
  if (call.statusOnly || !asked.ok) return audit;
  const { opened, environment } = deps;
  return auditOpening(audit, { opened, environment, user: call.identity.user, kind: call.kind, id: asked.id, log: requestLog(call.res) });
}

/** The page's own status check is marked as one (audit-entries.ts: `statusCheck`), so that the trail does not show it as a lookup asked for. */
function statusCheckLine(call: LookupCall, line: (outcome: Outcome) => AuditEntry): (outcome: Outcome) => AuditEntry {
  return call.statusOnly ? (outcome) => ({ ...line(outcome), statusCheck: true }) : line;
}

/** Past the gate: an upstream slot, admission, the request, then the answer (the full record, or the status level). */
async function fetchAndAnswer(
  deps: LookupDeps,
  call: LookupCall,
  lookup: { audit: Audit; plan: Plan; shown: LookupShown; id: string; log: Logger },
): Promise<void> {
  const { audit, plan, shown } = lookup;
  const { level } = plan;
  // Asked of the queue index while the service is asked: a full answer by refId may have no recordId.
  const listed = listedRecordIdFor(deps, { kind: call.kind, id: lookup.id, level });
  const left = leftEarly(call.res);
  // One budget for the waits for a turn: the user's slot, then admission.
  const waiting = waitingFrom(deps, deps.access.rateLimitKey(call.req, call.identity));
  const slot = await takeSlot(deps, { ...call, level }, left, { waiting });
  if (slot === 'gone') return;
  if (typeof slot !== 'function') return refuse(call.res, audit, slot.toldTo(call.identity.role));
  // Support users never get picture parts: their answer is the status level, plain JSON.
  const inParts = level === 'full' && partsAccepted(call.req) ? call.req : undefined;
  // The key that asks: the status-level one for a status-level lookup, else the full one (stripped here after).
  const request: CandidateRequest = { kind: call.kind, id: lookup.id, scope: level === 'status' ? 'status' : 'full' };
  const sent = await admitAndSend(deps, call, { level, request, log: lookup.log, left, waiting }, slot);
  // Each failure as the user may be told it: the service's own words to compliance users only (api-failure.ts, toldTo).
  const role = call.identity.role;
  if (!('answer' in sent)) return sent.failure && refuse(call.res, audit, sent.failure.toldTo(role));
  // Left while it was admitted: its abort event has passed.
  if (left.aborted) sent.abort();
  else left.addEventListener('abort', sent.abort, { once: true });
  const fetched = await sent.answer;
  if (!fetched.ok)
    return refuse(call.res, audit, fetched.failure.toldTo(role), {
      upstreamStatus: fetched.upstreamStatus,
      reached: fetched.upstreamStatus !== null,
    });
  const { upstreamRes, upstreamStatus } = fetched;
  // A 401 stated in a 200's envelope names the key sent, as the same HTTP status does (upstream-failures.ts).
  const stated = statedErrorOf(request, upstreamRes.headers, deps.upstream);
  // An answer that is no record names this environment's settings, as the service configures it (not-a-record.ts).
  const settings = serviceSettingsOf(deps.upstream.keyInUse(request.scope));
  if (level === 'full') {
    const asked = { kind: call.kind, id: lookup.id };
    // Nothing of another candidate's record leaves (a cache or gateway answering wrongly): refused at its id.
    const guard = deps.upstream.answerGuard(upstreamRes, asked);
    // The queue index learns what the record says (issue 32), read from the answer's one scan.
    if (deps.learn) watchRecord(guard.scan, deps.learn, () => !guard.keyWatch.found);
    // What it held, for the request's closing line (its 200 line, written before the first byte, cannot say), from the same scan.
    const held = new HeldReader(guard.scan.path);
    guard.scan.add(held);
    shown.heldLine = true;
    const heldNow = () => (guard.scan.ended && !guard.scan.failure ? held.held() : undefined);
    const owner = deps.access.rateLimitKey(call.req, call.identity);
    const full: FullAnswer = { upstreamRes, guard, audit, upstreamStatus, stated, settings, inParts, owner, listed, asked, held: heldNow };
    return answerFull(call.res, full, deps);
  }
  const reading = { maxResponseBytes: deps.settings.limits.maxResponseBytes, keys: deps.upstream.keys, stated, settings };
  const reduced = await reduceToStatusLevel(upstreamRes, reading, plan.fields);
  // The audit line names the support fields the answer holds.
  if (reduced.ok && plan.fields) shown.fields = Object.keys(reduced.record.customFields ?? {});
  const other = reduced.ok ? answeredOtherOf(reduced, call.kind, lookup.id) : undefined;
  if (other !== undefined) return refuse(call.res, audit, otherCandidate(call.kind, lookup.id, other), { upstreamStatus, reached: true });
  if (reduced.ok) deps.learn?.(reduced.record);
  return answerStatusLevel(call, reduced, audit, upstreamStatus);
}

/**
 * Admission, then the request: its failure (none: the browser left), or the request sent. The user's
 * slot is freed once the browser's answer is done and the request no longer holds a connection to the
 * service. A full answer is read to its end after the browser left (archive-watch.ts), and while it is,
 * it counts against its user: freed at the browser's leaving, one user who opened and left lookups one
 * after another had hundreds at the service at once, and everyone else waited for a connection.
 */
async function admitAndSend(
  deps: LookupDeps,
  call: LookupCall,
  request: { level: Level; request: CandidateRequest; log: Logger; left: AbortSignal; waiting: Waiting },
  slot: () => void,
): Promise<Sent | { failure: ApiFailure | undefined }> {
  let sent: Sent | undefined;
  let decided: () => void = () => {};
  const sending = new Promise<void>((resolve) => (decided = resolve));
  call.res.once('close', () => void sending.then(() => sent?.over).then(slot));
  try {
    const admission = await admit(deps, request.level, request.left, request.log, request.waiting);
    if (!admission.ok) return { failure: admission.failure };
    // The service is asked for JSON, also when the browser asked for parts (upstream-client.ts).
    sent = sendRequest(deps, request.request, admission.pass, call.res);
    return sent;
  } finally {
    decided();
  }
}

/** Counts the lookup while it is answered, and its outcome, time and bytes once its connection is done. */
function countLookup(metrics: Metrics, call: LookupCall, levelNow: () => Level): void {
  metrics.lookupsInFlight.inc();
  call.res.once('close', () => {
    metrics.lookupsInFlight.dec();
    const code = errorCodeSent(call.res) ?? (call.res.writableFinished ? 'ok' : 'cut');
    const level = levelNow();
    metrics.lookups.inc({ code, role: call.identity.role, level });
    metrics.lookupSeconds.observe({ level }, (performance.now() - call.started) / 1000);
    metrics.lookupBytes.inc({ level }, bytesSent(call.res));
  });
}

/** Support users (and the page's status check): the status-level record only, checked here whichever key fetched it. */
async function answerStatusLevel(call: LookupCall, reduced: Reduced, audit: Audit, upstreamStatus: number) {
  if (!reduced.ok) return refuse(call.res, audit, reduced.failure.toldTo(call.identity.role), { upstreamStatus, reached: true });
  if (await audit(200, null, { upstreamStatus, reached: true })) sendJson(call.res, 200, reduced.body);
}
