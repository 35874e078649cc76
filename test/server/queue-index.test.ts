import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { APPLICANT_FILTERS, statusDateField } from '../../src/kyc/contract/applicants.ts';
import type { ApiEnvironment } from '../../src/server/lookup/served-environment.ts';
import { type AuditEntry, createAuditLog, type ListAuditEntry } from '../../src/server/audit/audit.ts';
import { CrawlPool, RETRY } from '../../src/server/lookup/crawler-pool.ts';
import { QUEUE_INDEX_USER } from '../../src/server/lookup/queue-lookup.ts';
import { createMetrics, type Metrics } from '../../src/server/ops/metrics.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { queueCandidates } from '../../src/server/sandbox/queue-candidates.ts';
import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../../src/server/sandbox/sandbox.ts';
import { createQueueIndex } from '../../src/server/state/queue-index.ts';
import { createRedisQueueIndexStore } from '../../src/server/state/queue-index-redis.ts';
import { createMemoryQueueIndexStore, type QueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp, testEnvironment } from './http.ts';
import { virtualClock } from './clock.ts';
import { gateway, oldestFirst, pageOf, SUPPORT, wholeTab } from './queue-fixture.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, type RunningRedis, startRedis } from './redis-fixture.ts';
import { deliver, deliveryBody, WEBHOOK_SECRET } from './webhook-fixture.ts';

const HOUR_MS = 3_600_000;
const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-queue-index-'));
const now = new Date();
const candidates = [...(await sampleCandidates({ now })), ...(await queueCandidates(now))];
const records = candidates.map((c) => c.record);
const waiting = records.filter((r) => r.status === 'waiting');
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ candidates });
});
afterAll(() => sandbox.close());

const sandboxEnvironment = (extra: Partial<ApiEnvironment> = {}): ApiEnvironment => ({
  ...testEnvironment({ baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full, statusApiKey: SANDBOX_KEYS.status }),
  ...extra,
});
/** The app on the sandbox; its crawler reads the service when the test calls `crawl()`. */
function queueApp(options: {
  store?: QueueIndexStore;
  rate?: number;
  auditFile?: string;
  environment?: Partial<ApiEnvironment>;
  metrics?: Metrics;
}) {
  return startTestApp({
    environments: [sandboxEnvironment(options.environment)],
    access: gateway(),
    queueIndex: options.store ?? createMemoryQueueIndexStore(),
    ...(options.rate === undefined ? {} : { settings: { limits: { queueIndexLookupsPerSecond: options.rate } } }),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.auditFile ? { audit: createAuditLog(options.auditFile) } : {}),
  });
}
const readAudit = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as AuditEntry | ListAuditEntry);

describe("the sandbox's queue candidates", () => {
  it('wait distinct, realistic times spread over days, some beyond the default SLA of 48 hours', async () => {
    const queue = (await queueCandidates(now)).map((c) => c.record);
    const waited = queue.map((r) => (now.getTime() - Date.parse(String(r.waitingDate))) / HOUR_MS);
    expect(new Set(waited).size).toBe(queue.length);
    expect(Math.min(...waited)).toBeLessThan(2);
    expect(Math.max(...waited)).toBeGreaterThan(72);
    const over = waited.filter((hours) => hours > 48).length;
    expect(over).toBeGreaterThan(queue.length / 5);
    expect(over).toBeLessThan(queue.length / 2);
    for (const record of queue) {
      for (const field of ['inreviewDate', 'approvedDate', 'rejectedDate', 'blockedDate', 'reviewRequestedDate']) {
        if (record[field]) expect(Date.parse(String(record[field]))).toBeGreaterThan(Date.parse(String(record.waitingDate)));
      }
    }
    for (const status of ['waiting', 'inreview', 'review_requested', 'approved', 'rejected', 'blocked']) {
      expect(
        queue.some((r) => r.status === status),
        status,
      ).toBe(true);
    }
  });
});

