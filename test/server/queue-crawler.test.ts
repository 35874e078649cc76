import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisQueueIndexStore } from '../../src/server/state/queue-index-redis.ts';
import { createMemoryQueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { virtualClock } from './clock.ts';
import { startTestApp, type TestApp, testEnvironment } from './http.ts';
import { startListUpstream } from './list-upstream.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { COMPLIANCE, gateway, pageOf, SUPPORT, wholeTab } from './queue-fixture.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, type RunningRedis, startRedis } from './redis-fixture.ts';
import { errorOf } from './service-app.ts';

/**
 * Issue 32: one crawler per environment across every instance walks the service's lists and looks up the
 * dates the older list does not carry; each instance kept its own list of ids before, and two instances
 * made 137 lookups for 70 distinct ids.
 */

const BASE = Date.parse('2026-05-01T00:00:00.000Z');
const HOUR = 3_600_000;

/** `count` waiting candidates as the older notes list them (no dates), and their records for a lookup. */
function older(count: number, from = 0) {
  return Array.from({ length: count }, (_, i) => {
    const n = from + i;
    const recordId = `rec-${String(n).padStart(4, '0')}`;
    // Not in the list's order: 37 and 1000 share no factor.
    const waitingDate = new Date(BASE - ((n * 37) % 1000) * 60_000).toISOString();
    return {
      listed: { status: 'waiting', _id: recordId, refId: `ref-${n}` },
      record: { status: 'waiting', recordId, refId: `ref-${n}`, isArchived: false, waitingDate },
    };
  });
}

function listService(candidates: ReturnType<typeof older>) {
  const records = new Map(candidates.map((c) => [c.record.recordId, c.record]));
  return startListUpstream(
    candidates.map((c) => c.listed),
    (kind, id) => (kind === 'recordId' ? records.get(id) : undefined),
  );
}

/** The service's requests by what they asked: lookups by id, list pages by filter and skip. */
function asked(seen: ReadonlyArray<{ path: string }>) {
  const lookups = seen.filter((r) => r.path.includes('/recordId/')).map((r) => decodeURIComponent(r.path.split('/').pop()!));
  const pages = seen.filter((r) => r.path.includes('/applicants')).map((r) => r.path.split('/connect/c/')[1]!);
  return { lookups, pages };
}

const duplicates = (values: readonly string[]) => values.filter((value, i) => values.indexOf(value) !== i);

describe.skipIf(!hasRedisServer)(hasRedisServer ? 'the crawler across instances (a real redis-server)' : NO_REDIS_MESSAGE, () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.stop());

  it('two instances crawl without duplicates: every date looked up once, every page of the list read once', async () => {
    const candidates = older(450);
    const upstream = await listService(candidates);
    const stores = [createRedisQueueIndexStore(redis.url, 'twice:'), createRedisQueueIndexStore(redis.url, 'twice:')];
    const apps: TestApp[] = [];
    for (const store of stores) {
      apps.push(
        await startTestApp({
          upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
          access: gateway(),
          queueIndex: store,
          // Started with the server, as in production; one whole read in this test.
          queueCrawl: { intervalMs: 3_600_000, leaseMs: 1500 },
          settings: {
            limits: {
              queueIndexLookupsPerSecond: 500,
            },
          },
        }),
      );
    }
    for (const app of apps) {
      await expect
        .poll(async () => pageOf(await app.get('/api/applicants?status=waiting', SUPPORT)).index?.dated, { timeout: 30_000, interval: 100 })
        .toBe(450);
    }
    const { lookups, pages } = asked(upstream.seen);
    expect(duplicates(lookups)).toEqual([]);
    expect(lookups.sort()).toEqual(candidates.map((c) => c.record.recordId).sort());
    expect(duplicates(pages)).toEqual([]);
    expect(pages).toContain('applicants/waiting?skip=400&limit=100');
    // Both instances see the one order.
    const [one, two] = [await wholeTab(apps[0]!, 'waiting'), await wholeTab(apps[1]!, 'waiting')];
    expect(one.rows.map((r) => r.recordId)).toEqual(two.rows.map((r) => r.recordId));
    expect(one.rows.map((r) => r.since)).toEqual([...one.rows.map((r) => r.since)].sort());
    for (const app of apps) await app.close();
    for (const store of stores) await store.close();
    await upstream.close();
  });

  it('the lease passes on: when the instance that crawls stops, the other reads what came since', async () => {
    const upstream = await listService(older(30));
    const stores = [createRedisQueueIndexStore(redis.url, 'lease:'), createRedisQueueIndexStore(redis.url, 'lease:')];
    const start = (store: (typeof stores)[number]) =>
      startTestApp({
        upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
        access: gateway(),
        queueIndex: store,
        queueCrawl: { intervalMs: 300, leaseMs: 900 },
        settings: {
          limits: {
            queueIndexLookupsPerSecond: 500,
          },
        },
      });
    const first = await start(stores[0]!);
    await expect.poll(async () => pageOf(await first.get('/api/applicants?status=waiting', SUPPORT)).total, { timeout: 30_000 }).toBe(30);
    const second = await start(stores[1]!);
    // The first holds the lease: it stops (releasing it), and the list grows meanwhile.
    await first.close();
    const more = older(10, 30);
    const records = new Map(more.map((c) => [c.record.recordId, c.record]));
    upstream.state.records = [...upstream.state.records, ...more.map((c) => c.listed)];
    const known = upstream.state.records.length;
    expect(known).toBe(40);
    await expect.poll(async () => pageOf(await second.get('/api/applicants?status=waiting', SUPPORT)).total, { timeout: 30_000 }).toBe(40);
    expect(records.size).toBe(10);
    await second.close();
    for (const store of stores) await store.close();
    await upstream.close();
  });
});

