import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMetrics, type Metrics } from '../../src/server/ops/metrics.ts';
import { createQueueIndex, isOlder, queueKey, type RecordFacts } from '../../src/server/state/queue-index.ts';
import { createMemoryQueueIndexStore, type QueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { startTestApp, type TestApp, testEnvironment } from './http.ts';
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
 * Issue 31, finding 4: a signed delivery can be replayed (the receiver forgets what it took at a restart,
 * Redis after 24 h), and the server trusted its status and dates. A delivery is now a hint: the server
 * asks the service for the candidate's status level, once for everyone and coalesced per candidate,
 * before the queue index learns anything or a page is told.
 */

let service: AgreeingService;
let app: TestApp;
let hub: ReturnType<typeof recordingHub>;
let metrics: Metrics;
let store: QueueIndexStore;

beforeEach(async () => {
  service = await agreeingService();
  hub = recordingHub();
  metrics = createMetrics();
  store = createMemoryQueueIndexStore();
  app = await startTestApp({
    environments: [{ ...testEnvironment(service.target(CLIENT_ID)), webhookSecret: WEBHOOK_SECRET }],
    hub,
    metrics,
    queueIndex: store,
  });
});
afterEach(async () => {
  await app.close();
  await service.close();
});

const checks = async (result: string) => (await metrics.webhookChecks.get()).values.find((v) => v.labels.result === result)?.value ?? 0;
const APPROVED = {
  status: 'approved',
  refId: 'ref-0001',
  recordId: 'rec-0001',
  isArchived: false,
  waitingDate: '2026-11-20T09:00:00.000Z',
  approvedDate: '2026-11-21T10:00:00.000Z',
};

describe('attack: replayed signed deliveries (issue 31)', () => {
  it('attack: a replayed 2020 "ready to review" after a restart neither heads the Waiting queue nor reaches a page', async () => {
    service.set(APPROVED);
    service.hold();
    // The same signed bytes the service sent in 2020: this process has never seen them.
    const replay = deliveryBody({
      guid: 'g-2020',
      event: 'user.readyToReview',
      status: 'waiting',
      waitingDate: '2020-03-01T08:00:00.000Z',
    });
    expect(JSON.parse((await deliver(app.port, replay)).body)).toEqual({ status: 'success', result: 'accepted' });
    await expect.poll(() => checks('stale')).toBe(1);
    expect(hub.events).toEqual([]);
    const known = await store.find('default', [queueKey('recordId', 'rec-0001')]);
    expect(known.get(queueKey('recordId', 'rec-0001'))?.entry).toEqual({
      status: 'approved',
      recordId: 'rec-0001',
      refId: 'ref-0001',
      isArchived: false,
      since: Date.parse(APPROVED.approvedDate),
    });
    expect(service.lookups().map((request) => request.path)).toEqual([`/kyc/1.0/connect/${CLIENT_ID}/recordId/rec-0001`]);
  });

  it('attack: a replayed user.deleted tells no page the data is gone', async () => {
    service.set(APPROVED);
    service.hold();
    await deliver(app.port, deliveryBody({ guid: 'g-deleted', event: 'user.deleted', status: undefined }));
    await expect.poll(() => checks('stale')).toBe(1);
    expect(hub.events).toEqual([]);
  });

  it('tells the pages of a deletion the service confirms (it has the candidate no more), and of a change it confirms, with the record’s date', async () => {
    service.hold();
    const gone = hub.next();
    await deliver(app.port, deliveryBody({ guid: 'g-gone', event: 'user.deleted', status: undefined }));
    expect(await gone).toMatchObject({ event: 'user.deleted', recordId: 'rec-0001', isArchived: true });
    service.set({ ...APPROVED, recordId: 'rec-0002', refId: 'ref-0002' });
    const approved = hub.next();
    // The delivery claims another date: the page is told the record's.
    await deliver(
      app.port,
      deliveryBody({ guid: 'g-ok', recordId: 'rec-0002', refId: 'ref-0002', approvedDate: '2019-01-01T00:00:00.000Z' }),
    );
    expect(await approved).toMatchObject({ status: 'approved', recordId: 'rec-0002', statusDate: APPROVED.approvedDate });
  });

  it('takes a candidate whose deletion the service confirms out of the queue index, where its row stayed until the next crawl', async () => {
    const other = { ...APPROVED, recordId: 'rec-0009', refId: 'ref-0009' };
    service.set(APPROVED);
    service.set(other);
    service.hold();
    const first = hub.next();
    await deliver(app.port, deliveryBody({ guid: 'g-known' }));
    await first;
    const later = hub.next();
    await deliver(app.port, deliveryBody({ guid: 'g-other', recordId: 'rec-0009', refId: 'ref-0009' }));
    await later;
    const keys = [queueKey('recordId', 'rec-0001'), queueKey('refId', 'ref-0001')];
    expect((await store.find('default', keys)).size).toBe(2);
    service.forget(APPROVED);
    const gone = hub.next();
    await deliver(app.port, deliveryBody({ guid: 'g-deleted-now', event: 'user.deleted', status: undefined }));
    expect(await gone).toMatchObject({ event: 'user.deleted', recordId: 'rec-0001' });
    expect((await store.find('default', keys)).size).toBe(0);
    // Another candidate's row stays.
    expect((await store.find('default', [queueKey('recordId', 'rec-0009')])).size).toBe(1);
  });

  it('tells nobody when the service cannot be asked (its answer is the only confirmation)', async () => {
    service.set(APPROVED);
    await service.close();
    await deliver(app.port, deliveryBody({ guid: 'g-unreachable' }));
    await expect.poll(() => checks('unconfirmed')).toBe(1);
    expect(hub.events).toEqual([]);
  });

  it('attack: a burst of deliveries of one candidate costs the service two lookups, not one each', async () => {
    service.set(APPROVED);
    service.hold();
    service.pause();
    const bodies = Array.from({ length: 10 }, (_, i) => deliveryBody({ guid: `g-burst-${i}` }));
    for (const res of await Promise.all(bodies.map((body) => deliver(app.port, body)))) expect(res.status).toBe(200);
    // The first check is sent and held; the nine others wait for one more check after it.
    await expect.poll(() => service.lookups().length).toBe(1);
    service.release();
    await expect.poll(async () => (await checks('published')) + (await checks('stale'))).toBe(10);
    expect(service.lookups()).toHaveLength(2);
    expect(hub.events.length).toBe(10);
    expect(new Set(hub.events.map((event) => event.status))).toEqual(new Set(['approved']));
  });
});

describe('the queue index never goes back in time', () => {
  const fact = fc.record({
    status: fc.constantFrom('waiting', 'inreview', 'approved', 'rejected'),
    at: fc.option(fc.integer({ min: Date.parse('2019-01-01'), max: Date.now() }), { nil: undefined }),
  });
  const factsOf = ({ status, at }: { status: string; at: number | undefined }): RecordFacts => ({
    recordId: 'r',
    status,
    ...(at === undefined ? {} : { since: at }),
  });

  it('property: a record whose status was entered before the known one changes nothing; any other replaces it', async () => {
    await fc.assert(
      fc.asyncProperty(fact, fact, async (first, second) => {
        const index = createQueueIndex(createMemoryQueueIndexStore());
        const key = queueKey('recordId', 'r');
        await index.learnRecord('e', factsOf(first));
        await index.learnRecord('e', factsOf(second));
        const known = (await index.store.find('e', [key])).get(key)?.entry;
        const older = first.at !== undefined && second.at !== undefined && second.at < first.at;
        // The same status without a date keeps the date it had.
        const kept = !older && second.at === undefined && first.status === second.status ? first.at : second.at;
        const expected = older ? factsOf(first) : factsOf({ status: second.status, at: kept });
        expect(known).toMatchObject(expected);
        expect(known?.since).toBe(expected.since);
        expect(isOlder(factsOf(second), factsOf(first))).toBe(older);
      }),
    );
  });
});
