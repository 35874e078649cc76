import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { APPLICANT_FILTERS, applicantsPageSchema, type ApplicantsPage } from '../../src/kyc/contract/applicants.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { createAuditLog, type ListAuditEntry } from '../../src/server/audit/audit.ts';
import { createRateLimiter } from '../../src/server/ops/rate-limit.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { queueCandidates } from '../../src/server/sandbox/queue-candidates.ts';
import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../../src/server/sandbox/sandbox.ts';
import { createMemoryStore } from '../../src/server/state/store.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { type RawResponse, startTestApp } from './http.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-queue-view-'));
const now = new Date();
const records = [...(await sampleCandidates({ now })), ...(await queueCandidates(now))].map((c) => c.record);
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ candidates: [...(await sampleCandidates({ now })), ...(await queueCandidates(now))] });
});
afterAll(() => sandbox.close());

const gateway = () => createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] });
const SUPPORT = { 'x-user': 'sam', 'x-role': 'support' };
const viewOf = (res: RawResponse): ApplicantsPage => {
  expect(res.status, res.body).toBe(200);
  return applicantsPageSchema.parse(JSON.parse(res.body)).data;
};
const readAudit = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ListAuditEntry);
const countOf = (status: string | undefined) => records.filter((r) => status === undefined || r.status === status).length;

/**
 * A fake service: each filter's answer (a status, or records), the rest an empty list. `load.most`: the
 * most requests it held at once (each answered on a later turn of the event loop, so that they can overlap).
 */
