import type { ApiErrorCode } from '../../kyc/contract/api.ts';
import { SERVER_USERS } from '../../kyc/contract/audit-search.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import { auditWritable, written } from '../audit/audit-trail.ts';
import type { AuditEntry } from '../audit/audit.ts';
import { type ApiFailure, otherCandidate } from '../http/api-failure.ts';
import { type Logger, logFaultOf } from '../log/log.ts';
import { answeredOtherOf, reduceToStatusLevel } from '../answer/status-level.ts';
import type { UpstreamBody } from '../answer/upstream-body.ts';
import { serviceSettingsOf, statedErrorOf } from '../upstream/upstream-failures.ts';
import { crawlerFullKeyWithheld } from './crawler-full-key.ts';
import { admit, archivingGate, checkedId, type LookupDeps, levelOf, sendRequest, waitingFrom } from './lookup-steps.ts';

/** Who the queue index's lookups are audited and slotted under: this server, in a form no username takes. */
export const QUEUE_INDEX_USER = SERVER_USERS.queueIndex;
/** Who checks a webhook delivery against the service before anyone is told of it (issue 31). */
export const WEBHOOK_CHECK_USER = SERVER_USERS.webhookCheck;

/**
 * What the service says of a candidate at status level: its record, or the code of why not (`not_found`:
 * it has none). `not_asked` with `until`: the service's 429 wait holds until then (epoch ms); with
 * `withheld`: the full key is not sent for it, and why (crawler-full-key.ts), which no retry soon changes.
 */
export type StatusChecked =
  | { ok: true; record: CandidateRecord }
  | { ok: false; code: ApiErrorCode | 'not_asked'; until?: number; withheld?: ApiFailure };
export type StatusLookup = (kind: LookupKind, id: string) => Promise<StatusChecked>;

/**
 * One status-level lookup made by this server for itself (`user`: the queue index, a webhook's check),
 * through the lookup's own steps (lookup-steps.ts): the id rule, audit writable, the service's wait, the archiving gate
 * (without a status key the full key is used, and a key that archives after extract is never asked), a
 * slot of its own, the request, the status-level reduction, and its audit line (`queueIndex: true`)
 * before the record is used. Never rejects: a failure is its code (`not_asked` when nothing was sent).
 * `fullKeyOnceSafe` (the crawler's and a webhook's check: neither is a reviewer opening a candidate): the
 * archiving gate is the crawler's rule of the full key instead, the one its list pages take too
 * (crawler-full-key.ts), a check it withholds answered `withheld`.
 */
export function serverStatusLookup(deps: LookupDeps, log: Logger, user: string, options: { fullKeyOnceSafe?: boolean } = {}): StatusLookup {
  const level = levelOf('support', deps.hasStatusKey);
  const notAsked: StatusChecked = { ok: false, code: 'not_asked' };
  return async (kind, id) => {
    const asked = checkedId(id);
    // An id no lookup can take says the same however often it is asked: not a passing failure.
    if (!asked.ok) return { ok: false, code: 'invalid_id' };
    if (auditWritable(deps)) return notAsked;
    // The crawler's lookups take the crawler's one rule of the full key (crawler-full-key.ts), the finding read with it.
    const withheld = options.fullKeyOnceSafe ? await crawlerFullKeyWithheld(deps, log) : undefined;
    if (withheld) return { ...notAsked, withheld };
    const started = performance.now();
    const audited = async (failure: ApiFailure | undefined, upstreamStatus: number | null) => {
      const entry: AuditEntry = {
        time: new Date().toISOString(),
        user,
        role: 'support',
        env: deps.environment,
        kind,
        id,
        status: failure?.status ?? 200,
        code: failure?.code ?? null,
        upstreamStatus,
        level: upstreamStatus === null ? null : level,
        durationMs: Math.round(performance.now() - started),
        queueIndex: true,
        ...(failure?.answeredId === undefined ? {} : { answeredId: failure.answeredId }),
      };
      deps.metrics.queueIndexLookups.inc({ code: failure?.code ?? 'ok' });
      return written(deps, entry);
    };
    // The service asked to wait (its 429, to anyone here): nothing is sent, as no user's lookup is. Sent,
    // each check was refused again and pushed the wait on, for every user, for as long as deliveries came.
    const waiting = waitUntil(deps);
    if (waiting) return waiting;
    if (!options.fullKeyOnceSafe && (await archivingGate(deps, level, log))) return notAsked;
    const turn = waitingFrom(deps);
    const release = await deps.upstreamSlots.acquire(user, deps.settings.limits.upstreamTimeoutMs);
    if (!release) return notAsked;
    try {
      const admission = await admit(deps, level, new AbortController().signal, log, turn);
      // Asked again: the wait may have begun while this check waited for its slot.
      if (!admission.ok) return notAsked;
      const waitingNow = waitUntil(deps);
      if (waitingNow) return waitingNow;
      const fetched = await sendRequest(deps, { kind, id: asked.id, scope: 'status' }, admission.pass).answer;
      if (!fetched.ok) {
        await audited(fetched.failure, fetched.upstreamStatus);
        return { ok: false, code: fetched.failure.code };
      }
      const read = await statusOf(deps, log, { user, kind, id: asked.id }, fetched.upstreamRes);
      logFaultOf(log, read.failure);
      if (!(await audited(read.failure, fetched.upstreamStatus))) return notAsked;
      return read.failure ? { ok: false, code: read.failure.code } : { ok: true, record: read.record };
    } finally {
      release();
    }
  };
}

/**
 * The answer read to status level: the record, or the failure its audit line says. A record that is
 * another candidate's (answeredOther: a cache or a gateway in front of the service answering wrongly) is
 * refused as a user's lookup is (other_candidate): its status is not the asked candidate's, and the
 * crawler would have put it on the queue's rows, a webhook's check on a page's live notice. The warning
 * names neither id (the audit line has both): a log is no place for who was looked up.
 */
async function statusOf(
  deps: LookupDeps,
  log: Logger,
  asked: { user: string; kind: LookupKind; id: string },
  upstreamRes: UpstreamBody,
): Promise<{ record: CandidateRecord; failure?: undefined } | { failure: ApiFailure }> {
  const { kind, id } = asked;
  const stated = statedErrorOf({ kind, id, scope: 'status' }, upstreamRes.headers, deps.upstream);
  const settings = serviceSettingsOf(deps.upstream.keyInUse('status'));
  const reading = { maxResponseBytes: deps.settings.limits.maxResponseBytes, keys: deps.upstream.keys, stated, settings };
  const reduced = await reduceToStatusLevel(upstreamRes, reading);
  if (!reduced.ok) return { failure: reduced.failure };
  const other = answeredOtherOf(reduced, kind, id);
  if (other === undefined) return { record: reduced.record };
  log.warn(
    { env: deps.environment, user: asked.user, kind, code: 'other_candidate' },
    `A status lookup this server made for itself (${asked.user}) was answered with another candidate's record: refused, nothing of it used. Something in front of the KYC service (a cache, a gateway) may be answering wrongly; the audit line names both ids.`,
  );
  return { failure: otherCandidate(kind, id, other) };
}

/** Not asked, while the service's 429 wait holds: until when, for a caller that can wait for it (a webhook's check). */
function waitUntil(deps: Pick<LookupDeps, 'upstream'>): StatusChecked | undefined {
  const waiting = deps.upstream.waiting('lookup');
  if (!waiting) return undefined;
  return { ok: false, code: 'not_asked', until: Date.now() + (waiting.retryAfterSeconds ?? 1) * 1000 };
}
