import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { applicantsPageSchema, type ApplicantsPage } from '../../src/kyc/contract/applicants.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import type { ApiEnvironment } from '../../src/server/api-environments.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { type AuditEntry, createAuditLog } from '../../src/server/audit/audit.ts';
import { createQueueFiller } from '../../src/server/lookup/queue-filler.ts';
import { createMetrics, type Metrics } from '../../src/server/ops/metrics.ts';
import { QUEUE_INDEX_USER } from '../../src/server/lookup/queue-lookup.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { queueCandidates } from '../../src/server/sandbox/queue-candidates.ts';
import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../../src/server/sandbox/sandbox.ts';
import { createQueueIndex } from '../../src/server/state/queue-index.ts';
import { createMemoryQueueIndexStore, createRedisQueueIndexStore, type QueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { createMemoryStore } from '../../src/server/state/store.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { type RawResponse, startTestApp, testEnvironment } from './http.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, type RunningRedis, startRedis } from './redis-fixture.ts';
import { deliver, deliveryBody, WEBHOOK_SECRET } from './webhook-fixture.ts';

/** The dates are learnt in the background: waited for, on a machine that may be busy. */
const POLL = { timeout: 30_000, interval: 50 };
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

const gateway = () => createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] });
const SUPPORT = { 'x-user': 'sam', 'x-role': 'support' };
const pageOf = (res: RawResponse): ApplicantsPage => {
  expect(res.status, res.body).toBe(200);
  return applicantsPageSchema.parse(JSON.parse(res.body)).data;
};
const sandboxEnvironment = (extra: Partial<ApiEnvironment> = {}): ApiEnvironment => ({
  ...testEnvironment({ baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full, statusApiKey: SANDBOX_KEYS.status }),
  ...extra,
});
/** The app on the sandbox; `perSecond` lookups fill the index (none: the list and webhooks only). */
function queueApp(options: {
  store?: QueueIndexStore;
  perSecond?: number;
  auditFile?: string;
  environment?: Partial<ApiEnvironment>;
  metrics?: Metrics;
}) {
  return startTestApp({
    environments: [sandboxEnvironment(options.environment)],
    access: gateway(),
    queueIndex: options.store ?? createMemoryQueueIndexStore(),
    queueLookups: options.perSecond
      ? createMemoryStore().counter({ name: 'queue-index-lookups', limit: options.perSecond, windowSeconds: 1 })
      : null,
    queueFillIntervalMs: 20,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.auditFile ? { audit: createAuditLog(options.auditFile) } : {}),
  });
}
type Getter = { get: (path: string, headers?: Record<string, string>) => Promise<RawResponse> };
/** A whole tab, page by page, as the browser asks it. */
async function wholeTab(app: Getter, status: string, size: number) {
  const first = pageOf(await app.get(`/api/applicants?status=${status}&skip=0&limit=${size}`, SUPPORT));
  const rows = [...first.records];
  for (let skip = size; skip < first.total; skip += size) {
    rows.push(...pageOf(await app.get(`/api/applicants?status=${status}&skip=${skip}&limit=${size}`, SUPPORT)).records);
  }
  return { first, rows };
}
/** The whole Waiting tab, page by page. */
const waitingTab = (app: Getter, size = 50) => wholeTab(app, 'waiting', size);
const oldestFirst = (list: CandidateRecord[], field = 'waitingDate') =>
  [...list].sort((a, b) => Date.parse(String(a[field])) - Date.parse(String(b[field]))).map((r) => r.recordId);

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
    // Every later step came after the submission.
    for (const record of queue) {
      for (const field of ['inreviewDate', 'approvedDate', 'rejectedDate', 'blockedDate', 'reviewRequestedDate']) {
        if (record[field]) expect(Date.parse(String(record[field]))).toBeGreaterThan(Date.parse(String(record.waitingDate)));
      }
    }
    // Each status a tab offers has candidates.
    for (const status of ['waiting', 'inreview', 'review_requested', 'approved', 'rejected', 'blocked']) {
      expect(
        queue.some((r) => r.status === status),
        status,
      ).toBe(true);
    }
  });
});

