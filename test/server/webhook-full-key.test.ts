import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics, type Metrics } from '../../src/server/ops/metrics.ts';
import { startTestApp, type TestApp, testEnvironment } from './http.ts';
import { COMPLIANCE, gateway } from './queue-fixture.ts';
import {
  type AgreeingService,
  agreeingService,
  CLIENT_ID,
  deliver,
  deliveryBody,
  recordingHub,
  WEBHOOK_SECRET,
} from './webhook-fixture.ts';

/**
 * A webhook delivery is checked with the service before any page is told of it (issue 31). Without a
 * status-level key that check was a full lookup, sent whatever the key: facts review (2 December), with a
 * key that archives after extract, the first delivery of a candidate nobody had opened scheduled the
 * deletion of their identity data, and with "archiveOnExtract": "accept" every new submission's did. Now
 * the check takes the crawler's rule of the full key (crawler-full-key.ts): not before a reviewer's lookup
 * has shown the key keeps data, never while it is found to archive, accepted or not.
 */

let service: AgreeingService;
let app: TestApp;
let hub: ReturnType<typeof recordingHub>;
let metrics: Metrics;

afterEach(async () => {
  await app.close();
  await service.close();
});

/** The app on a service whose records carry `willArchiveAtDate` when `archives`, with the full key alone. */
async function start(options: { archives: boolean; accept?: boolean }) {
  service = await agreeingService();
  hub = recordingHub();
  metrics = createMetrics();
  app = await startTestApp({
    environments: [{ ...testEnvironment(service.target(CLIENT_ID, null)), webhookSecret: WEBHOOK_SECRET }],
    access: gateway(),
    hub,
    metrics,
    settings: { keyArchivesOnExtract: options.accept ? 'accept' : 'refuse' },
  });
  for (const n of [1, 2]) {
    service.set({
      status: 'waiting',
      refId: `ref-${n}`,
      recordId: `rec-${n}`,
      isArchived: false,
      waitingDate: '2026-12-02T09:00:00.000Z',
      ...(options.archives ? { willArchiveAtDate: new Date(Date.now() + 10_000).toISOString() } : {}),
    });
  }
}

const withheldDrops = async () => (await metrics.webhookIntakeDropped.get()).values.find((v) => v.labels.reason === 'withheld')?.value ?? 0;
/** Deliveries done with, whatever came of their check. */
const checksDone = async () => (await metrics.webhookChecks.get()).values.reduce((sum, v) => sum + v.value, 0);
const checksSent = () => service.lookups().filter((request) => !request.path.includes('/refId/ref-looked-up'));
const warnings = () => app.logs.filter((line) => line.includes('Webhook deliveries are not checked with the KYC service'));
const ready = (n: number, guid: string) =>
  deliveryBody({ guid, event: 'user.readyToReview', status: 'waiting', refId: `ref-${n}`, recordId: `rec-${n}` });

describe('webhook checks and the full key', () => {
  it('attack: a delivery had the server look up, with a key that archives after extract, a candidate nobody opened', async () => {
    await start({ archives: true });
    expect(JSON.parse((await deliver(app.port, ready(1, 'g-1'))).body)).toMatchObject({ result: 'accepted' });
    expect(JSON.parse((await deliver(app.port, ready(2, 'g-2'))).body)).toMatchObject({ result: 'accepted' });
    await expect.poll(checksDone).toBeGreaterThanOrEqual(1);
    // Before: the first delivery's check was a full-key lookup (the deletion of its candidate's data scheduled),
    // and the pages were told; the next were never checked, nothing said (the key then found to archive).
    expect(service.lookups().map((request) => request.path)).toEqual([]);
    await expect.poll(withheldDrops).toBe(2);
    expect(hub.events).toEqual([]);
    // Said once in the log, not once per delivery.
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatch(/once a lookup here has shown that the API key keeps identity data/);
  });

  it('once a reviewer has looked a candidate up with a key that keeps data, deliveries are checked with it and reach the pages', async () => {
    await start({ archives: false });
    await deliver(app.port, ready(1, 'g-1'));
    await expect.poll(withheldDrops).toBe(1);
    expect((await app.get('/api/candidates/refId/ref-2', COMPLIANCE)).status).toBe(200);
    const looked = service.lookups().length;
    await deliver(app.port, ready(1, 'g-3'));
    await expect.poll(() => hub.events.length).toBe(1);
    expect(service.lookups().length).toBe(looked + 1);
    expect(await withheldDrops()).toBe(1);
  });

  it('with "archiveOnExtract": "accept", reviewers may delete what they open; a delivery never checks a candidate with that key', async () => {
    await start({ archives: true, accept: true });
    expect((await app.get('/api/candidates/refId/ref-2', COMPLIANCE)).status).toBe(200);
    const looked = checksSent().length;
    await deliver(app.port, ready(1, 'g-1'));
    await expect.poll(withheldDrops).toBe(1);
    expect(checksSent()).toHaveLength(looked);
    expect(hub.events).toEqual([]);
    expect(warnings().at(-1)).toMatch(/deletes identity data after extract/);
  });

  it('/api/meta says the live updates are held, and why, until a lookup has shown the key keeps data (it said "live": true)', async () => {
    await start({ archives: false });
    const before = await meta();
    expect(before).toMatchObject({ live: true, environment: { live: true } });
    expect(before.liveHeld).toMatch(/once a lookup here has shown that the API key keeps identity data/);
    expect(before.environment.liveHeld).toBe(before.liveHeld);
    expect(before.environments[0].liveHeld).toBe(before.liveHeld);
    expect((await app.get('/api/candidates/refId/ref-2', COMPLIANCE)).status).toBe(200);
    // At once: this process's own lookup is not waited for behind the meta's cache (live-held.ts).
    const after = await meta();
    expect(after).toMatchObject({ live: true, environment: { live: true } });
    expect(after).not.toHaveProperty('liveHeld');
    expect(after.environment).not.toHaveProperty('liveHeld');
  });

  it('/api/meta says they are held while the key is found to archive after extract, accepted or not', async () => {
    await start({ archives: true, accept: true });
    expect((await app.get('/api/candidates/refId/ref-2', COMPLIANCE)).status).toBe(200);
    await expect.poll(async () => (await meta()).liveHeld).toMatch(/deletes identity data after extract/);
  });
});

/** What /api/meta answers a compliance user. */
async function meta() {
  const res = await app.get('/api/meta', COMPLIANCE);
  expect(res.status).toBe(200);
  return JSON.parse(res.body);
}
