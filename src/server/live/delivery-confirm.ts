import { currentStatusDate } from '../../kyc/contract/batch.ts';
import type { LiveEvent, WebhookDelivery } from '../../kyc/contract/live-events.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import type { StatusLookup } from '../lookup/queue-lookup.ts';
import type { StoredEntry } from '../state/queue-index-store.ts';
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
    // Gone from the service: gone from the queue too, where its row stood until the crawler's next pass.
    await deps.queueIndex?.forget(live.environment, queueKeysOf({ [kind]: id }));
    await deps.hub.publish(live);
    return 'published';
  }
  const record = checked.record;
  // Under every id the record has: a row of the list known by its refId alone learns it too.
  const placed = deps.queueIndex ? await learnPlace(deps.queueIndex, live.environment, record) : {};
  const confirmed = confirmedEvent(live, record);
  if (!confirmed) return 'stale';
  await deps.hub.publish(live.event === 'user.deleted' ? confirmed : { ...confirmed, ...placed });
  return 'published';
}

type Place = Pick<LiveEvent, 'previousStatus' | 'previousSince' | 'since' | 'dateless'>;

/**
 * Teaches the index the record, and says where the candidate was in it just before and where it is now
 * (issue 32): the queue pages move its row with that, instead of asking for their view again. Read
 * around the write: a change another source made in between is the page's to learn at its next view.
 */
export async function learnPlace(index: QueueIndex, environment: string, record: CandidateRecord): Promise<Place> {
  const keys = queueKeysOf(record);
  const before = newest(await index.store.find(environment, keys));
  await index.learnRecord(environment, factsOfRecord(record, Date.now()));
  const after = newest(await index.store.find(environment, keys));
  // The index kept what it knew (a newer status than the record's): where the row goes is not this event's to say.
  if (after?.status !== record.status) return {};
  const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
  const previousSince = iso(before?.since);
  const since = iso(after.since);
  return {
    previousStatus: before?.status ?? null,
    ...(previousSince ? { previousSince } : {}),
    ...(since ? { since } : after.dateless ? { dateless: true as const } : {}),
  };
}

/** The entry the keys find; when they found two (not yet merged), the newer, as the index's write takes it. */
function newest(found: ReadonlyMap<string, StoredEntry>): StoredEntry['entry'] | undefined {
  return [...found.values()].reduce<StoredEntry | undefined>(
    (best, one) => (!best || (one.entry.since ?? -1) > (best.entry.since ?? -1) ? one : best),
    undefined,
  )?.entry;
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
  const { statusDate: _said, ...said } = live;
  // The record's ids, as the service writes them (a delivery's recordId may come in capitals where the
  // record's and the list's are lower case): a page finds its candidate, and the queue its row, by the
  // ids they were read with. The delivery's fill only those the record leaves out.
  const rest = { ...said, refId: record.refId || said.refId || null, recordId: record.recordId || said.recordId || null };
  // A deletion names no status of its own (the data is gone); any other event the record's.
  if (live.event === 'user.deleted') return { ...rest, isArchived: true };
  const date = currentStatusDate(record);
  const statusDate = typeof date === 'string' && Number.isFinite(Date.parse(date)) ? new Date(date).toISOString() : undefined;
  return { ...rest, status: record.status, isArchived: archived, ...(statusDate ? { statusDate } : {}) };
}
