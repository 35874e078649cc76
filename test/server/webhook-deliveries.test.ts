import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiMetaSchema } from '../../src/kyc/contract/api.ts';
import { signatureOf } from '../../src/server/http/webhook-signature.ts';
import type { TestApp } from './http.ts';
import { type Instance, startInstance } from './instance.ts';
import type { memoryAuditLog } from './memory-audit.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, type RunningRedis, startRedis } from './redis-fixture.ts';
import {
  CLIENT_ID,
  codeOf,
  deliver,
  deliveryBody,
  type recordingHub,
  startWebhookApp,
  WEBHOOK_SECRET,
  webhookEnvironment,
} from './webhook-fixture.ts';

/**
 * Issue 30: deliveries as the real service sends them. Its documentation's own samples reuse one `guid`
 * for two events, so a delivery is known again by its `X-Blockpass-Delivery` header, or without one by
 * its guid, event, status and ids together. And a 401 tells the operator why, once, in the server's log.
 */

/** The documentation's two samples: one guid, `user.created` then `user.readyToReview`, as the service words them. */
function documentedSamples(clientId: string, guid = '5f4b3b7c2a1d0e0012345678'): [string, string] {
  const common = { guid, clientId, recordId: '5f4b3b7c2a1d0e00aaaa0001', refId: 'ref-sample-1', env: 'prod', webhookId: null };
  return [
    JSON.stringify({ ...common, event: 'user.created', status: 'incomplete', submitCount: 0, isArchived: false, isPing: false }),
    JSON.stringify({
      ...common,
      event: 'user.readyToReview',
      status: 'waiting',
      submitCount: 1,
      waitingDate: '2021-01-14T10:00:00.000Z',
      isArchived: false,
      isPing: false,
    }),
  ];
}

/** The service's own headers for a delivery. */
const serviceHeaders = (event: string, delivery: string) => ({ 'x-blockpass-event': event, 'x-blockpass-delivery': delivery });
const resultOf = (body: string) => (JSON.parse(body) as { result?: string }).result;