describe('the crawler, in one instance', () => {
  it("waits out the service's 429 to a lookup (extra.retryAfter: 30): no lookup for 30 s, then every date is looked up", async () => {
    const candidates = older(6);
    const upstream = await listService(candidates);
    const clock = virtualClock();
    const times: number[] = [];
    let limited: number | undefined;
    const answer = upstream.behaveList;
    upstream.behave = (req, res) => {
      // The lookups' wait is theirs: the list's pages are not held by it (service-wait.ts).
      if (req.url!.includes('/recordId/')) times.push(clock.now());
      if (limited === undefined && req.url!.includes('/recordId/')) {
        limited = clock.now();
        const text = JSON.stringify({ status: 'error', code: 429, message: 'Too many requests', extra: { retryAfter: 30 } });
        res.writeHead(429, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        return res.end(text);
      }
      answer(req, res);
    };
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
      access: gateway(),
      pauseClock: clock,
      queueCrawl: { start: false, clock, concurrency: 1 },
    });
    await app.crawl();
    expect(limited).toBeDefined();
    const after = times.filter((at) => at > limited!);
    expect(after.length).toBeGreaterThan(0);
    for (const at of after) expect(at).toBeGreaterThanOrEqual(limited! + 30_000);
    expect(pageOf(await app.get('/api/applicants?status=waiting', SUPPORT)).index?.dated).toBe(6);
    await app.close();
    await upstream.close();
  });

  it('attack: a list page of two million empty records is refused for its records, not held (each was an object of the heap, four pages in flight)', async () => {
    const upstream = await startListUpstream([]);
    const hostile = Buffer.from(`{"status":"success","data":{"total":2000001,"records":[${'{},'.repeat(2_000_000)}{}]}}`);
    upstream.behave = (req, res) => {
      if (!req.url?.includes('/applicants')) return upstream.behaveList(req, res);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(hostile);
    };
    const audit = memoryAuditLog();
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
      access: gateway(),
      audit,
    });
    await app.crawl();
    const pages = audit.lines.filter((line) => line.kind === 'list');
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) expect(page).toMatchObject({ status: 502, code: 'upstream_error', records: null });
    // Said as what it is: too many records, not "more than 1 MiB in the fields the queue reads" (it has none).
    // The page says it; the log line only the code and status (it never quotes a failure: the service's words may name a candidate).
    const queue = await app.get('/api/applicants?status=waiting', SUPPORT);
    expect(errorOf(queue).message).toContain('holds more than 32,768 records (the crawler asks for 100 at a time)');
    expect(app.logs.join('\n')).toContain('upstream_error (HTTP 200)');
    await app.close();
    await upstream.close();
  });

  it('reads a service that serves fewer than 100 a page in steps of what it served', async () => {
    const candidates = older(130);
    const upstream = await listService(candidates);
    upstream.pageSize = 40;
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
      access: gateway(),
    });
    await app.crawl();
    expect(
      asked(upstream.seen)
        .pages.filter((page) => page.startsWith('applicants/waiting'))
        .sort(),
    ).toEqual(
      [
        'applicants/waiting?skip=0&limit=100',
        'applicants/waiting?skip=40&limit=100',
        'applicants/waiting?skip=80&limit=100',
        'applicants/waiting?skip=120&limit=100',
      ].sort(),
    );
    expect(pageOf(await app.get('/api/applicants?status=waiting', SUPPORT)).total).toBe(130);
    await app.close();
    await upstream.close();
  });

  it('after a whole read, looks up the candidates the list no longer shows: moved to their new tab, gone out of every tab', async () => {
    const candidates = older(5);
    const upstream = await listService(candidates);
    const records = new Map(candidates.map((c) => [c.record.recordId, c.record as Record<string, unknown>]));
    upstream.lookup = (kind, id) => (kind === 'recordId' ? records.get(id) : undefined);
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
      access: gateway(),
      queueIndex: createMemoryQueueIndexStore(),
    });
    await app.crawl();
    expect(pageOf(await app.get('/api/applicants?status=waiting', SUPPORT)).total).toBe(5);
    // No webhook said so: one went into review, one is gone from the service.
    records.set('rec-0001', { ...records.get('rec-0001'), status: 'inreview', inreviewDate: new Date(BASE + HOUR).toISOString() });
    records.delete('rec-0002');
    upstream.state.records = upstream.state.records.filter((r) => !['rec-0001', 'rec-0002'].includes(String((r as { _id: string })._id)));
    await app.crawl();
    const waiting = pageOf(await app.get('/api/applicants?status=waiting', SUPPORT));
    expect(waiting.records.map((r) => r.recordId).sort()).toEqual(['rec-0000', 'rec-0003', 'rec-0004']);
    const inreview = pageOf(await app.get('/api/applicants?status=inreview', SUPPORT));
    expect(inreview.records).toEqual([expect.objectContaining({ recordId: 'rec-0001', since: new Date(BASE + HOUR).toISOString() })]);
    expect(pageOf(await app.get('/api/applicants?counts=1', SUPPORT)).counts?.all).toBe(4);
    await app.close();
    await upstream.close();
  });

  it("a user's lookup tells the index the record's status and date, without a request of its own", async () => {
    const candidates = older(3);
    const upstream = await listService(candidates);
    const app = await startTestApp({
      environments: [testEnvironment({ baseUrl: upstream.url, clientId: 'c', apiKey: 'k' })],
      access: gateway(),
    });
    const record = candidates[1]!.record;
    expect((await app.get(`/api/candidates/recordId/${record.recordId}`, SUPPORT)).status).toBe(200);
    expect(upstream.seen).toHaveLength(1);
    await expect
      .poll(async () => pageOf(await app.get('/api/applicants?status=waiting', SUPPORT)).records)
      .toEqual([{ status: 'waiting', recordId: record.recordId, refId: record.refId, isArchived: false, since: record.waitingDate }]);
    expect(upstream.seen).toHaveLength(1);
    await app.close();
    await upstream.close();
  });
});

describe('the crawler and a key that archives after extract', () => {
  it('attack: with no status-level key, the crawler never sends the first full request of a key: one that archives after extract would delete every candidate it dates', async () => {
    const candidates = older(5);
    const upstream = await listService(candidates);
    const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key' }, access: gateway() });
    await app.crawl();
    const lookups = () => upstream.seen.filter((request) => request.path.includes('/recordId/'));
    // Neither a candidate nor the list (whole records, with that key: crawler-full-key.test.ts) is asked.
    expect(upstream.seen).toEqual([]);
    expect((await app.get('/api/applicants?status=waiting', SUPPORT)).status).toBe(503);
    // A user's full lookup shows the key keeps data (no willArchiveAtDate): the crawler may then use it.
    expect((await app.get(`/api/candidates/recordId/${candidates[0]!.record.recordId}`, COMPLIANCE)).status).toBe(200);
    await app.crawl();
    expect(lookups().length).toBeGreaterThan(1);
    expect(pageOf(await app.get('/api/applicants?status=waiting', SUPPORT)).index?.dated).toBe(5);
    await app.close();
    await upstream.close();
  });
});
