import { statusDateField } from '../../kyc/contract/applicants.ts';
import type { LiveEvent, WebhookDelivery } from '../../kyc/contract/live-events.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import type { StatusLookup } from '../lookup/queue-lookup.ts';
import { factsOfRecord, type QueueIndex, queueKeysOf } from '../state/queue-index.ts';
import type { LiveHub } from './live-hub.ts';

/**
 * What becomes of an accepted delivery once the service was asked (delivery-check.ts): `published` when
 * its record confirms it; `stale` when the record says otherwise (a replay, or a change overtaken by a
 * later one: nobody is told, the index learns the record); `unconfirmed` when the service could not be
 * asked or did not answer (nobody is told: the page's Refresh, or the next delivery, shows the truth).
 */
export type Confirmation = 'published' | 'stale' | 'unconfirmed';

export interface ConfirmDeps {
  hub: LiveHub;
  queueIndex?: QueueIndex;
  /** The environment's status-level check, coalesced per candidate; undefined: this server cannot ask. */
  check: StatusLookup | undefined;
}

export async function confirmDelivery(deps: ConfirmDeps, delivery: WebhookDelivery, live: LiveEvent): Promise<Confirmation> {
  const kind = delivery.recordId ? 'recordId' : 'refId';
  const id = delivery.recordId || delivery.refId;
  if (!deps.check || !id) return 'unconfirmed';
  const checked = await deps.check(kind, id);
  if (!checked.ok) {
    // The service has no such candidate: a deletion is confirmed, anything else was about nobody.
    if (checked.code !== 'not_found') return 'unconfirmed';
    if (delivery.event !== 'user.deleted') return 'stale';
    await deps.hub.publish(live);
    return 'published';
  }
  const record = checked.record;
  if (deps.queueIndex) {
    // Under every key the record has: a row of the list known by its refId alone learns it too.
    const facts = factsOfRecord(record);
    await deps.queueIndex.record(live.environment, new Map(queueKeysOf(record).map((key) => [key, facts])));
  }
  const confirmed = confirmedEvent(live, record);
  if (!confirmed) return 'stale';
  await deps.hub.publish(confirmed);
  return 'published';
}

/**
 * The delivery's event as the service's record has it: its status, archive flag and the status's own
 * date from the record, never from the delivery; undefined when the record does not say what the
 * delivery said (another status, or not archived where the delivery said the data was gone).
 */
export function confirmedEvent(live: LiveEvent, record: CandidateRecord): LiveEvent | undefined {
  const archived = record.isArchived === true;
  if (live.isArchived && !archived) return undefined;
  if (live.status !== null && live.status !== record.status && !(live.event === 'user.deleted' && archived)) return undefined;
  const { statusDate: _said, ...rest } = live;
  // A deletion names no status of its own (the data is gone); any other event the record's.
  if (live.event === 'user.deleted') return { ...rest, isArchived: true };
  const date = record[statusDateField(record.status)];
  const statusDate = typeof date === 'string' && Number.isFinite(Date.parse(date)) ? new Date(date).toISOString() : undefined;
  return { ...rest, status: record.status, isArchived: archived, ...(statusDate ? { statusDate } : {}) };
}