describe('webhook deliveries in memory', () => {
  let app: TestApp;
  let hub: ReturnType<typeof recordingHub>;
  let audit: ReturnType<typeof memoryAuditLog>;
  let close: () => Promise<void>;

  beforeEach(async () => {
    ({ app, hub, audit, close } = await startWebhookApp((made) => [
      webhookEnvironment(made, CLIENT_ID, WEBHOOK_SECRET),
      webhookEnvironment(made, 'acme_staging', 'staging-secret-0123', 'staging'),
    ]));
  });
  afterEach(() => close());

  const webhookLines = () => audit.lines.filter((line) => line.kind === 'webhook');

  it('two deliveries sharing a guid with different events are both accepted', async () => {
    const [created, ready] = documentedSamples(CLIENT_ID);
    // As the documentation shows them: the bodies alone, no X-Blockpass-Delivery.
    expect(resultOf((await deliver(app.port, created)).body)).toBe('accepted');
    expect(resultOf((await deliver(app.port, ready)).body)).toBe('accepted');
    // As the service sends them: each its own delivery id, the bodies still sharing a guid.
    const [createdAgain, readyAgain] = documentedSamples(CLIENT_ID, 'guid-shared-by-two');
    expect(resultOf((await deliver(app.port, createdAgain, { headers: serviceHeaders('user.created', 'd-1') })).body)).toBe('accepted');
    expect(resultOf((await deliver(app.port, readyAgain, { headers: serviceHeaders('user.readyToReview', 'd-2') })).body)).toBe('accepted');
    // With the delivery id a copy of the guid, as documented: reused as the guid was, it still tells two events apart.
    const [createdCopy, readyCopy] = documentedSamples(CLIENT_ID, 'guid-copied');
    expect(resultOf((await deliver(app.port, createdCopy, { headers: serviceHeaders('user.created', 'guid-copied') })).body)).toBe(
      'accepted',
    );
    expect(resultOf((await deliver(app.port, readyCopy, { headers: serviceHeaders('user.readyToReview', 'guid-copied') })).body)).toBe(
      'accepted',
    );
    // Each is taken (its audit line); what reaches the pages is what the service's record confirms (issue 31).
    expect(webhookLines().map((line) => line.event)).toEqual([
      'user.created',
      'user.readyToReview',
      'user.created',
      'user.readyToReview',
      'user.created',
      'user.readyToReview',
    ]);
    await expect.poll(() => hub.events.at(-1)?.event).toBe('user.readyToReview');
  });

  it('the same delivery id (X-Blockpass-Delivery) twice is accepted once, even when the retry was built again with another guid', async () => {
    const headers = serviceHeaders('review.approved', 'delivery-7f3a');
    const first = deliveryBody({ guid: 'guid-first-attempt', refId: 'ref-retried' });
    const rebuilt = deliveryBody({ guid: 'guid-second-attempt', refId: 'ref-retried' });
    expect(resultOf((await deliver(app.port, first, { headers })).body)).toBe('accepted');
    expect(resultOf((await deliver(app.port, first, { headers })).body)).toBe('duplicate');
    expect(resultOf((await deliver(app.port, rebuilt, { headers })).body)).toBe('duplicate');
    // One environment's delivery id is not another's.
    const staging = deliveryBody({ clientId: 'acme_staging', guid: 'guid-first-attempt' });
    const onStaging = await deliver(app.port, staging, {
      path: '/webhooks/kyc/staging',
      signature: signatureOf(staging, 'staging-secret-0123'),
      headers,
    });
    expect(resultOf(onStaging.body)).toBe('accepted');
    expect(webhookLines().map((line) => ('env' in line ? line.env : undefined))).toEqual(['default', 'staging']);
  });

  it('without a delivery id, the same body again is a duplicate, and a change of status or ids is not', async () => {
    const body = deliveryBody({ guid: 'g-no-header' });
    expect(resultOf((await deliver(app.port, body)).body)).toBe('accepted');
    expect(resultOf((await deliver(app.port, body)).body)).toBe('duplicate');
    expect(resultOf((await deliver(app.port, deliveryBody({ guid: 'g-no-header', status: 'rejected' }))).body)).toBe('accepted');
    expect(resultOf((await deliver(app.port, deliveryBody({ guid: 'g-no-header', recordId: 'rec-other' }))).body)).toBe('accepted');
    expect(resultOf((await deliver(app.port, deliveryBody({ guid: 'g-no-header', refId: 'ref-other' }))).body)).toBe('accepted');
  });

  it("passes the status's own date on to the pages (approvedDate for approved), none that is not a date, and never into the audit line", async () => {
    await deliver(
      app.port,
      deliveryBody({
        guid: 'g-dated',
        recordId: 'rec-d1',
        refId: 'ref-d1',
        approvedDate: '2021-01-14T11:00:00.000Z',
        waitingDate: '2021-01-13T09:00:00Z',
      }),
    );
    await deliver(
      app.port,
      deliveryBody({
        guid: 'g-undated',
        recordId: 'rec-d2',
        refId: 'ref-d2',
        event: 'user.inReview',
        status: 'inreview',
        approvedDate: '2021-01-14T11:00:00Z',
      }),
    );
    await deliver(app.port, deliveryBody({ guid: 'g-not-a-date', recordId: 'rec-d3', refId: 'ref-d3', approvedDate: 'soon' }));
    await deliver(
      app.port,
      deliveryBody({
        guid: 'g-requested',
        recordId: 'rec-d4',
        refId: 'ref-d4',
        status: 'review_requested',
        reviewRequestedDate: '2021-01-15T08:30:00+01:00',
      }),
    );
    await expect.poll(() => hub.events.length).toBe(4);
    hub.events.sort((a, b) => a.recordId!.localeCompare(b.recordId!));
    expect(hub.events.map((event) => event.statusDate)).toEqual([
      '2021-01-14T11:00:00.000Z',
      undefined,
      undefined,
      '2021-01-15T07:30:00.000Z',
    ]);
    expect(hub.events[0]!.at).not.toBe('2021-01-14T11:00:00.000Z');
    expect(JSON.stringify(audit.lines)).not.toContain('2021-01-1');
  });

  it("an unsigned delivery's 401 names the likely cause in the log, once per environment", async () => {
    const secretLooking = 'ref-never-in-the-log';
    const unsigned = deliveryBody({ refId: secretLooking });
    for (let i = 0; i < 3; i++) expect((await deliver(app.port, unsigned, { signature: null })).status).toBe(401);
    const answer = await deliver(app.port, deliveryBody({ clientId: 'acme_staging' }), { path: '/webhooks/kyc/staging', signature: null });
    expect(codeOf(answer)).toBe('webhook_signature_invalid');
    expect(JSON.parse(answer.body).error.message).toMatch(/no X-Hub-Signature.*secret.*console/);
    await deliver(app.port, deliveryBody({ clientId: 'acme_staging' }), { path: '/webhooks/kyc/staging', signature: null });
    // A wrong signature is another cause, named apart, once too.
    for (let i = 0; i < 2; i++) {
      const wrong = await deliver(app.port, unsigned, { signature: signatureOf(unsigned, 'another-secret') });
      expect(JSON.parse(wrong.body).error.message).toMatch(/does not match/);
    }
    await expect.poll(() => app.requests().length).toBe(7);
    const hints = app.logs
      .map((line) => JSON.parse(line) as { level: string; msg: string; env?: string; cause?: string })
      .filter((line) => line.msg !== 'request');
    expect(hints.map(({ level, env, cause }) => ({ level, env, cause }))).toEqual([
      { level: 'warn', env: 'default', cause: 'unsigned' },
      { level: 'warn', env: 'staging', cause: 'unsigned' },
      { level: 'warn', env: 'default', cause: 'mismatch' },
    ]);
    expect(hints[0]!.msg).toContain("deliveries arrive unsigned: set the same secret in the service's console");
    expect(hints[2]!.msg).toContain(
      "signature does not match: the secret in the service's console differs from this environment's webhook secret",
    );
    const text = app.logs.join('\n');
    for (const never of [WEBHOOK_SECRET, 'staging-secret-0123', 'another-secret', secretLooking, CLIENT_ID])
      expect(text).not.toContain(never);
  });

  it("a body without guid or event is read with the service's headers that carry them; the body's own is never replaced", async () => {
    const bare = (fields: Record<string, unknown>) => {
      const body = JSON.parse(deliveryBody(fields)) as Record<string, unknown>;
      delete body.guid;
      delete body.event;
      return JSON.stringify({ ...body, ...fields });
    };
    // Before: 400 "guid is missing (text expected)", though X-Blockpass-Delivery and X-Blockpass-Event carried both.
    const fromHeaders = await deliver(app.port, bare({ refId: 'ref-h1' }), { headers: serviceHeaders('review.rejected', 'd-h1') });
    expect(resultOf(fromHeaders.body)).toBe('accepted');
    // The body's own event stands, whatever the header says.
    const own = await deliver(app.port, bare({ refId: 'ref-h2', event: 'user.blocked' }), {
      headers: serviceHeaders('review.rejected', 'd-h2'),
    });
    expect(resultOf(own.body)).toBe('accepted');
    expect(webhookLines().map((line) => [line.refId, line.event])).toEqual([
      ['ref-h1', 'review.rejected'],
      ['ref-h2', 'user.blocked'],
    ]);
    // Neither in the body nor in a header: refused, naming the field.
    const none = await deliver(app.port, bare({ refId: 'ref-h3' }));
    expect(codeOf(none)).toBe('webhook_delivery_invalid');
    expect(JSON.parse(none.body).error.message).toContain('guid is missing (text expected)');
  });
});

