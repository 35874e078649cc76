import type { SetName } from './queue-entry.ts';
import type { IndexBound, IndexSize, QueueIndexStore } from './queue-index-store.ts';
import { nextTurn } from './next-turn.ts';

/**
 * Which entries go first past the bound: decisions, oldest first (the latest are what reviewers look
 * for); then other statuses; then the work not dated yet; last the work, newest first, so that the
 * longest waits are the last thing the index forgets.
 */
const EVICTION: ReadonlyArray<[SetName, boolean]> = [
  ['z:approved', false],
  ['z:rejected', false],
  ['z:blocked', false],
  ['u:approved', false],
  ['u:rejected', false],
  ['u:blocked', false],
  ['z:other', false],
  ['u:other', false],
  ['u:incomplete', true],
  ['z:incomplete', true],
  ['u:review_requested', true],
  ['u:inreview', true],
  ['u:waiting', true],
  ['z:review_requested', true],
  ['z:inreview', true],
  ['z:waiting', true],
];
/** Evicted down to this share of the bound, so that a full index does not evict at every write. */
const EVICT_TO = 0.9;
const EVICT_CHUNK = 500;

/** Evicts past the bound, down to EVICT_TO of it: how many went, and the size after. */
export async function evict(store: QueueIndexStore, environment: string, size: IndexSize, bound: IndexBound) {
  const entries = Math.floor(bound.maxEntries * EVICT_TO);
  const bytes = Math.floor(bound.maxBytes * EVICT_TO);
  let after = size;
  let evicted = 0;
  for (const [set, reverse] of EVICTION) {
    while (after.entries > entries || after.bytes > bytes) {
      // Past the bytes: as many entries as the average entry weighs, measured again after each chunk.
      const average = after.bytes / Math.max(1, after.entries);
      const count = Math.min(EVICT_CHUNK, Math.max(1, after.entries - entries, Math.ceil((after.bytes - bytes) / average)));
      const members = (await store.range(environment, [{ set, offset: 0, count, reverse }]))[0] ?? [];
      if (members.length === 0) break;
      // A chunk a turn: evicting tens of thousands at once held every other request.
      if (evicted > 0) await nextTurn();
      const current = await store.entries(environment, members);
      const writes = current.flatMap((one) => (one ? [{ member: one.member, expected: one.json, next: undefined }] : []));
      const result = await store.apply(environment, writes);
      evicted += writes.length - result.conflicts.length;
      after = result.size;
    }
  }
  return { evicted, after };
}
