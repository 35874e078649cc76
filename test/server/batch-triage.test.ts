import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchEventSchema } from '../../src/kyc/contract/batch.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../../src/server/sandbox/sandbox.ts';
import { createQueueIndex } from '../../src/server/state/queue-index.ts';
import { createMemoryQueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { ndjson, requestWithBody, startTestApp, type TestApp } from './http.ts';
import { COMPLIANCE, gateway, SUPPORT } from './queue-fixture.ts';

/**
 * A compliance reviewer's batch (the batch is status level for every role: a full lookup per row would
 * read many candidates' personal data in bulk) shows, for each found row, what the queue index already
 * knows of the candidate for triage, as the queue shows it them: the certificates' worst outcome and
 * whether it has pictures, as of when the index learnt them, or that it knows nothing yet. No request of
 * its own reaches the service; a support user's rows never carry it.
 */

const LEAD = { 'x-user': 'lena', 'x-role': 'lead' };
let sandbox: RunningSandbox;
let app: TestApp;
const store = createMemoryQueueIndexStore();
beforeAll(async () => {
  sandbox = await startSandbox({ candidates: await sampleCandidates({ now: new Date() }) });
  app = await startTestApp({
    upstream: { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full, statusApiKey: SANDBOX_KEYS.status },
    access: gateway(),
    queueIndex: store,
  });
});
afterAll(async () => {
  await app.close();
  await sandbox.close();
});

const batch = async (ids: string[], who: Record<string, string>) => {
  const res = await requestWithBody(app.port, '/api/batch', JSON.stringify({ kind: 'refId', ids }), { headers: who });
  expect(res.status, res.body).toBe(200);
  const rows = ndjson(res.body).map((event) => batchEventSchema.parse(event));
  return new Map(rows.flatMap((row) => (row.type === 'row' && row.ok ? [[ids[row.index]!, row] as const] : [])));
};

const learnt = async (refId: string) => (await store.find('default', [`refId:${refId}`])).get(`refId:${refId}`)?.entry;

describe("a compliance user's batch shows the queue index's triage", () => {
  it('each found row says the certificate word and pictures as of when the index learnt them, or that nothing is known yet', async () => {
    const before = Date.now();
    for (const refId of ['user-7781', 'crm-55102', 'a3b6c9d2-1e4f-4a7b-8c0d-9e2f5a8b1c4d']) {
      expect((await app.get(`/api/candidates/refId/${refId}`, COMPLIANCE)).status).toBe(200);
    }
    await expect.poll(() => learnt('a3b6c9d2-1e4f-4a7b-8c0d-9e2f5a8b1c4d')).toMatchObject({ certificate: 'unreadable' });
    await expect.poll(() => learnt('user-7781')).toMatchObject({ certificate: 'potential_match' });
    await expect.poll(() => learnt('crm-55102')).toMatchObject({ pictures: false });
    const after = Date.now();

    const ids = ['user-7781', 'crm-55102', 'a3b6c9d2-1e4f-4a7b-8c0d-9e2f5a8b1c4d', 'cust_000482'];
    for (const who of [COMPLIANCE, LEAD]) {
      const rows = await batch(ids, who);
      expect(rows.get('user-7781')?.triage).toMatchObject({ known: true, certificate: 'potential_match', pictures: true });
      expect(rows.get('a3b6c9d2-1e4f-4a7b-8c0d-9e2f5a8b1c4d')?.triage).toMatchObject({ known: true, certificate: 'unreadable' });
      // Looked up, no certificate, identities without a picture: known, and said so.
      expect(rows.get('crm-55102')?.triage).toMatchObject({ known: true, pictures: false });
      expect(rows.get('crm-55102')?.triage).not.toHaveProperty('certificate');
      // Never opened by a compliance user: the index knows nothing of its certificates.
      expect(rows.get('cust_000482')?.triage).toEqual({ known: false });
      // As of when the index learnt it: during the lookups above.
      const asOf = Date.parse(rows.get('user-7781')!.triage!.asOf!);
      expect(asOf).toBeGreaterThanOrEqual(before);
      expect(asOf).toBeLessThanOrEqual(after);
    }
  });

  it('is read from the index, not asked of the service: what the index holds is what the row says, with its time', async () => {
    const status = (await batch(['cust_000482'], COMPLIANCE)).get('cust_000482')!.status;
    // The service's certificate of cust_000482 is a clear one; the index is told otherwise, at a known time.
    const at = Date.parse('2026-03-04T05:06:07.000Z');
    await createQueueIndex(store).learnRecord('default', {
      refId: 'cust_000482',
      status,
      certificate: 'consider',
      pictures: true,
      triageAt: at,
    });
    const rows = await batch(['cust_000482'], LEAD);
    expect(rows.get('cust_000482')?.triage).toEqual({
      known: true,
      certificate: 'consider',
      pictures: true,
      asOf: '2026-03-04T05:06:07.000Z',
    });
  });

  it("a support user's rows carry no certificate outcome and no pictures, as their queue shows none", async () => {
    expect((await app.get('/api/candidates/refId/user-7781', COMPLIANCE)).status).toBe(200);
    await expect.poll(() => learnt('user-7781')).toMatchObject({ certificate: 'potential_match' });
    const res = await requestWithBody(app.port, '/api/batch', JSON.stringify({ kind: 'refId', ids: ['user-7781', 'crm-55102'] }), {
      headers: SUPPORT,
    });
    expect(res.status).toBe(200);
    expect(res.body).not.toMatch(/triage|potential_match|pictures/);
    const rows = await batch(['user-7781'], SUPPORT);
    expect(rows.get('user-7781')).toMatchObject({ ok: true, refId: 'user-7781' });
  });
});