describe('the queue index, filled from the list', () => {
  it('learns each listed status at once; without dates the tab says 0 known and keeps the service order', async () => {
    const store = createMemoryQueueIndexStore();
    const app = await queueApp({ store });
    const { first, rows } = await waitingTab(app);
    expect(first.order).toEqual({ by: 'age', known: 0, of: waiting.length });
    expect(rows.map((r) => r.recordId)).toEqual(waiting.map((r) => r.recordId));
    expect(rows.every((r) => r.since === undefined)).toBe(true);
    // Under both its keys: a later list that gives only its refId finds it too.
    const keys = [`recordId:${waiting[0]!.recordId!}`, `refId:${waiting[0]!.refId!}`];
    const known = await store.read('default', keys);
    for (const key of keys) expect(known.get(key)).toEqual({ status: 'waiting', dates: {} });
    await app.close();
  });
});

describe('the queue index, filled from status-level lookups', () => {
  it('looks each date up at status level, audited as list work, then orders the tab oldest first across pages', async () => {
    const auditFile = path.join(dir, 'lookups.jsonl');
    const metrics = createMetrics();
    const app = await queueApp({ perSecond: 1000, auditFile, metrics });
    await waitingTab(app);
    await expect
      .poll(async () => (await waitingTab(app)).first.order, POLL)
      .toEqual({ by: 'age', known: waiting.length, of: waiting.length });
    const { rows } = await waitingTab(app);
    expect(rows.map((r) => r.recordId)).toEqual(oldestFirst(waiting));
    // The service's order is not the queue's: ordering changed something.
    expect(oldestFirst(waiting)).not.toEqual(waiting.map((r) => r.recordId));
    for (const row of rows) expect(row.since).toBe(waiting.find((r) => r.recordId === row.recordId)!.waitingDate);
    const lines = readFileSync(auditFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditEntry)
      .filter((line) => line.queueIndex);
    expect(lines.map((line) => line.id).sort()).toEqual(waiting.map((r) => r.recordId).sort());
    for (const line of lines) expect(line).toMatchObject({ user: QUEUE_INDEX_USER, kind: 'recordId', level: 'status', status: 200 });
    // Counted apart from the users' lookups.
    expect((await metrics.queueIndexLookups.get()).values).toEqual([{ labels: { code: 'ok' }, value: waiting.length }]);
    expect((await metrics.lookups.get()).values).toEqual([]);
    await app.close();
  });

  it.each([
    ['inreview', 'inreviewDate', 5],
    ['review_requested', 'reviewRequestedDate', 3],
  ])('orders the %s tab by its own date (%s), oldest first across pages of %i', async (status, field, size) => {
    const listed = records.filter((r) => r.status === status);
    expect(listed.length).toBeGreaterThan(size);
    const app = await queueApp({ perSecond: 1000 });
    await wholeTab(app, status, size);
    await expect
      .poll(async () => (await wholeTab(app, status, size)).first.order, POLL)
      .toEqual({ by: 'age', known: listed.length, of: listed.length });
    const { rows } = await wholeTab(app, status, size);
    expect(rows.map((r) => r.recordId)).toEqual(oldestFirst(listed, field));
    expect(oldestFirst(listed, field)).not.toEqual(listed.map((r) => r.recordId));
    for (const row of rows) expect(row.since).toBe(listed.find((r) => r.recordId === row.recordId)![field]);
    await app.close();
  });

  it('takes at most queueIndexLookupsPerSecond lookups in a second, the rest waiting for later rounds', async () => {
    const looked: string[] = [];
    const counter = createMemoryStore().counter({ name: 'queue-index-lookups', limit: 3, windowSeconds: 1 });
    const filler = createQueueFiller({
      environment: 'default',
      index: createQueueIndex(createMemoryQueueIndexStore()),
      lookup: async (id) => {
        looked.push(id);
        return { status: 'waiting', dates: { waitingDate: now.toISOString() } };
      },
      counter,
      maxPending: 1000,
      intervalMs: 60_000,
    });
    filler.want(Array.from({ length: 10 }, (_, i) => `recordId:id-${i}` as const));
    expect(await filler.drain()).toBe(3);
    expect(await filler.drain()).toBe(0);
    expect(looked).toEqual(['recordId:id-0', 'recordId:id-1', 'recordId:id-2']);
    expect(filler.pending()).toBe(7);
    filler.close();
  });

  it('looks nothing up when the operator sets 0 lookups a second', async () => {
    const filler = createQueueFiller({
      environment: 'default',
      index: createQueueIndex(createMemoryQueueIndexStore()),
      lookup: async () => {
        throw new Error('no lookup expected');
      },
      counter: undefined,
      maxPending: 1000,
    });
    filler.want(['recordId:a', 'refId:b']);
    expect(filler.pending()).toBe(0);
    expect(await filler.drain()).toBe(0);
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
    await expect.poll(since, POLL).toBe(last.waitingDate);
    expect((await waitingTab(app)).first.order).toEqual({ by: 'age', known: 1, of: waiting.length });
    const other = waiting[0]!;
    const marker = deliveryBody({ clientId: sandbox.clientId, status: 'waiting', event: 'user.readyToReview', recordId: other.recordId });
    expect((await deliver(app.port, marker)).status).toBe(200);
    await expect.poll(async () => (await waitingTab(app)).first.order, POLL).toEqual({ by: 'age', known: 2, of: waiting.length });
    expect(await since()).toBe(last.waitingDate);
    await app.close();
  });
});

