import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics, type Metrics } from '../../src/server/ops/metrics.ts';
import { queueKey } from '../../src/server/state/queue-index.ts';
import { createMemoryQueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp, testEnvironment } from './http.ts';
import { startListUpstream } from './list-upstream.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { gateway, pageOf, SUPPORT } from './queue-fixture.ts';
import { CLIENT_ID, deliver, deliveryBody, recordingHub, WEBHOOK_SECRET } from './webhook-fixture.ts';

/**
 * The lookups this server makes for itself, a webhook delivery's check and the queue crawler's, refuse an
 * answer whose record is another candidate's (a cache or a gateway in front of the service answering
 * wrongly), as a user's lookup does (other-candidate.test.ts): before, its status went on the asked
 * candidate's live notice, and the crawler taught the queue a candidate from an answer about someone else.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Another candidate's record, as the gateway answers every lookup with it. */
const SOMEONE_ELSE = {
  status: 'rejected',
  recordId: 'rec-0099',
  refId: 'ref-0099',
  isArchived: false,
  rejectedDate: '2026-11-21T10:00:00.000Z',
};

function answerWith(record: unknown) {
  return (_req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = JSON.stringify({ status: 'success', data: record });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
}

const counted = async (metrics: Metrics, name: 'webhookChecks' | 'queueIndexLookups', label: string) =>
  (await metrics[name].get()).values.find((v) => Object.values(v.labels).includes(label))?.value ?? 0;

/** The server's warnings about another candidate's record: said without a candidate's id. */
function warnedOfOther(logs: readonly string[]) {
  const warned = logs.filter((line) => line.includes("another candidate's record"));
  for (const line of warned) expect(line).not.toMatch(/rec-00|ref-00/);
  return warned;
}

describe("another candidate's record answered to this server's own lookups", () => {
  it("attack: a gateway answers a webhook delivery's check with another candidate's record: no page is told, no row learns it", async () => {
    const upstream = await startFakeUpstream();
    upstream.behave = answerWith(SOMEONE_ELSE);
    const hub = recordingHub();
    const metrics = createMetrics();
    const store = createMemoryQueueIndexStore();
    const audit = memoryAuditLog();
    const target = { baseUrl: upstream.url, clientId: CLIENT_ID, apiKey: 'full-key', statusApiKey: 'status-key' };
    const app = await startTestApp({
      environments: [{ ...testEnvironment(target), webhookSecret: WEBHOOK_SECRET }],
      hub,
      metrics,
      queueIndex: store,
      audit,
    });
    cleanups.push(app.close, upstream.close);
    // rec-0001 approved, says the delivery; the check asks the service for rec-0001 and gets rec-0099's record.
    expect((await deliver(app.port, deliveryBody({ guid: 'g-other' }))).status).toBe(200);
    await expect.poll(() => counted(metrics, 'webhookChecks', 'unconfirmed')).toBe(1);
    // Before: published, with rec-0099's ids and status, and both candidates' rows taught rec-0099's record.
    expect(await counted(metrics, 'webhookChecks', 'published')).toBe(0);
    expect(hub.events).toEqual([]);
    const keys = [queueKey('recordId', 'rec-0001'), queueKey('refId', 'ref-0001'), queueKey('recordId', 'rec-0099')];
    expect((await store.find('default', keys)).size).toBe(0);
    expect(audit.lines.filter((line) => line.kind === 'recordId')).toEqual([
      expect.objectContaining({ user: '(webhook-check)', id: 'rec-0001', answeredId: 'rec-0099', status: 502, code: 'other_candidate' }),
    ]);
    expect(await counted(metrics, 'queueIndexLookups', 'other_candidate')).toBe(1);
    expect(warnedOfOther(app.logs)).toHaveLength(1);
  });

  it("attack: a gateway answers the queue crawler's lookups with another candidate's record: no row takes its status", async () => {
    const listed = ['rec-0000', 'rec-0001'].map((recordId, n) => ({ status: 'waiting', _id: recordId, refId: `ref-000${n}` }));
    const upstream = await startListUpstream(listed, () => SOMEONE_ELSE);
    const audit = memoryAuditLog();
    const metrics = createMetrics();
    const store = createMemoryQueueIndexStore();
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
      access: gateway(),
      audit,
      metrics,
      queueIndex: store,
    });
    cleanups.push(app.close, upstream.close);
    await app.crawl();
    // Before: rec-0099 stood in the Rejected tab, taught by answers about rec-0000 and rec-0001.
    expect(pageOf(await app.get('/api/applicants?status=rejected', SUPPORT)).total).toBe(0);
    expect((await store.find('default', [queueKey('recordId', 'rec-0099')])).size).toBe(0);
    // The two listed stay as the list has them: waiting, their dates not learnt from someone else's record.
    const waiting = pageOf(await app.get('/api/applicants?status=waiting', SUPPORT));
    expect(waiting.records.map((row) => [row.recordId, row.since])).toEqual(
      expect.arrayContaining([
        ['rec-0000', undefined],
        ['rec-0001', undefined],
      ]),
    );
    // Each undated row is looked up (once per tab that lists it): every answer refused, audited with both ids.
    const refused = audit.lines.filter((line) => line.kind === 'recordId');
    expect(new Set(refused.map((line) => ('id' in line ? line.id : undefined)))).toEqual(new Set(['rec-0000', 'rec-0001']));
    for (const line of refused) expect(line).toMatchObject({ user: '(queue-index)', answeredId: 'rec-0099', code: 'other_candidate' });
    expect(await counted(metrics, 'queueIndexLookups', 'other_candidate')).toBe(refused.length);
    expect(warnedOfOther(app.logs)).toHaveLength(refused.length);
  });

  it("attack: a gateway answers the queue crawler's lookups with a record whose recordId is a number: no row takes its status", async () => {
    const listed = ['rec-0000', 'rec-0001'].map((recordId, n) => ({ status: 'waiting', _id: recordId, refId: `ref-000${n}` }));
    const upstream = await startListUpstream(listed, () => ({ ...SOMEONE_ELSE, recordId: 12345 }));
    const audit = memoryAuditLog();
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
      access: gateway(),
      audit,
      queueIndex: createMemoryQueueIndexStore(),
    });
    cleanups.push(app.close, upstream.close);
    await app.crawl();
    // Before: the number was dropped as unreadable, the guard saw no id, and the rows were taught rec-0099's rejection.
    expect(pageOf(await app.get('/api/applicants?status=rejected', SUPPORT)).total).toBe(0);
    const refused = audit.lines.filter((line) => line.kind === 'recordId');
    expect(refused.length).toBeGreaterThan(0);
    for (const line of refused) expect(line).toMatchObject({ user: '(queue-index)', answeredId: '12345', code: 'other_candidate' });
  });
});
