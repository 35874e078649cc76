import { auditWritable, written } from '../audit/audit-trail.ts';
import type { AuditEntry } from '../audit/audit.ts';
import type { ApiFailure } from '../http/api-failure.ts';
import type { Logger } from '../log/log.ts';
import { reduceToStatusLevel } from '../answer/status-level.ts';
import type { QueueFacts } from '../state/queue-index-store.ts';
import { admit, archivingGate, checkedId, type LookupDeps, levelOf, sendRequest } from './lookup-steps.ts';
import { factsOfRecord, parseQueueKey } from '../state/queue-index.ts';

/** Who the queue index's lookups are audited and slotted under: this server, in a form no username takes. */
export const QUEUE_INDEX_USER = '(queue-index)';

/** A lookup by a queue index key (`recordId:<id>` or `refId:<id>`: a row of the current documentation's list has no recordId). */
export type QueueLookup = (key: string) => Promise<QueueFacts | undefined>;

/**
 * One status-level lookup for the queue index, through the lookup's own steps (lookup-steps.ts): the id
 * rule, audit writable, the archiving gate (without a status key the full key is used, and a key that
 * archives after extract is never asked), a slot of its own, the request, the status-level reduction,
 * and its audit line (`queueIndex: true`) before the facts are used. Never rejects: a failure is no facts.
 */
export function queueLookup(deps: LookupDeps, log: Logger): QueueLookup {
  const level = levelOf('support', deps.hasStatusKey);
  return async (key) => {
    const wanted = parseQueueKey(key);
    const asked = wanted && checkedId(wanted.id);
    if (!wanted || !asked?.ok || auditWritable(deps)) return undefined;
    const started = performance.now();
    const audited = async (failure: ApiFailure | undefined, upstreamStatus: number | null) => {
      const entry: AuditEntry = {
        time: new Date().toISOString(),
        user: QUEUE_INDEX_USER,
        role: 'support',
        env: deps.environment,
        kind: wanted.kind,
        id: wanted.id,
        status: failure?.status ?? 200,
        code: failure?.code ?? null,
        upstreamStatus,
        level: upstreamStatus === null ? null : level,
        durationMs: Math.round(performance.now() - started),
        queueIndex: true,
      };
      deps.metrics.queueIndexLookups.inc({ code: failure?.code ?? 'ok' });
      return written(deps, entry);
    };
    if (await archivingGate(deps, level, log)) return undefined;
    const release = await deps.upstreamSlots.acquire(QUEUE_INDEX_USER, deps.timeoutMs);
    if (!release) return undefined;
    try {
      const admission = await admit(deps, level, new AbortController().signal, log);
      if (!admission.ok) return undefined;
      const fetched = await sendRequest(deps, { kind: wanted.kind, id: asked.id, scope: 'status', browserHeaders: {} }, admission.pass)
        .answer;
      if (!fetched.ok) {
        await audited(fetched.failure, fetched.upstreamStatus);
        return undefined;
      }
      const reduced = await reduceToStatusLevel(fetched.upstreamRes, deps.maxResponseBytes, deps.upstream.keys);
      if (!(await audited(reduced.ok ? undefined : reduced.failure, fetched.upstreamStatus)) || !reduced.ok) return undefined;
      return factsOfRecord(reduced.record);
    } finally {
      release();
    }
  };
}