describe('the queue tabs: SLA, the bound, refused filters', () => {
  it('counts the rows over the SLA (48 hours by default) over the whole tab, and none without an SLA', async () => {
    const app = await queueApp({ perSecond: 1000 });
    await waitingTab(app);
    await expect.poll(async () => (await waitingTab(app)).first.order, POLL).toMatchObject({ known: waiting.length });
    const over = waiting.filter((r) => Date.now() - Date.parse(String(r.waitingDate)) > 48 * 3_600_000).length;
    expect(over).toBeGreaterThan(0);
    const { first } = await waitingTab(app);
    expect(first).toMatchObject({ slaHours: 48, overSla: over });
    // Every date known: the count is the whole tab's, not a floor.
    expect(first.overSlaPartial).toBeUndefined();
    await app.close();
    const noSla = await queueApp({ environment: { queueSlaHours: 0 } });
    const page = pageOf(await noSla.get('/api/applicants?status=waiting', SUPPORT));
    expect(page.slaHours).toBeUndefined();
    expect(page.overSla).toBeUndefined();
    await noSla.close();
  });

  it.each([
    ['ordered by age', {}, { by: 'age', known: 4, of: waiting.length }],
    ['above queueIndexMax', { queueIndexMax: 10 }, { by: 'service', over: 10 }],
  ])('%s, while some dates are unknown, counts the known ones over the SLA as a floor (overSlaPartial)', async (_, environment, order) => {
    const store = createMemoryQueueIndexStore();
    const facts = (hours: number) => ({ status: 'waiting', dates: { waitingDate: new Date(Date.now() - hours * HOUR_MS).toISOString() } });
    // Three known over 48 hours (one of them beyond the page asked), one known within it.
    const known: Array<[string, number]> = [
      [waiting[0]!.recordId!, 100],
      [waiting[1]!.recordId!, 60],
      [waiting[52]!.recordId!, 49],
      [waiting[2]!.recordId!, 3],
    ];
    await store.write('default', new Map(known.map(([id, hours]) => [`recordId:${id}`, facts(hours)])));
    const app = await queueApp({ store, environment });
    const page = pageOf(await app.get('/api/applicants?status=waiting&skip=0&limit=50', SUPPORT));
    expect(page.order).toEqual(order);
    expect(page).toMatchObject({ slaHours: 48, overSla: 3, overSlaPartial: true });
    await app.close();
  });

  it('above queueIndexMax, answers the service order and says so', async () => {
    const app = await queueApp({ environment: { queueIndexMax: 10 } });
    const page = pageOf(await app.get('/api/applicants?status=waiting&skip=0&limit=50', SUPPORT));
    expect(page.order).toEqual({ by: 'service', over: 10 });
    expect(page.records.map((r) => r.recordId)).toEqual(waiting.slice(0, 50).map((r) => r.recordId));
    await app.close();
  });

  it('a filter the service answers 400 or 404 is not offered; the documented ones still say the list is missing', async () => {
    const upstream = await startFakeUpstream();
    upstream.behave = (req, res) => {
      const status = req.url?.includes('/applicants/review_requested') ? 400 : 404;
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': 2 });
      res.end('{}');
    };
    const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key' }, access: gateway() });
    for (const filter of ['review_requested', 'incomplete']) {
      const res = await app.get(`/api/applicants?status=${filter}`, SUPPORT);
      expect(res.status).toBe(404);
      const error = apiErrorBodySchema.parse(JSON.parse(res.body)).error;
      expect(error.code).toBe('applicants_unavailable');
      expect(error.message).toContain(`"${filter}" filter`);
    }
    // rejected and blocked are documented now (the current documentation lists them): the list is missing, not the filter.
    for (const filter of ['approved', 'rejected', 'blocked']) {
      const documented = apiErrorBodySchema.parse(JSON.parse((await app.get(`/api/applicants?status=${filter}`, SUPPORT)).body)).error;
      expect(documented.message).toBe('This KYC service does not offer the applicants list.');
    }
    await app.close();
    await upstream.close();
  });
});

