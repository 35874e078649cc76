import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createQueueIndex, queueKey } from '../../src/server/state/queue-index.ts';
import { createMemoryQueueIndexStore } from '../../src/server/state/queue-index-store.ts';

/**
 * The dates the index learns of one candidate in one status, from records (lookups, webhooks' checks)
 * and from the list's own dates: a doubtful one (in the future, a placeholder before 2000) never hides a
 * real one, and a real one replaces a doubtful one.
 */

const YEAR = 365 * 86_400_000;
const real = fc.integer({ min: Date.parse('2000-01-01'), max: Date.now() - 60_000 });
const doubtful = fc.oneof(
  fc.integer({ min: 0, max: Date.parse('2000-01-01') - 1 }),
  fc.integer({ min: Date.now() + YEAR, max: Date.parse('2999-12-31') }),
  fc.constant(Date.parse('2999-01-01')),
);
const dates = fc.array(fc.oneof(real, doubtful), { minLength: 1, maxLength: 8 });
const isReal = (at: number) => at >= Date.parse('2000-01-01') && at <= Date.now();

/** The date the entry is to hold: the latest real one learnt (the last, when they come in order), else the last doubtful one. */
const expected = (learnt: readonly number[]) => {
  const reals = learnt.filter(isReal);
  return reals.length > 0 ? Math.max(...reals) : learnt.at(-1);
};

describe('a doubtful status date in the queue index', () => {
  it('property: from records, the entry holds the latest real date learnt; a doubtful one never hides it', async () => {
    await fc.assert(
      fc.asyncProperty(dates, async (learnt) => {
        const index = createQueueIndex(createMemoryQueueIndexStore());
        for (const since of learnt) await index.learnRecord('e', { recordId: 'r', status: 'waiting', since });
        const key = queueKey('recordId', 'r');
        expect((await index.store.find('e', [key])).get(key)?.entry.since).toBe(expected(learnt));
      }),
    );
  });

  it('property: from the list, the entry holds the latest real date listed; a doubtful one never hides it', async () => {
    await fc.assert(
      fc.asyncProperty(dates, async (learnt) => {
        const index = createQueueIndex(createMemoryQueueIndexStore());
        for (const since of learnt) {
          await index.learnListed('e', [{ refId: 'f', status: 'waiting', since: new Date(since).toISOString() }], {
            listedAt: Date.now(),
            position: 0,
          });
        }
        const key = queueKey('refId', 'f');
        expect((await index.store.find('e', [key])).get(key)?.entry.since).toBe(expected(learnt));
      }),
    );
  });

  it('a known 2999 date keeps no later real one out, nor a new status the list shows', async () => {
    const index = createQueueIndex(createMemoryQueueIndexStore());
    const key = queueKey('recordId', 'r');
    await index.learnRecord('e', { recordId: 'r', status: 'waiting', since: Date.parse('2999-01-01') });
    await index.learnListed('e', [{ recordId: 'r', status: 'inreview' }], { listedAt: Date.now(), position: 3 });
    expect((await index.store.find('e', [key])).get(key)?.entry).toMatchObject({ status: 'inreview', position: 3 });
  });
});
