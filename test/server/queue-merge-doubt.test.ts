import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createQueueIndex } from '../../src/server/state/queue-index.ts';
import { createMemoryQueueIndexStore } from '../../src/server/state/queue-index-store.ts';

/**
 * A candidate known apart (a list row by refId, a record by recordId) becomes one entry once a source
 * names both ids, and the entry kept is the newer by a date to trust: a doubtful date (in the future, or a
 * placeholder before 2000: date-doubt.ts) is no date there, as in every order of the queue. Before, the
 * raw dates were compared, and a record dated 2999 won over a real date: the candidate lost its status's
 * real date and went back to "not dated yet".
 */

const DAY_MS = 86_400_000;
const now = Date.now();
const realDate = fc.integer({ min: Date.parse('2001-01-01T00:00:00.000Z'), max: now - DAY_MS });
const doubtfulDate = fc.oneof(
  fc.integer({ min: now + 2 * DAY_MS, max: Date.parse('3000-01-01T00:00:00.000Z') }),
  fc.integer({ min: Date.parse('1970-01-01T00:00:00.000Z'), max: Date.parse('1999-12-31T00:00:00.000Z') }),
);
const status = fc.constantFrom('waiting', 'inreview', 'approved', 'rejected');

describe('merging a candidate known apart', () => {
  it('keeps the real date, whatever the doubtful one, the statuses and the order they were learnt in', async () => {
    await fc.assert(
      fc.asyncProperty(
        realDate,
        doubtfulDate,
        status,
        status,
        fc.boolean(),
        async (real, doubtful, realStatus, doubtfulStatus, realFirst) => {
          const store = createMemoryQueueIndexStore();
          const index = createQueueIndex(store);
          const listedAt = now;
          const learnReal = () =>
            index.learnListed('env', [{ status: realStatus, refId: 'ref-1', since: new Date(real).toISOString() }], {
              listedAt,
              position: 0,
            });
          const learnDoubtful = () => index.learnRecord('env', { status: doubtfulStatus, recordId: 'rec-1', since: doubtful });
          if (realFirst) {
            await learnReal();
            await learnDoubtful();
          } else {
            await learnDoubtful();
            await learnReal();
          }
          expect((await store.size('env')).entries).toBe(2);
          // A list row naming both ids, of the real date's status, with no date of its own.
          await index.learnListed('env', [{ status: realStatus, refId: 'ref-1', recordId: 'rec-1' }], { listedAt, position: 0 });
          expect((await store.size('env')).entries).toBe(1);
          const entry = (await store.find('env', ['refId:ref-1'])).get('refId:ref-1')?.entry;
          expect(entry).toMatchObject({ status: realStatus, since: real, refId: 'ref-1', recordId: 'rec-1' });
        },
      ),
      { numRuns: 150 },
    );
  });
});