describe('the queue index stores', () => {
  it('in memory: what is written is read back per environment, and the oldest entries go past the bound', async () => {
    const store = createMemoryQueueIndexStore(2);
    await store.write('a', new Map([['x', { status: 'waiting', dates: { waitingDate: '2026-01-01T00:00:00.000Z' } }]]));
    await store.write('a', new Map([['y', { status: 'inreview', dates: {} }]]));
    expect((await store.read('b', ['x'])).size).toBe(0);
    expect((await store.read('a', ['x', 'y'])).get('x')?.dates.waitingDate).toBe('2026-01-01T00:00:00.000Z');
    await store.write('a', new Map([['z', { status: 'waiting', dates: {} }]]));
    expect([...(await store.read('a', ['x', 'y', 'z'])).keys()]).toEqual(['y', 'z']);
  });

  it('with Redis unreachable, a tab still answers, in the service’s order, within the command timeout', async () => {
    const store = createRedisQueueIndexStore('redis://127.0.0.1:1');
    const app = await queueApp({ store });
    const page = pageOf(await app.get('/api/applicants?status=waiting&skip=0&limit=50', SUPPORT));
    expect(page.order).toEqual({ by: 'age', known: 0, of: waiting.length });
    expect(page.records.map((r) => r.recordId)).toEqual(waiting.slice(0, 50).map((r) => r.recordId));
    await app.close();
    await store.close();
  });

  describe.skipIf(!hasRedisServer)(hasRedisServer ? 'in Redis (a real redis-server)' : NO_REDIS_MESSAGE, () => {
    let redis: RunningRedis;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(() => redis.stop());

    it('is shared: a date one instance looked up orders the other instance’s tab too', async () => {
      const stores = [createRedisQueueIndexStore(redis.url), createRedisQueueIndexStore(redis.url)];
      const first = await queueApp({ store: stores[0], perSecond: 1000 });
      await waitingTab(first);
      await expect.poll(async () => (await waitingTab(first)).first.order, POLL).toMatchObject({ known: waiting.length });
      await first.close();
      const second = await queueApp({ store: stores[1] });
      const { first: page, rows } = await waitingTab(second);
      expect(page.order).toEqual({ by: 'age', known: waiting.length, of: waiting.length });
      expect(rows.map((r) => r.recordId)).toEqual(oldestFirst(waiting));
      await second.close();
      for (const store of stores) await store.close();
    });

    it('reads back what it wrote, and ignores a field that is not facts', async () => {
      const store = createRedisQueueIndexStore(redis.url, 'test-prefix:');
      await store.write('env', new Map([['ok', { status: 'waiting', dates: { waitingDate: '2026-01-01T00:00:00.000Z' } }]]));
      const { Redis } = await import('ioredis');
      const raw = new Redis(redis.url);
      await raw.hset('test-prefix:queue-index:v2:env', 'broken', 'not json');
      raw.disconnect();
      const read = await store.read('env', ['ok', 'broken', 'missing']);
      expect([...read.keys()]).toEqual(['ok']);
      await store.close();
    });
  });
});
