import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryQueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { startTestApp, testEnvironment } from './http.ts';
import { startListUpstream } from './list-upstream.ts';
import { gateway, pageOf, SUPPORT, wholeTab } from './queue-fixture.ts';

/**
 * A list that serves an empty page before its end, or a `total` lower than what it serves: the crawler
 * ended the list at the first empty page (10 of 30 waiting candidates missing, the tab read whole, no
 * error) and stopped at the total even when its last page came back full (10 of 30 missing again).
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const waiting = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    status: 'waiting',
    _id: `rec${i}`,
    refId: `ref-${i}`,
    waitingDate: '2026-01-01T00:00:00.000Z',
  }));

interface Lie {
  /** The largest page the service serves. */
  cap: number;
  /** What `total` says: the truth, a number, or nothing. */
  total: 'right' | 'missing' | number;
  /** The skip answered with no records, and how many times (Infinity: always). */
  emptyAt?: number;
  emptyTimes?: number;
}

/** The app on a service listing `count` waiting candidates, that lies as `lie` says; crawled once. */
async function crawledLying(count: number, lie: Lie) {
  const upstream = await startListUpstream(waiting(count));
  upstream.pageSize = lie.cap;
  let emptied = 0;
  upstream.behave = (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    // The waiting list and the unfiltered one (which holds the same candidates) lie alike; the other filters are empty.
    if (!/\/applicants(\/waiting)?$/.test(url.pathname)) return upstream.behaveList(req, res);
    const skip = Number(url.searchParams.get('skip') ?? 0);
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 20), lie.cap);
    const empty = skip === lie.emptyAt && emptied++ < (lie.emptyTimes ?? Number.POSITIVE_INFINITY);
    const records = empty ? [] : upstream.state.records.slice(skip, skip + limit);
    const total = lie.total === 'right' ? count : lie.total === 'missing' ? undefined : lie.total;
    const body = JSON.stringify({ status: 'success', data: { records, skip, limit, ...(total === undefined ? {} : { total }) } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const app = await startTestApp({
    environments: [testEnvironment({ baseUrl: upstream.url, clientId: 'client', apiKey: 'full-key', statusApiKey: 'status-key' })],
    access: gateway(),
    queueIndex: createMemoryQueueIndexStore(),
    settings: { limits: { queueIndexLookupsPerSecond: 1000 } },
  });
  cleanups.push(app.close, upstream.close);
  await app.crawl();
  // A tab none of whose candidates could be read answers its read's failure: that says it is not whole too.
  const opened = await app.get('/api/applicants?status=waiting&limit=100', SUPPORT);
  if (opened.status !== 200) return { failed: JSON.parse(opened.body).error.message as string, refs: [] as string[] };
  const { first, rows } = await wholeTab(app, 'waiting', 100);
  const tab = pageOf(await app.get('/api/applicants?status=waiting&counts=1', SUPPORT));
  return { index: first.index, refs: rows.map((row) => row.refId), count: tab.counts?.waiting };
}

const all = (count: number) => waiting(count).map((one) => one.refId);

describe('a list with an empty page before its end', () => {
  it('empty at skip 20 of 30 (total 30), twice: the tab is partial with an error, not a finished read of 20', async () => {
    const { index, refs } = await crawledLying(30, { cap: 20, total: 'right', emptyAt: 20 });
    expect(refs).toHaveLength(20);
    expect(index?.asOf).toBeUndefined();
    expect(index?.error?.message).toContain('empty page before its end');
  });

  it('empty at skip 20 with no total: the next row is asked, and the tab is partial, not read whole', async () => {
    const { index } = await crawledLying(30, { cap: 20, total: 'missing', emptyAt: 20 });
    expect(index?.asOf).toBeUndefined();
    expect(index?.error?.message).toContain('empty page before its end');
  });

  it('empty once: asked again, every candidate read and the tab read whole', async () => {
    const { index, refs } = await crawledLying(30, { cap: 20, total: 'right', emptyAt: 20, emptyTimes: 1 });
    expect(refs.sort()).toEqual(all(30).sort());
    expect(index?.asOf).toBeDefined();
    expect(index?.error).toBeUndefined();
  });
});

describe('a list whose total is lower than what it serves', () => {
  it('total 10 on a full page of 20 (30 listed): the pages past the total are read, all 30 in the tab', async () => {
    const { index, refs, count } = await crawledLying(30, { cap: 20, total: 10 });
    expect(refs.sort()).toEqual(all(30).sort());
    expect(count).toBe(30);
    expect(index?.asOf).toBeDefined();
  });

  it('total 200 with 250 listed, pages of 100: the full page that ends at the total has the next one read', async () => {
    const { refs } = await crawledLying(250, { cap: 100, total: 200 });
    expect(refs).toHaveLength(250);
  });
});

describe('property: whatever the page cap, the total said and one empty page, no finished read lacks candidates', () => {
  it('either every listed candidate is in the tab, or the tab says it is partial', async () => {
    const lie = fc
      .record({
        count: fc.integer({ min: 0, max: 130 }),
        cap: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constant(100)),
        total: fc.oneof(fc.constant('right' as const), fc.constant('missing' as const), fc.nat({ max: 129 })),
        emptyPage: fc.option(fc.nat({ max: 8 })),
        emptyTimes: fc.oneof(fc.constant(1), fc.constant(Number.POSITIVE_INFINITY)),
      })
      .map((one) => ({ ...one, total: typeof one.total === 'number' ? Math.min(one.total, Math.max(0, one.count - 1)) : one.total }));
    await fc.assert(
      fc.asyncProperty(lie, async ({ count, cap, total, emptyPage, emptyTimes }) => {
        const emptyAt = emptyPage === null ? undefined : emptyPage * cap;
        const firstServed = emptyAt === 0 ? 0 : Math.min(cap, count);
        // What no reading can tell from the list's end, without a request past every list's end:
        // a low total that is exactly the first page, a service's cap short of the 100 asked;
        fc.pre(!(typeof total === 'number' && total === firstServed && cap < 100));
        // an empty first page that says a total of 0; an empty page, for good, that holds the list's last record alone.
        fc.pre(!(emptyAt === 0 && total === 0));
        fc.pre(!(emptyTimes > 1 && emptyAt !== undefined && total !== 'right' && count === emptyAt + 1));
        const lying = { cap, total, ...(emptyAt === undefined ? {} : { emptyAt, emptyTimes }) };
        const { index, refs, failed } = await crawledLying(count, lying);
        const partial = failed !== undefined || index?.asOf === undefined || index.error !== undefined;
        const whole = all(count).every((ref) => refs.includes(ref));
        for (const cleanup of cleanups.splice(0)) await cleanup();
        expect(whole || partial, JSON.stringify({ count, lying, index, read: refs.length })).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});