describe('the queue index, before the crawler has read the service', () => {
  it('answers the tab as still being read, empty, without asking the service anything', async () => {
    const upstream = await startFakeUpstream();
    const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' }, access: gateway() });
    const page = pageOf(await app.get('/api/applicants?status=waiting&counts=1', SUPPORT));
    expect(page).toMatchObject({ records: [], total: 0, order: { by: 'age', known: 0, of: 0 } });
    expect(page.index).toMatchObject({ crawling: true, dated: 0, of: 0 });
    expect(page.overSlaPartial).toBe(true);
    expect(upstream.seen).toEqual([]);
    await app.close();
    await upstream.close();
  });
});

describe('the crawler (the older list: no dates)', () => {
  it('reads every tab (audited as list work), looks each date up at status level, then orders every tab by age across pages', async () => {
    const auditFile = path.join(dir, 'crawl.jsonl');
    const metrics = createMetrics();
    const app = await queueApp({ auditFile, metrics });
    await app.crawl();
    const { first, rows } = await waitingTab(app);
    expect(first.order).toEqual({ by: 'age', known: waiting.length, of: waiting.length });
    expect(first.index).toMatchObject({ dated: waiting.length, of: waiting.length });
    expect(first.index?.crawling).toBeUndefined();
    expect(Date.parse(first.index!.asOf!)).toBeLessThanOrEqual(Date.parse(first.index!.at));
    expect(rows.map((r) => r.recordId)).toEqual(oldestFirst(waiting));
    // The service's order is not the queue's: ordering changed something.
    expect(oldestFirst(waiting)).not.toEqual(waiting.map((r) => r.recordId));
    for (const row of rows) expect(row.since).toBe(waiting.find((r) => r.recordId === row.recordId)!.waitingDate);
    await app.close();
    const lines = readAudit(auditFile);
    const lookups = lines.filter((line): line is AuditEntry => line.queueIndex === true && line.kind !== 'list');
    // Every candidate of every tab once, by recordId.
    expect(lookups.map((line) => line.id).sort()).toEqual(records.map((r) => r.recordId).sort());
    for (const line of lookups) expect(line).toMatchObject({ user: QUEUE_INDEX_USER, kind: 'recordId', level: 'status', status: 200 });
    const pages = lines.filter((line): line is ListAuditEntry => line.kind === 'list' && line.user === QUEUE_INDEX_USER);
    // One page of each of the seven tabs (none holds more than 100), and the first of the unfiltered list, which holds no more.
    expect(pages.map((line) => line.filter).sort()).toEqual([...APPLICANT_FILTERS, 'all'].sort());
    for (const line of pages) expect(line).toMatchObject({ user: QUEUE_INDEX_USER, queueIndex: true, limit: 100, status: 200 });
    // The views of the test: their own lines, users' and not the crawler's.
    expect(lines.filter((line) => line.kind === 'list' && line.user === 'sam').length).toBeGreaterThan(0);
    expect((await metrics.queueIndexLookups.get()).values).toEqual([{ labels: { code: 'ok' }, value: records.length }]);
    expect((await metrics.lookups.get()).values).toEqual([]);
  });

  it.each([
    ['inreview', 'inreviewDate', 5],
    ['review_requested', 'reviewRequestedDate', 3],
  ])('orders the %s tab by its own date (%s), oldest first across pages of %i', async (status, field, size) => {
    const listed = records.filter((r) => r.status === status);
    expect(listed.length).toBeGreaterThan(size);
    const app = await queueApp({});
    await app.crawl();
    const { first, rows } = await wholeTab(app, status, size);
    expect(first.order).toEqual({ by: 'age', known: listed.length, of: listed.length });
    expect(rows.map((r) => r.recordId)).toEqual(oldestFirst(listed, field));
    expect(oldestFirst(listed, field)).not.toEqual(listed.map((r) => r.recordId));
    for (const row of rows) expect(row.since).toBe(listed.find((r) => r.recordId === row.recordId)![field]);
    await app.close();
  });

  it('orders the tabs of decisions newest first, and All tab by tab in the tabs’ order', async () => {
    const app = await queueApp({});
    await app.crawl();
    const approved = records.filter((r) => r.status === 'approved');
    const { first, rows } = await wholeTab(app, 'approved');
    expect(first.order).toMatchObject({ by: 'age', newestFirst: true });
    expect(rows.map((r) => r.recordId)).toEqual(oldestFirst(approved, 'approvedDate').reverse());
    const all = await wholeTab(app, '', 50);
    // A record without the date of its status stays undated after its lookup too.
    const dated = records.filter((r) => typeof r[statusDateField(r.status)] === 'string').length;
    expect(dated).toBeGreaterThan(records.length - 3);
    // Incomplete, which the service never dates, is not among the rows whose dates are to come (queue-view.ts).
    const datable = records.filter((r) => r.status !== 'incomplete').length;
    expect(datable).toBeLessThan(records.length);
    expect(all.first.order).toMatchObject({ by: 'age', byStatus: true, known: dated, of: datable });
    const statuses = all.rows.map((r) => r.status);
    const firstOf = (status: string) => statuses.indexOf(status);
    expect(firstOf('waiting')).toBe(0);
    expect(firstOf('waiting')).toBeLessThan(firstOf('inreview'));
    expect(firstOf('inreview')).toBeLessThan(firstOf('approved'));
    expect(all.rows.slice(0, waiting.length).map((r) => r.recordId)).toEqual(oldestFirst(waiting));
    await app.close();
  });

  it('asks nothing when the operator sets 0 requests a second: no crawler', async () => {
    const upstream = await startFakeUpstream();
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' },
      access: gateway(),
      settings: {
        limits: {
          queueIndexLookupsPerSecond: 0,
        },
      },
    });
    await app.crawl();
    expect(pageOf(await app.get('/api/applicants?status=waiting', SUPPORT)).index).toMatchObject({ crawling: true });
    expect(upstream.seen).toEqual([]);
    await app.close();
    await upstream.close();
  });
});

