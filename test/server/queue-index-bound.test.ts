import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readView } from '../../src/server/lookup/queue-view.ts';
import { createMetrics } from '../../src/server/ops/metrics.ts';
import { createQueueIndex } from '../../src/server/state/queue-index.ts';
import { createRedisQueueIndexStore } from '../../src/server/state/queue-index-redis.ts';
import { createMemoryQueueIndexStore, type QueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { startTestApp, testEnvironment } from './http.ts';
import { startListUpstream } from './list-upstream.ts';
import { gateway, pageOf, SUPPORT } from './queue-fixture.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, type RunningRedis, startRedis } from './redis-fixture.ts';

/**
 * Issue 31, finding 2: list records whose `_id` is 50–500 kB, new on every request, grew the queue index
 * by about 500 MB per Waiting view, and the process died after about 8 views; the in-memory index was
 * bounded by entries only, the Redis one not at all (its expiry refreshed on every write). Ids longer
 * than the lookup's 256 characters are now refused (list-record.ts), and the index is bounded in entries
 * and in bytes, in memory and in Redis, with a metric and a log line when it evicts.
 */

const BASE = Date.parse('2026-05-01T00:00:00.000Z');
const HOUR = 3_600_000;

/** `count` records never seen before, each with the longest ids a lookup takes (256 characters), and a few of 50–500 kB. */
function hostileRead(round: number, count: number) {
  const id = (kind: string, i: number) => `${kind}-${round}-${i}-`.padEnd(256, 'x');
  return [
    ...Array.from({ length: count }, (_, i) => ({
      status: 'waiting',
      _id: id('rec', i),
      refId: id('ref', i),
      blockPassID: id('bp', i),
      waitingDate: new Date(BASE + (round * count + i) * 60_000).toISOString(),
    })),
    ...[50_000, 200_000, 500_000].map((size, i) => ({ status: 'waiting', _id: `${round}-${i}`.padEnd(size, 'y'), refId: `${round}-${i}` })),
  ];
}

async function attack(store: QueueIndexStore) {
  const upstream = await startListUpstream(hostileRead(0, 150));
  const metrics = createMetrics();
  const maxEntries = 100;
  const app = await startTestApp({
    environments: [
      { ...testEnvironment({ baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' }), queueIndexMax: maxEntries },
    ],
    access: gateway(),
    queueIndex: store,
    metrics,
  });
  for (let round = 0; round < 4; round++) {
    upstream.state.records = hostileRead(round, 150);
    await app.crawl();
    const size = await store.size('default');
    expect(size.entries).toBeLessThanOrEqual(maxEntries);
    expect(size.bytes).toBeLessThanOrEqual(maxEntries * 512);
  }
  const page = pageOf(await app.get('/api/applicants?status=waiting&counts=1', SUPPORT));
  // The 50–500 kB ids were never indexed: each record is kept by its refId, the `_id` named and left out.
  expect(page.skipped).toBeUndefined();
  const huge = await store.find(
    'default',
    [0, 1, 2].map((i) => `recordId:${`3-${i}`.padEnd([50_000, 200_000, 500_000][i]!, 'y')}`),
  );
  expect(huge.size).toBe(0);
  expect(page.total).toBeLessThanOrEqual(maxEntries);
  const evicted = (await metrics.queueIndexEvictions.get()).values.find((value) => value.labels.environment === 'default')?.value ?? 0;
  expect(evicted).toBeGreaterThan(0);
  expect((await metrics.queueIndexBytes.get()).values[0]?.value).toBeLessThanOrEqual(maxEntries * 512);
  const lines = app.logs.map((line) => JSON.parse(line) as { event?: string; msg: string; evicted?: number });
  const said = lines.filter((line) => line.event === 'queue_index_evicted');
  expect(said.length).toBeGreaterThan(0);
  expect(said[0]!.msg).toMatch(/reached its bound \(100 candidates, 51200 bytes\)/);
  // Never an id in the log.
  expect(app.logs.join('\n')).not.toContain('rec-0-0-');
  await app.close();
  await upstream.close();
}

describe('the queue index’s bound (issue 31, finding 2)', () => {
  it('attack: list records with ids of 50–500 kB, and new ids of 256 characters on every read, cannot grow the index in memory past its bound in entries or bytes (a metric and a log line when it evicts)', async () => {
    await attack(createMemoryQueueIndexStore());
  }, 120_000);

  it('evicts the oldest decisions first, then other statuses, and the longest waits last', async () => {
    const store = createMemoryQueueIndexStore();
    const evictions: number[] = [];
    const index = createQueueIndex(store, {
      bound: () => ({ maxEntries: 10, maxBytes: 1_000_000 }),
      watch: { evicted: (_environment, count) => evictions.push(count) },
    });
    const learn = (status: string, id: string, hours: number) =>
      index.learnRecord('e', { status, recordId: id, since: BASE - hours * HOUR });
    for (let i = 0; i < 5; i++) await learn('approved', `a${i}`, 100 + i);
    for (let i = 0; i < 8; i++) await learn('waiting', `w${i}`, i);
    const view = await readView(store, 'e', {
      query: { status: 'waiting', skip: 0, limit: 50, counts: true },
      slaHours: 48,
      now: BASE,
      compliance: false,
    });
    if (!view.ok) throw new Error(view.failure.message);
    // 13 past a bound of 10: evicted to 9, the three oldest approvals first, then the fourth and fifth.
    expect(view.data.counts).toMatchObject({ waiting: 8, approved: 1 });
    expect(view.data.records.map((r) => r.recordId)).toEqual(['w7', 'w6', 'w5', 'w4', 'w3', 'w2', 'w1', 'w0']);
    expect(evictions.reduce((a, b) => a + b, 0)).toBe(4);
  });

  it('a write of 100 000 entries at once, in memory, is one call that neither overflows nor loses one', async () => {
    const store = createMemoryQueueIndexStore();
    await writeMany(store);
  }, 120_000);

  describe.skipIf(!hasRedisServer)(hasRedisServer ? 'in Redis (a real redis-server)' : NO_REDIS_MESSAGE, () => {
    let redis: RunningRedis;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(() => redis.stop());

    it('attack: list records with ids of 50–500 kB, and new ids of 256 characters on every read, cannot grow the index in Redis past its bound in entries or bytes', async () => {
      const store = createRedisQueueIndexStore(redis.url, 'attack:');
      await attack(store);
      await store.close();
    }, 120_000);

    it('a write of 100 000 entries at once, in Redis, goes in bounded chunks: no stack overflow (HSET with every field did), none lost', async () => {
      const store = createRedisQueueIndexStore(redis.url, 'many:');
      await writeMany(store);
      await store.close();
    }, 120_000);
  });
});

/** 100 000 waiting candidates learnt from one list read, then the tab's first page and count. */
async function writeMany(store: QueueIndexStore) {
  const count = 100_000;
  const index = createQueueIndex(store);
  // Listed newest first: the page must still be the oldest.
  const records = Array.from({ length: count }, (_, i) => ({
    status: 'waiting',
    recordId: `r${String(count - i).padStart(6, '0')}`,
    since: new Date(BASE + (count - i) * 1000).toISOString(),
  }));
  const learnt = await index.learnListed('many', records, { listedAt: BASE + count * 1000, position: 0 });
  expect(learnt.filter((one) => one && !one.due)).toHaveLength(count);
  const view = await readView(store, 'many', {
    query: { status: 'waiting', skip: 0, limit: 3 },
    slaHours: 48,
    now: BASE + count * 1000,
    compliance: false,
  });
  if (!view.ok) throw new Error(view.failure.message);
  expect(view.data.total).toBe(count);
  expect(view.data.records.map((r) => r.recordId)).toEqual(['r000001', 'r000002', 'r000003']);
  expect(await store.size('many')).toMatchObject({ entries: count });
}
