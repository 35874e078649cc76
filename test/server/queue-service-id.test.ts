import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CandidateRecord } from '../../src/kyc/contract/record-reading.ts';
import { serviceIdsOf } from '../../src/kyc/contract/service-id.ts';
import { factsOfRecord } from '../../src/server/state/queue-index.ts';
import { createRedisQueueIndexStore } from '../../src/server/state/queue-index-redis.ts';
import { createMemoryQueueIndexStore, type QueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { crawledListApp } from './list-upstream.ts';
import { pageOf, SUPPORT } from './queue-fixture.ts';
import { hasRedisServer, type RunningRedis, startRedis } from './redis-fixture.ts';

/**
 * The service's id in its identity network is `blockPassID` in real answers and `serviceID` in the spec
 * (service-id.ts). The candidate page reads either; the queue's rows, read from the list through the
 * index, carry it by the same rule: each under the name it came with, one equal to the other once.
 */

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

let redis: RunningRedis | undefined;
beforeAll(async () => {
  if (hasRedisServer) redis = await startRedis();
});
afterAll(() => redis?.stop());

let prefixes = 0;
const STORES: Array<[string, () => QueueIndexStore | undefined]> = [
  ['memory', () => createMemoryQueueIndexStore()],
  ['Redis', () => (redis ? createRedisQueueIndexStore(redis.url, `service-id-${++prefixes}:`) : undefined)],
];

/** The Waiting tab's rows of a fake service listing `records`, its queue read once by the crawler into `store`. */
async function waitingRows(records: unknown[], store: QueueIndexStore) {
  const app = await crawledListApp(records, store, closing);
  return pageOf(await app.get('/api/applicants?status=waiting', SUPPORT)).records;
}

/** The service ids as the candidate page shows them (field and value), present ones only. */
const pageIds = (record: Pick<CandidateRecord, 'blockPassID' | 'serviceID'>) =>
  serviceIdsOf(record).flatMap((id) => (id.value === undefined ? [] : [[id.field, id.value]]));

const rowIds = (row: { blockPassID?: string; serviceID?: string }) => [
  ...(row.blockPassID ? [['blockPassID', row.blockPassID]] : []),
  ...(row.serviceID ? [['serviceID', row.serviceID]] : []),
];

describe('the service id in the queue', () => {
  for (const [name, storeOf] of STORES) {
    it.skipIf(name === 'Redis' && !hasRedisServer)(
      `a service sending serviceID only: its rows carry it, through the ${name} index`,
      async () => {
        const rows = await waitingRows(
          [
            { status: 'waiting', refId: 'spec-1', serviceID: 'SVC-1' },
            { status: 'waiting', refId: 'both-2', blockPassID: 'BP-2', serviceID: 'SVC-2' },
            { status: 'waiting', refId: 'same-3', blockPassID: 'ID-3', serviceID: 'ID-3' },
          ],
          storeOf()!,
        );
        const byRef = Object.fromEntries(rows.map((row) => [row.refId, rowIds(row)]));
        expect(byRef).toEqual({
          'spec-1': [['serviceID', 'SVC-1']],
          'both-2': [
            ['blockPassID', 'BP-2'],
            ['serviceID', 'SVC-2'],
          ],
          'same-3': [['blockPassID', 'ID-3']],
        });
      },
    );
  }

  it("a lookup's record teaches the index its serviceID as the page reads it", () => {
    expect(factsOfRecord({ status: 'waiting', refId: 'r', serviceID: 'SVC-9' })).toMatchObject({ serviceID: 'SVC-9' });
    expect(factsOfRecord({ status: 'waiting', refId: 'r', serviceID: 'SVC-9' }).blockPassID).toBeUndefined();
  });

  it('property: for any blockPassID and serviceID a list record sends, its row carries the service ids the candidate page shows', async () => {
    const id = fc.option(fc.constantFrom('', 'BP-1', 'SVC-1', 'X'), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ blockPassID: id, serviceID: id }), { minLength: 1, maxLength: 6 }), async (sent) => {
        const listed = sent.map((ids, i) => ({
          status: 'waiting',
          refId: `ref-${i}`,
          ...(ids.blockPassID === undefined ? {} : { blockPassID: ids.blockPassID }),
          ...(ids.serviceID === undefined ? {} : { serviceID: ids.serviceID }),
        }));
        const rows = await waitingRows(listed, createMemoryQueueIndexStore());
        const byRef = new Map(rows.map((row) => [row.refId, rowIds(row)]));
        for (const [i, ids] of sent.entries()) {
          const present = Object.fromEntries(Object.entries(ids).filter(([, value]) => value !== undefined));
          expect(byRef.get(`ref-${i}`)).toEqual(pageIds(present));
        }
        await closing.pop()!();
      }),
      { numRuns: 20 },
    );
  });
});