describe("the crawler's pace", () => {
  it('starts at most perSecond requests a second, evenly, and none while the service asked to wait', async () => {
    const clock = virtualClock(0);
    let pausedUntil = 0;
    const stop = new AbortController();
    // One at a time: a virtual clock's sleeps, taken side by side, would each move it.
    const pool = new CrawlPool({ perSecond: 4, concurrency: 1, clock, pausedUntil: () => pausedUntil, signal: stop.signal });
    const started: number[] = [];
    let told = false;
    const job = async () => {
      started.push(clock.now());
      // The third request is told to wait 30 s.
      if (started.length === 3 && !told) {
        told = true;
        pausedUntil = clock.now() + 30_000;
        return RETRY;
      }
      return started.length;
    };
    await Promise.all(Array.from({ length: 6 }, () => pool.run('lookup', job)));
    expect(started).toHaveLength(7);
    // Even turns of 250 ms before the wait; nothing during it; then again.
    expect(started.slice(0, 3)).toEqual([0, 250, 500]);
    for (const at of started.slice(3)) expect(at).toBeGreaterThanOrEqual(30_500);
    for (let i = 4; i < started.length; i++) expect(started[i]! - started[i - 1]!).toBeGreaterThanOrEqual(250);
    stop.abort();
  });
});

