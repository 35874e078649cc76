import { describe, expect, it } from 'vitest';
import { decodeEntry, encodeEntry } from '../../src/server/state/queue-entry.ts';
import { createQueueIndex, factsOfRecord } from '../../src/server/state/queue-index.ts';
import { createMemoryQueueIndexStore } from '../../src/server/state/queue-index-store.ts';

describe('a candidate looked up whose record holds no date of its status', () => {
  it('the index records "looked up, no date" (and keeps it through the stores\' encoding), so no row waits for a date that will never come', async () => {
    const store = createMemoryQueueIndexStore();
    const index = createQueueIndex(store);
    // The older list shape: no dates at all.
    const [listed] = await index.learnListed('default', [{ status: 'waiting', refId: 'list-older', recordId: 'r-older' }], {
      listedAt: Date.now(),
      position: 0,
    });
    expect(listed?.due).toBe(true);
    await index.learnRecord('default', factsOfRecord({ status: 'waiting', refId: 'list-older', recordId: 'r-older' }));
    const [stored] = await store.entries('default', [listed!.member]);
    expect(stored?.entry).toMatchObject({ status: 'waiting', dateless: true });
    expect(stored?.entry.since).toBeUndefined();
    expect(decodeEntry(encodeEntry(stored!.entry))).toEqual(stored!.entry);
  });

  it('a record with its date is not dateless, and a later date clears it', async () => {
    const store = createMemoryQueueIndexStore();
    const index = createQueueIndex(store);
    await index.learnRecord('default', factsOfRecord({ status: 'waiting', refId: 'a' }));
    await index.learnRecord('default', factsOfRecord({ status: 'waiting', refId: 'a', waitingDate: '2026-11-20T10:00:00.000Z' }));
    const [stored] = await store.entries('default', ['refId:a']);
    expect(stored?.entry.dateless).toBeUndefined();
    expect(stored?.entry.since).toBe(Date.parse('2026-11-20T10:00:00.000Z'));
  });
});
