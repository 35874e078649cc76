import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../../src/server/sandbox/sandbox.ts';
import { createMemoryQueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { startTestApp, type TestApp } from './http.ts';
import { COMPLIANCE, gateway, LEAD, pageOf, SUPPORT } from './queue-fixture.ts';

/**
 * Issue 32: the queue's rows carry, for compliance users, what the index may hold of a record without
 * personal data, learnt from their own lookups at no cost: the worst outcome of its certificates as the
 * decision summary reads it, and whether it has pictures; and the queue filters on them.
 */

let candidates: Awaited<ReturnType<typeof sampleCandidates>>;
const byRef = (refId: string) => candidates.find((c) => c.record.refId === refId)!.record;
let sandbox: RunningSandbox;
let app: TestApp;
const store = createMemoryQueueIndexStore();
beforeAll(async () => {
  candidates = await sampleCandidates({ now: new Date() });
  sandbox = await startSandbox({ candidates });
  app = await startTestApp({
    upstream: { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full, statusApiKey: SANDBOX_KEYS.status },
    access: gateway(),
    queueIndex: store,
  });
  await app.crawl();
});
afterAll(async () => {
  await app.close();
  await sandbox.close();
});

const row = async (status: string, refId: string, who = COMPLIANCE) =>
  pageOf(await app.get(`/api/applicants?status=${status}&limit=100`, who)).records.find((r) => r.refId === refId);

describe('triage on the queue’s rows (issue 32)', () => {
  it("a compliance user's lookup tells the row its certificates' worst outcome and that it has pictures; support users never see them", async () => {
    const screened = byRef('user-7781');
    expect(await row(screened.status, 'user-7781')).not.toHaveProperty('certificate');
    // Plain JSON, as curl asks it; and in parts, as the page does.
    expect((await app.get('/api/candidates/refId/user-7781', COMPLIANCE)).status).toBe(200);
    const inParts = await app.get('/api/candidates/refId/a3b6c9d2-1e4f-4a7b-8c0d-9e2f5a8b1c4d', {
      ...COMPLIANCE,
      accept: 'multipart/mixed, application/json;q=0.9',
    });
    expect(inParts.status).toBe(200);
    expect((await app.get('/api/candidates/refId/crm-55102', COMPLIANCE)).status).toBe(200);
    // Onfido clear and ComplyAdvantage potential_match: the worst, as the decision summary says it.
    await expect.poll(() => row(screened.status, 'user-7781')).toMatchObject({ certificate: 'potential_match', pictures: true });
    // A certificate cut off before its result states none (the summary's chip says "unreadable"): a reviewer
    // must look at what this tool cannot read, so the row says so (it said nothing, as if no certificate).
    await expect
      .poll(() => row('rejected', 'a3b6c9d2-1e4f-4a7b-8c0d-9e2f5a8b1c4d'))
      .toMatchObject({ certificate: 'unreadable', pictures: true });
    // Identities without a picture, and no certificate.
    const incomplete = await row('incomplete', 'crm-55102');
    expect(incomplete).toMatchObject({ pictures: false });
    expect(incomplete).not.toHaveProperty('certificate');
    // Support users get the row without them.
    const support = await row(screened.status, 'user-7781', SUPPORT);
    expect(support).toBeDefined();
    expect(support).not.toHaveProperty('certificate');
    expect(support).not.toHaveProperty('pictures');
    // The index holds the outcome word and the flag, nothing of the certificate or the identities.
    const stored = (await store.find('default', ['refId:user-7781'])).get('refId:user-7781')!;
    expect(stored.json).not.toMatch(/ComplyAdvantage|Onfido|given|@context/);
  });

  it('attention=1 lists only the rows whose certificate needs a look, in the tab’s order, and the view counts them per tab', async () => {
    const status = byRef('user-7781').status;
    expect((await app.get('/api/candidates/refId/cust_000482', COMPLIANCE)).status).toBe(200);
    await expect.poll(() => row(byRef('cust_000482').status, 'cust_000482')).toMatchObject({ certificate: 'clear' });
    await expect.poll(() => row(status, 'user-7781')).toMatchObject({ certificate: 'potential_match' });
    const all = pageOf(await app.get('/api/applicants?attention=1&counts=1', COMPLIANCE));
    expect(all.only).toEqual(['attention']);
    // A clear certificate needs no look; a potential match does, and so does the unreadable one (first test).
    expect(all.records.map((r) => r.refId).sort()).toEqual(['a3b6c9d2-1e4f-4a7b-8c0d-9e2f5a8b1c4d', 'user-7781']);
    expect(all.total).toBe(2);
    expect(all.attentionByTab).toMatchObject({ all: 2, [status]: 1, rejected: 1, approved: 0 });
    expect(pageOf(await app.get(`/api/applicants?status=${status}&attention=1`, COMPLIANCE)).records.map((r) => r.refId)).toEqual([
      'user-7781',
    ]);
    expect(pageOf(await app.get('/api/applicants?status=rejected&attention=1', COMPLIANCE)).records.map((r) => r.refId)).toEqual([
      'a3b6c9d2-1e4f-4a7b-8c0d-9e2f5a8b1c4d',
    ]);
  });

  it("a lead's rows carry the triage and attention=1 answers them, as the batch gives leads the triage; a support user's is refused", async () => {
    const status = byRef('user-7781').status;
    expect((await app.get('/api/candidates/refId/user-7781', LEAD)).status).toBe(200);
    await expect.poll(() => row(status, 'user-7781', LEAD)).toMatchObject({ certificate: 'potential_match', pictures: true });
    const attention = pageOf(await app.get(`/api/applicants?status=${status}&attention=1&counts=1`, LEAD));
    expect(attention.records.map((r) => r.refId)).toEqual(['user-7781']);
    expect(attention.attentionByTab).toMatchObject({ [status]: 1 });
    expect((await app.get(`/api/applicants?status=${status}&attention=1`, SUPPORT)).status).toBe(400);
  });
});