describe('the queue index, filled from webhook deliveries', () => {
  it('learns what the service’s record says of a delivery’s candidate, never the dates the delivery carries (issue 31)', async () => {
    const app = await queueApp({ environment: { webhookSecret: WEBHOOK_SECRET } });
    const last = waiting.at(-1)!;
    const claimed = new Date(Date.now() - 30 * 24 * 3_600_000).toISOString();
    const body = deliveryBody({
      clientId: sandbox.clientId,
      event: 'user.readyToReview',
      status: 'waiting',
      recordId: last.recordId,
      refId: last.refId,
      waitingDate: claimed,
    });
    expect((await deliver(app.port, body)).status).toBe(200);
    // The sandbox's own waitingDate, looked up by the receiver: not the 30 days the delivery claimed.
    const since = async () => (await waitingTab(app)).rows.find((r) => r.recordId === last.recordId)?.since;
    await expect.poll(since).toBe(last.waitingDate);
    expect((await waitingTab(app)).first.order).toEqual({ by: 'age', known: 1, of: 1 });
    await app.close();
  });
});

const waitingTab = (app: Parameters<typeof wholeTab>[0]) => wholeTab(app, 'waiting');

describe('the queue tabs: SLA, refused filters', () => {
  it('counts the rows over the SLA (48 hours by default) over the whole tab, and none without an SLA', async () => {
    const app = await queueApp({});
    await app.crawl();
    const over = waiting.filter((r) => Date.now() - Date.parse(String(r.waitingDate)) > 48 * 3_600_000).length;
    expect(over).toBeGreaterThan(0);
    const { first } = await waitingTab(app);
    expect(first).toMatchObject({ slaHours: 48, overSla: over });
    // Every date known: the count is the whole tab's, not a floor.
    expect(first.overSlaPartial).toBeUndefined();
    // Only those over it, when asked: the oldest first.
    const only = pageOf(await app.get('/api/applicants?status=waiting&overSla=1&limit=100', SUPPORT));
    expect(only).toMatchObject({ total: over, only: ['overSla'] });
    expect(only.records.map((r) => r.recordId)).toEqual(oldestFirst(waiting).slice(0, over));
    await app.close();
    const noSla = await queueApp({ environment: { queueSlaHours: 0 } });
    const page = pageOf(await noSla.get('/api/applicants?status=waiting', SUPPORT));
    expect(page.slaHours).toBeUndefined();
    expect(page.overSla).toBeUndefined();
    const refused = await noSla.get('/api/applicants?status=waiting&overSla=1', SUPPORT);
    expect(refused.status).toBe(400);
    expect(apiErrorBodySchema.parse(JSON.parse(refused.body)).error.message).toMatch(/has none/);
    await noSla.close();
  });

  it('while some dates are unknown, counts the known ones over the SLA as a floor (overSlaPartial), the undated after the dated', async () => {
    const store = createMemoryQueueIndexStore();
    const index = createQueueIndex(store);
    const listed = waiting.map((r) => ({ status: 'waiting', recordId: r.recordId! }));
    await index.learnListed('default', listed, { listedAt: Date.now(), position: 0 });
    const known: Array<[string, number]> = [
      [waiting[0]!.recordId!, 100],
      [waiting[1]!.recordId!, 60],
      [waiting[52]!.recordId!, 49],
      [waiting[2]!.recordId!, 3],
    ];
    for (const [recordId, hours] of known)
      await index.learnRecord('default', { recordId, status: 'waiting', since: Date.now() - hours * HOUR_MS });
    const app = await queueApp({ store });
    const page = pageOf(await app.get('/api/applicants?status=waiting&skip=0&limit=50', SUPPORT));
    expect(page.order).toEqual({ by: 'age', known: 4, of: waiting.length });
    expect(page).toMatchObject({ slaHours: 48, overSla: 3, overSlaPartial: true });
    expect(page.records.slice(0, 5).map((r) => r.recordId)).toEqual([...known.map(([id]) => id), waiting[3]!.recordId]);
    await app.close();
  });

  it('a filter the service answers 400 or 404 is not offered; a documented one refused means the list itself is missing', async () => {
    const upstream = await startFakeUpstream();
    upstream.behave = (req, res) => {
      const refuse = req.url?.includes('/applicants/review_requested') ? 400 : req.url?.includes('/applicants/incomplete') ? 404 : 0;
      const text = refuse ? '{}' : JSON.stringify({ status: 'success', data: { records: [], total: 0 } });
      res.writeHead(refuse || 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key', statusApiKey: 's' },
      access: gateway(),
    });
    await app.crawl();
    for (const filter of ['review_requested', 'incomplete']) {
      const res = await app.get(`/api/applicants?status=${filter}`, SUPPORT);
      expect(res.status).toBe(404);
      const error = apiErrorBodySchema.parse(JSON.parse(res.body)).error;
      expect(error.code).toBe('applicants_unavailable');
      expect(error.message).toContain(`"${filter}" filter`);
    }
    expect(pageOf(await app.get('/api/applicants?counts=1', SUPPORT)).refused).toEqual(['review_requested', 'incomplete']);
    // With a filter refused, the service's whole list is read too: its candidates are under All.
    expect(upstream.seen.some((request) => /\/applicants\?/.test(request.path))).toBe(true);
    await app.close();
    // A service without the operation at all: the list is missing, whatever the tab.
    upstream.behave = (_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json', 'content-length': 2 });
      res.end('{}');
    };
    const none = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key', statusApiKey: 's' },
      access: gateway(),
    });
    await none.crawl();
    for (const filter of ['approved', 'rejected', 'blocked', '']) {
      const documented = apiErrorBodySchema.parse(JSON.parse((await none.get(`/api/applicants?status=${filter}`, SUPPORT)).body)).error;
      expect(documented).toMatchObject({ code: 'applicants_unavailable', message: 'This KYC service does not offer the applicants list.' });
    }
    await none.close();
    await upstream.close();
  });
});