describe.skipIf(!hasRedisServer)(`webhook deliveries on Redis${hasRedisServer ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
  const SECRET = 'instance-webhook-secret';
  let redis: RunningRedis;
  const instances: Instance[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    await Promise.all(instances.splice(0).map((instance) => instance.close()));
  });
  afterAll(() => redis?.stop());

  async function twoInstances(): Promise<[Instance, Instance, string]> {
    const env = { KYC_WEBHOOK_SECRET: SECRET, REDIS_URL: redis.url };
    const [one, two] = [await startInstance(env), await startInstance(env)];
    instances.push(one, two);
    const clientId = apiMetaSchema.parse(JSON.parse((await one.request('/api/meta')).body)).environment.clientId!;
    return [one, two, clientId];
  }
  const signed = (port: number, body: string, headers?: Record<string, string>) =>
    deliver(port, body, { signature: signatureOf(body, SECRET), ...(headers ? { headers } : {}) });

  it('two deliveries sharing a guid with different events are both accepted', async () => {
    const [one, two, clientId] = await twoInstances();
    const [created, ready] = documentedSamples(clientId, 'guid-on-redis');
    expect(resultOf((await signed(one.port, created)).body)).toBe('accepted');
    expect(resultOf((await signed(two.port, ready)).body)).toBe('accepted');
    // The first again, on the other instance: known there too.
    expect(resultOf((await signed(two.port, created)).body)).toBe('duplicate');
  });

  it('the same delivery id (X-Blockpass-Delivery) twice is accepted once, across instances', async () => {
    const [one, two, clientId] = await twoInstances();
    const headers = serviceHeaders('review.approved', 'delivery-on-redis');
    expect(resultOf((await signed(one.port, deliveryBody({ clientId, guid: 'g-a' }), headers)).body)).toBe('accepted');
    expect(resultOf((await signed(two.port, deliveryBody({ clientId, guid: 'g-b' }), headers)).body)).toBe('duplicate');
    expect(
      resultOf((await signed(two.port, deliveryBody({ clientId, guid: 'g-a' }), serviceHeaders('review.approved', 'd-other'))).body),
    ).toBe('accepted');
  });
});
