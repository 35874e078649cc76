import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { APPLICANT_FILTERS } from '../../src/kyc/contract/applicants.ts';
import { createAuditLog, type ListAuditEntry } from '../../src/server/audit/audit.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { queueCandidates } from '../../src/server/sandbox/queue-candidates.ts';
import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../../src/server/sandbox/sandbox.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp } from './http.ts';
import { gateway, pageOf, SUPPORT } from './queue-fixture.ts';
import { startListUpstream } from './list-upstream.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-queue-view-'));
const now = new Date();
const records = [...(await sampleCandidates({ now })), ...(await queueCandidates(now))].map((c) => c.record);
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ candidates: [...(await sampleCandidates({ now })), ...(await queueCandidates(now))] });
});
afterAll(() => sandbox.close());

const readAudit = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ListAuditEntry);
const countOf = (status: string | undefined) => records.filter((r) => status === undefined || r.status === status).length;

/** A fake service answering each filter's list with the given status (or a total of records of that status), lookups 404. */
async function fakeService(answers: Record<string, number | { total: number }>) {
  const upstream = await startFakeUpstream();
  upstream.behave = (req, res) => {
    const filter = new URL(req.url!, 'http://x').pathname.split('/applicants')[1]?.replace(/^\//, '') || 'all';
    const answer = answers[filter] ?? { total: 0 };
    const status = typeof answer === 'number' ? answer : 200;
    const total = typeof answer === 'number' ? 0 : answer.total;
    const list = Array.from({ length: Math.min(total, 100) }, (_, i) => ({
      status: filter,
      refId: `${filter}-${i}`,
      [`${filter}Date`]: now.toISOString(),
    }));
    const text = JSON.stringify(status === 200 ? { status: 'success', data: { records: list, total } } : {});
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key', statusApiKey: 's' },
    access: gateway(),
  });
  const close = async () => {
    await app.close();
    await upstream.close();
  };
  return { upstream, app, close };
}