describe('the queue index stores', () => {
  it('with Redis unreachable, a view says the shared store is unavailable (503), never a wrong page', async () => {
    const store = createRedisQueueIndexStore('redis://127.0.0.1:1');
    const app = await queueApp({ store });
    const res = await app.get('/api/applicants?status=waiting&skip=0&limit=50', SUPPORT);
    expect(res.status).toBe(503);
    expect(apiErrorBodySchema.parse(JSON.parse(res.body)).error.code).toBe('store_unavailable');
    await app.close();
    await store.close();
  });

  describe.skipIf(!hasRedisServer)(hasRedisServer ? 'in Redis (a real redis-server)' : NO_REDIS_MESSAGE, () => {
    let redis: RunningRedis;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(() => redis.stop());

    it('is shared: what one instance’s crawler learnt orders the other instance’s tab too', async () => {
      const stores = [createRedisQueueIndexStore(redis.url), createRedisQueueIndexStore(redis.url)];
      const first = await queueApp({ store: stores[0] });
      await first.crawl();
      await first.close();
      const second = await queueApp({ store: stores[1] });
      const { first: page, rows } = await waitingTab(second);
      expect(page.order).toEqual({ by: 'age', known: waiting.length, of: waiting.length });
      expect(rows.map((r) => r.recordId)).toEqual(oldestFirst(waiting));
      await second.close();
      for (const store of stores) await store.close();
    });

    it('reads back what it wrote, and ignores an entry that is not one', async () => {
      const store = createRedisQueueIndexStore(redis.url, 'test-prefix:');
      const index = createQueueIndex(store);
      await index.learnRecord('env', { recordId: 'ok', status: 'waiting', since: Date.parse('2026-01-01T00:00:00.000Z') });
      const { Redis } = await import('ioredis');
      const raw = new Redis(redis.url);
      await raw.hset('test-prefix:q3:{env}:e', 'recordId:broken', 'not json');
      raw.disconnect();
      const found = await store.find('env', ['recordId:ok', 'recordId:broken', 'recordId:missing']);
      expect([...found.keys()]).toEqual(['recordId:ok']);
      expect(found.get('recordId:ok')?.entry).toEqual({ recordId: 'ok', status: 'waiting', since: Date.parse('2026-01-01T00:00:00.000Z') });
      await store.close();
    });
  });
});
