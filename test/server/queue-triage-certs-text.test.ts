import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxCandidate } from '../../src/server/sandbox/candidates.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../../src/server/sandbox/sandbox.ts';
import { createMemoryQueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { startTestApp, type TestApp } from './http.ts';
import { COMPLIANCE, gateway, pageOf } from './queue-fixture.ts';

/**
 * A record whose `certs` came as text holding the map's JSON: the page reads its certificates (map-text.ts),
 * and the queue's row, learnt from a compliance user's lookup, says their worst outcome too. It said
 * nothing, as for a record with no certificate, so a potential match stayed out of "needs attention".
 */

const REF = 'certs-as-text-7781';
let sandbox: RunningSandbox;
let app: TestApp;
let status: string;
beforeAll(async () => {
  const candidates = await sampleCandidates({ now: new Date() });
  // user-7781: Onfido clear and ComplyAdvantage potential_match, here sent as the map's JSON text.
  const screened = candidates.find((candidate) => candidate.record.refId === 'user-7781')!;
  status = screened.record.status;
  const asText: SandboxCandidate = {
    ...screened,
    listOnly: true,
    record: { ...screened.record, refId: REF, recordId: 'c0ffee00c0ffee00c0ffee02', certs: JSON.stringify(screened.record.certs) as never },
  };
  sandbox = await startSandbox({ candidates: [...candidates, asText] });
  app = await startTestApp({
    upstream: { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full, statusApiKey: SANDBOX_KEYS.status },
    access: gateway(),
    queueIndex: createMemoryQueueIndexStore(),
  });
  await app.crawl();
});
afterAll(async () => {
  await app.close();
  await sandbox.close();
});

const row = async () =>
  pageOf(await app.get(`/api/applicants?status=${status}&limit=100`, COMPLIANCE)).records.find((r) => r.refId === REF);

describe('the queue’s triage of certs sent as JSON text', () => {
  it('a compliance user’s lookup of a record whose certs came as JSON text gives its row their worst outcome, needing attention (it said nothing)', async () => {
    expect(await row()).not.toHaveProperty('certificate');
    expect((await app.get(`/api/candidates/refId/${REF}`, COMPLIANCE)).status).toBe(200);
    await expect.poll(row).toMatchObject({ certificate: 'potential_match' });
    const attention = pageOf(await app.get('/api/applicants?attention=1', COMPLIANCE));
    expect(attention.records.map((r) => r.refId)).toContain(REF);
  });
});