describe('a queue view is read from the index (issue 32)', () => {
  it('attack: one queue view cost 10–17 requests to the service and a lookup token (issue 31, finding 8): now none, and a bucket of its own', async () => {
    const upstream = await startListUpstream(
      records.map((r) => ({ status: r.status, _id: r.recordId, refId: r.refId, [`${r.status}Date`]: r[`${r.status}Date`] })),
      () => undefined,
    );
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
      access: gateway(),
      settings: {
        limits: {
          lookupsPerMinute: 1,
          queueViewsPerMinute: 12,
        },
      },
    });
    await app.crawl();
    const asked = upstream.seen.length;
    expect(asked).toBeGreaterThan(0);
    // Twelve whole views, every tab's count each, as a reviewer's page asks them.
    for (let view = 0; view < 12; view++) {
      const data = pageOf(await app.get(`/api/applicants?status=waiting&skip=0&limit=50&counts=1`, SUPPORT));
      expect(data.total).toBe(countOf('waiting'));
    }
    expect(upstream.seen.length).toBe(asked);
    // The views took no lookup token: the user's one lookup a minute is still there.
    expect((await app.get(`/api/candidates/recordId/${records[0]!.recordId}`, SUPPORT)).status).not.toBe(429);
    // Their own bucket: the thirteenth view is refused, saying why.
    const refused = await app.get('/api/applicants?status=waiting', SUPPORT);
    expect(refused.status).toBe(429);
    expect(apiErrorBodySchema.parse(JSON.parse(refused.body)).error).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/opened the queue/),
    });
    await app.close();
    await upstream.close();
  });

  it('a whole view is one audit line, with every tab’s count, the SLA, and how current the index is', async () => {
    const auditFile = path.join(dir, 'audit-view.jsonl');
    const app = await startTestApp({
      upstream: { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full, statusApiKey: SANDBOX_KEYS.status },
      access: gateway(),
      audit: createAuditLog(auditFile),
    });
    await app.crawl();
    const data = pageOf(await app.get('/api/applicants?status=waiting&skip=0&limit=50&counts=1', SUPPORT));
    expect(data.total).toBe(countOf('waiting'));
    expect(data.counts).toEqual(
      Object.fromEntries([['all', countOf(undefined)], ...APPLICANT_FILTERS.map((filter) => [filter, countOf(filter)])]),
    );
    expect(data.refused).toEqual([]);
    expect(data.slaHours).toBe(48);
    expect(Object.keys(data.overSlaByTab ?? {}).sort()).toEqual(['inreview', 'review_requested', 'waiting']);
    expect(data.overSlaByTab?.waiting).toBe(data.overSla);
    expect(data.index).toMatchObject({ dated: countOf('waiting'), of: countOf('waiting') });
    expect(Date.parse(data.index!.asOf!)).toBeGreaterThan(now.getTime() - 60_000);
    // Support users get no triage counts.
    expect(data.attentionByTab).toBeUndefined();
    await app.close();
    const lists = readAudit(auditFile).filter((line) => line.kind === 'list' && line.user === 'sam');
    expect(lists).toHaveLength(1);
    expect(lists[0]).toMatchObject({
      filter: 'waiting',
      skip: 0,
      limit: 50,
      counts: true,
      status: 200,
      upstreamStatus: null,
      level: null,
      records: 50,
    });
  });

  it('without counts=1 the answer is the page alone, and counts, overSla and attention take only 1 or 0', async () => {
    const { app, close } = await fakeService({ all: { total: 1 } });
    const plain = pageOf(await app.get('/api/applicants?skip=0&limit=50', SUPPORT));
    expect(plain.counts).toBeUndefined();
    for (const [name, pattern] of [
      ['counts', /counts must be 1/],
      ['overSla', /overSla must be 1/],
      ['attention', /attention must be 1/],
    ] as const) {
      const bad = await app.get(`/api/applicants?status=waiting&${name}=yes`, SUPPORT);
      expect(bad.status).toBe(400);
      expect(apiErrorBodySchema.parse(JSON.parse(bad.body)).error.message).toMatch(pattern);
    }
    const approved = await app.get('/api/applicants?status=approved&overSla=1', SUPPORT);
    expect(apiErrorBodySchema.parse(JSON.parse(approved.body)).error.message).toMatch(/needs the status of a queue with an SLA/);
    const attention = await app.get('/api/applicants?status=waiting&attention=1', SUPPORT);
    expect(attention.status).toBe(400);
    expect(apiErrorBodySchema.parse(JSON.parse(attention.body)).error.message).toMatch(/for compliance users/);
    await close();
  });

  it('a tab whose first read failed is "unavailable" in the counts, and the page is answered all the same', async () => {
    const { app, close } = await fakeService({ waiting: { total: 5 }, approved: 500, inreview: { total: 2 } });
    await app.crawl();
    const view = pageOf(await app.get('/api/applicants?status=waiting&counts=1', SUPPORT));
    expect(view.total).toBe(5);
    expect(view.counts).toMatchObject({ all: 7, waiting: 5, inreview: 2, approved: 'unavailable' });
    // A documented filter's failure is not a refusal.
    expect(view.refused).toEqual([]);
    // The tab itself: its failure, as the service's error would have been told.
    const res = await app.get('/api/applicants?status=approved', SUPPORT);
    expect(res.status).toBe(502);
    expect(apiErrorBodySchema.parse(JSON.parse(res.body)).error.code).toBe('upstream_error');
    // All says how current it is, and what failed.
    expect(pageOf(await app.get('/api/applicants', SUPPORT)).index).toMatchObject({
      crawling: true,
      error: { message: expect.any(String) },
    });
    await close();
  });

  it('a status the service never dates (incomplete) is not counted among the rows whose dates are still to be looked up', async () => {
    const upstream = await startListUpstream(
      [
        { status: 'incomplete', _id: 'a'.repeat(24), refId: 'inc-1' },
        // Should the service ever date one, it still is no row of "known" (the review found "1 of 1 known" beside an undated row).
        { status: 'incomplete', _id: 'b'.repeat(24), refId: 'inc-2', incompleteDate: now.toISOString() },
        { status: 'waiting', _id: 'c'.repeat(24), refId: 'wait-1', waitingDate: now.toISOString() },
        { status: 'waiting', _id: 'd'.repeat(24), refId: 'wait-2' },
      ],
      () => undefined,
    );
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
      access: gateway(),
    });
    await app.crawl();
    const all = pageOf(await app.get('/api/applicants', SUPPORT));
    expect(all.total).toBe(4);
    // Before, "2 of 4 known … while their dates are looked up", for ever: the incomplete rows have no date to come.
    expect(all.order).toMatchObject({ by: 'age', known: 1, of: 2 });
    // How many stand beside them, for the page to say so ("1 of 2 dated" beside 4 rows read as a miscount).
    expect(all.index).toMatchObject({ dated: 1, of: 2, undated: 2 });
    const incomplete = pageOf(await app.get('/api/applicants?status=incomplete', SUPPORT));
    expect(incomplete.total).toBe(2);
    expect(incomplete.order).toMatchObject({ known: 0, of: 0 });
    expect(incomplete.index).toMatchObject({ dated: 0, of: 0, undated: 2 });
    expect(pageOf(await app.get('/api/applicants?status=waiting', SUPPORT)).index?.undated).toBeUndefined();
    await app.close();
    await upstream.close();
  });
});