async function fakeService(answers: Record<string, number | { total: number }>, options: { maxInFlightPerUser?: number } = {}) {
  const upstream = await startFakeUpstream();
  const load = { now: 0, most: 0 };
  upstream.behave = (req, res) => {
    load.now += 1;
    load.most = Math.max(load.most, load.now);
    const filter = new URL(req.url!, 'http://x').pathname.split('/applicants')[1]?.replace(/^\//, '') || 'all';
    const answer = answers[filter] ?? { total: 0 };
    const status = typeof answer === 'number' ? answer : 200;
    const records =
      typeof answer === 'number' ? [] : Array.from({ length: Math.min(answer.total, 1) }, () => ({ status: 'x', isArchived: false }));
    const text = JSON.stringify(status === 200 ? { status: 'success', data: { records, total: (answer as { total: number }).total } } : {});
    setImmediate(() => {
      load.now -= 1;
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  };
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key' },
    access: gateway(),
    ...(options.maxInFlightPerUser ? { maxInFlightPerUser: options.maxInFlightPerUser } : {}),
  });
  const close = async () => {
    await app.close();
    await upstream.close();
  };
  return { upstream, app, load, close };
}

describe('the queue view in one request (counts=1)', () => {
  it('a queue view costs one request, one rate-limit token and one audit line, with every tab’s count', async () => {
    const auditFile = path.join(dir, 'audit-view.jsonl');
    const views = 3;
    const app = await startTestApp({
      upstream: { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full, statusApiKey: SANDBOX_KEYS.status },
      access: gateway(),
      audit: createAuditLog(auditFile),
      rateLimiter: createRateLimiter(createMemoryStore(), 'lookups', views),
    });
    // With lookupsPerMinute = 3, three whole views are served, each with every tab's count.
    for (let view = 0; view < views; view++) {
      const data = viewOf(await app.get('/api/applicants?status=waiting&skip=0&limit=50&counts=1', SUPPORT));
      expect(data.total).toBe(countOf('waiting'));
      expect(data.counts).toEqual(
        Object.fromEntries([['all', countOf(undefined)], ...APPLICANT_FILTERS.map((filter) => [filter, countOf(filter)])]),
      );
      expect(data.refused).toEqual([]);
      expect(data.slaHours).toBe(48);
      // Each tab ordered by age says how many of it are over the SLA; the page's own as its overSla.
      expect(Object.keys(data.overSlaByTab ?? {}).sort()).toEqual(['inreview', 'review_requested', 'waiting']);
      expect(data.overSlaByTab?.waiting).toBe(data.overSla);
    }
    const fourth = await app.get('/api/applicants?status=waiting&skip=0&limit=50&counts=1', SUPPORT);
    expect(fourth.status).toBe(429);
    expect(apiErrorBodySchema.parse(JSON.parse(fourth.body)).error.code).toBe('rate_limited');
    await app.close();

    const lists = readAudit(auditFile).filter((line) => line.kind === 'list');
    expect(lists).toHaveLength(views + 1);
    for (const line of lists.slice(0, views)) {
      expect(line).toMatchObject({ user: 'sam', filter: 'waiting', skip: 0, limit: 50, counts: true, status: 200, level: 'status' });
    }
    expect(lists[views]).toMatchObject({ status: 429, code: 'rate_limited' });
  });

  it('without counts=1 the answer is the page alone, and counts takes only 1 or 0', async () => {
    const { app, upstream, close } = await fakeService({ all: { total: 1 } });
    const plain = viewOf(await app.get('/api/applicants?skip=0&limit=50', SUPPORT));
    expect(plain.counts).toBeUndefined();
    expect(upstream.seen).toHaveLength(1);
    const bad = await app.get('/api/applicants?counts=yes', SUPPORT);
    expect(bad.status).toBe(400);
    expect(apiErrorBodySchema.parse(JSON.parse(bad.body)).error.message).toMatch(/counts must be 1/);
    await close();
  });

  it('the filters the service refuses (400, 404) are listed as refused, and the tab opened at one still has the others’ counts', async () => {
    const { app, close } = await fakeService({ all: { total: 9 }, waiting: { total: 3 }, review_requested: 400, incomplete: 404 });
    const all = viewOf(await app.get('/api/applicants?counts=1', SUPPORT));
    expect(all.refused).toEqual(['review_requested', 'incomplete']);
    expect(all.counts).toMatchObject({ all: 9, waiting: 3, approved: 0, review_requested: 'unavailable', incomplete: 'unavailable' });
    const opened = viewOf(await app.get('/api/applicants?status=incomplete&counts=1', SUPPORT));
    expect(opened).toMatchObject({ records: [], total: 0, refused: ['review_requested', 'incomplete'] });
    expect(opened.counts).toMatchObject({ all: 9, waiting: 3, incomplete: 'unavailable' });
    // Without the counts, the refused filter is still the 404 it was.
    const alone = await app.get('/api/applicants?status=incomplete', SUPPORT);
    expect(alone.status).toBe(404);
    expect(apiErrorBodySchema.parse(JSON.parse(alone.body)).error.code).toBe('applicants_unavailable');
    await close();
  });

  it('one tab whose count fails is "unavailable", and the page is answered all the same', async () => {
    const { app, close } = await fakeService({ all: { total: 5 }, approved: 500, inreview: { total: 2 } });
    const view = viewOf(await app.get('/api/applicants?counts=1', SUPPORT));
    expect(view.total).toBe(5);
    expect(view.counts).toMatchObject({ all: 5, inreview: 2, approved: 'unavailable' });
    // A documented filter's failure is not a refusal.
    expect(view.refused).toEqual([]);
    await close();
  });

  it('the view’s counts keep to the user’s upstream slots: with one slot, one request to the service at a time, every count answered', async () => {
    const { app, upstream, load, close } = await fakeService(
      { all: { total: 1 }, waiting: { total: 1 }, approved: { total: 1 } },
      { maxInFlightPerUser: 1 },
    );
    const view = viewOf(await app.get('/api/applicants?counts=1', SUPPORT));
    expect(view.counts).toMatchObject({ all: 1, waiting: 1, approved: 1, inreview: 0, rejected: 0 });
    expect(upstream.seen).toHaveLength(8);
    expect(load.most).toBe(1);
    await close();
  });

  it('a page that fails is the failure it was, whatever the counts', async () => {
    const { app, close } = await fakeService({ all: 500, waiting: { total: 1 } });
    const res = await app.get('/api/applicants?counts=1', SUPPORT);
    expect(res.status).toBe(502);
    expect(apiErrorBodySchema.parse(JSON.parse(res.body)).error.code).toBe('upstream_error');
    await close();
  });
});
