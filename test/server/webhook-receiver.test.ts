import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiMetaSchema } from '../../src/kyc/contract/api.ts';
import { WEBHOOK_MAX_BODY_BYTES } from '../../src/kyc/contract/live-events.ts';
import type { ApiEnvironment } from '../../src/server/lookup/served-environment.ts';
import { createRefusalLog, type RefusalLog } from '../../src/server/audit/audit-refusals.ts';
import { signatureOf } from '../../src/server/http/webhook-signature.ts';
import { createMetrics, type Metrics } from '../../src/server/ops/metrics.ts';
import { startTestApp, type TestApp, testEnvironment } from './http.ts';
import { memoryAuditLog } from './memory-audit.ts';
import {
  type AgreeingService,
  CLIENT_ID,
  codeOf,
  deliver,
  deliveryBody,
  type recordingHub,
  startWebhookApp,
  WEBHOOK_SECRET,
  webhookEnvironment,
} from './webhook-fixture.ts';

const withSecret = (environment: ApiEnvironment, webhookSecret: string): ApiEnvironment => ({ ...environment, webhookSecret });

let app: TestApp;
let hub: ReturnType<typeof recordingHub>;
let audit: ReturnType<typeof memoryAuditLog>;
let refusals: RefusalLog;
let metrics: Metrics;
/** The service the receiver checks each delivery with: its records agree with what was delivered (issue 31). */
let service: AgreeingService;
let close: () => Promise<void>;
const target = (clientId: string) => service.target(clientId);

beforeEach(async () => {
  metrics = createMetrics();
  audit = memoryAuditLog();
  refusals = createRefusalLog(audit);
  ({ app, hub, service, close } = await startWebhookApp(
    (made) => [
      webhookEnvironment(made, CLIENT_ID, WEBHOOK_SECRET),
      webhookEnvironment(made, 'acme_staging', 'staging-secret', 'staging'),
      webhookEnvironment(made, 'acme_quiet', undefined, 'quiet'),
    ],
    { audit, refusals, metrics },
  ));
});
afterEach(() => close());

const webhookLines = () => audit.lines.filter((line) => line.kind === 'webhook');
const counted = async (event: string, result: string) =>
  (await metrics.webhookDeliveries.get()).values.find((v) => v.labels.event === event && v.labels.result === result)?.value ?? 0;

describe('the webhook receiver: signatures', () => {
  it('accepts a delivery signed with the bare hex digest, answers 200 and publishes its event after the answer', async () => {
    const published = hub.next();
    const body = deliveryBody({ guid: 'g-bare', refId: 'ref-42', recordId: 'rec-42' });
    const res = await deliver(app.port, body);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: 'success', result: 'accepted' });
    expect(await published).toEqual({
      environment: 'default',
      event: 'review.approved',
      refId: 'ref-42',
      recordId: 'rec-42',
      status: 'approved',
      isArchived: false,
      // Where the queue index had the candidate before (issue 32): nowhere, it was not listed yet.
      previousStatus: null,
      // The service's record holds no date of its status: none is to come (the queue's row says so).
      dateless: true,
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('accepts the sha256=<hex> form', async () => {
    const body = deliveryBody({ guid: 'g-prefixed' });
    const res = await deliver(app.port, body, { signature: `sha256=${signatureOf(body, WEBHOOK_SECRET)}` });
    expect(res.status).toBe(200);
    expect(webhookLines()).toHaveLength(1);
  });

  it('accepts the prefix and the digits in either case: SHA256=<HEX>, Sha256=<hex>', async () => {
    const digest = (body: string) => signatureOf(body, WEBHOOK_SECRET);
    const forms = [(body: string) => `SHA256=${digest(body)}`, (body: string) => `Sha256=${digest(body).toUpperCase()}`];
    for (const [index, form] of forms.entries()) {
      const body = deliveryBody({ guid: `g-case-${index}`, refId: `ref-case-${index}` });
      const res = await deliver(app.port, body, { signature: form(body) });
      expect(res.status, res.body).toBe(200);
    }
    expect(webhookLines()).toHaveLength(2);
  });

  it('refuses a missing signature, a wrong one, one made with another secret and a body changed after signing: 401, nothing kept', async () => {
    const body = deliveryBody({ refId: 'ref-secret-looking' });
    const changed = body.replace('"approved"', '"rejected"');
    const answers = await Promise.all([
      deliver(app.port, body, { signature: null }),
      deliver(app.port, body, { signature: 'not-a-signature' }),
      deliver(app.port, body, { signature: signatureOf(body, 'another-secret') }),
      deliver(app.port, changed, { signature: signatureOf(body, WEBHOOK_SECRET) }),
      deliver(app.port, body, { signature: `sha1=${signatureOf(body, WEBHOOK_SECRET)}` }),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(codeOf(res)).toBe('webhook_signature_invalid');
      expect(res.body).not.toContain('ref-secret-looking');
    }
    expect(webhookLines()).toEqual([]);
    expect(hub.events).toEqual([]);
  });
});

describe('the webhook receiver: size, shape and client', () => {
  it('refuses a body over 64 kB with 413, before its signature is looked at', async () => {
    const body = deliveryBody({ padding: 'x'.repeat(WEBHOOK_MAX_BODY_BYTES) });
    const res = await deliver(app.port, body);
    expect(res.status).toBe(413);
    expect(codeOf(res)).toBe('body_too_large');
    expect(hub.events).toEqual([]);
  });

  it('refuses a signed body that is not JSON, or not of a delivery’s shape, with 400 and nothing of it repeated', async () => {
    for (const body of [
      '{"guid": "g1", oops',
      '[1,2,3]',
      JSON.stringify({ event: 'review.approved', clientId: CLIENT_ID, refId: 'r' }),
      deliveryBody({ refId: null, recordId: null }),
    ]) {
      const res = await deliver(app.port, body);
      expect(res.status, body).toBe(400);
      expect(codeOf(res)).toBe('webhook_delivery_invalid');
      expect(res.body).not.toContain('oops');
    }
    expect(hub.events).toEqual([]);
  });

  it('accepts a delivery whose optional fields hold what the service does not document, each read as missing', async () => {
    const published = hub.next();
    const body = deliveryBody({ guid: 'g-odd', status: 7, submitCount: '2', isArchived: 'false', approvedDate: 1718000000000 });
    const res = await deliver(app.port, body);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: 'success', result: 'accepted' });
    // The status the event implies, confirmed by the service; no date, as the delivery's was not one.
    const event = await published;
    expect(event).toMatchObject({
      event: 'review.approved',
      refId: 'ref-0001',
      recordId: 'rec-0001',
      status: 'approved',
      isArchived: false,
    });
    expect(event).not.toHaveProperty('statusDate');
  });

  it('accepts a delivery with an empty or missing refId when it has a recordId, and passes the refId on as null', async () => {
    const published = hub.next();
    expect((await deliver(app.port, deliveryBody({ refId: '', recordId: 'rec-only' }))).status).toBe(200);
    expect(await published).toMatchObject({ refId: null, recordId: 'rec-only' });
    expect(codeOf(await deliver(app.port, deliveryBody({ refId: '', recordId: '' })))).toBe('webhook_delivery_invalid');
  });

  it('refuses a signed delivery for another client id with 400', async () => {
    const res = await deliver(app.port, deliveryBody({ clientId: 'someone_else' }));
    expect(res.status).toBe(400);
    expect(codeOf(res)).toBe('webhook_wrong_client');
    expect(res.body).not.toContain('someone_else');
    expect(webhookLines()).toEqual([]);
  });

  it("takes each environment's deliveries at /webhooks/kyc/<name>, signed with its own secret, for its own client id", async () => {
    const body = deliveryBody({ clientId: 'acme_staging', guid: 'g-staging' });
    const published = hub.next();
    expect((await deliver(app.port, body, { path: '/webhooks/kyc/staging' })).status).toBe(401);
    const res = await deliver(app.port, body, { path: '/webhooks/kyc/staging', signature: signatureOf(body, 'staging-secret') });
    expect(res.status).toBe(200);
    expect((await published).environment).toBe('staging');
    expect(codeOf(await deliver(app.port, deliveryBody(), { path: '/webhooks/kyc/staging' }))).toBe('webhook_signature_invalid');
  });
});

describe('the webhook receiver: what a delivery changes', () => {
  it('accepts a guid once: the same delivery again answers 200 and is neither published nor audited again', async () => {
    const body = deliveryBody({ guid: 'g-twice' });
    const first = hub.next();
    expect((await deliver(app.port, body)).status).toBe(200);
    await first;
    const again = await deliver(app.port, body);
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body)).toEqual({ status: 'success', result: 'duplicate' });
    // A delivery after it is published after it: had the duplicate been published, it would be there first.
    const marker = hub.next();
    await deliver(app.port, deliveryBody({ guid: 'g-after', refId: 'ref-after' }));
    await marker;
    expect(hub.events.map((event) => event.refId)).toEqual(['ref-0001', 'ref-after']);
    expect(webhookLines()).toHaveLength(2);
    expect(await counted('review.approved', 'duplicate')).toBe(1);
  });

  it('answers a ping 200 without publishing or auditing it', async () => {
    const res = await deliver(app.port, deliveryBody({ isPing: true, guid: 'g-ping', refId: 'ref-ping' }));
    expect(JSON.parse(res.body)).toEqual({ status: 'success', result: 'ping' });
    const marker = hub.next();
    await deliver(app.port, deliveryBody({ refId: 'ref-after-ping' }));
    await marker;
    expect(hub.events.map((event) => event.refId)).toEqual(['ref-after-ping']);
    expect(webhookLines().map((line) => ('refId' in line ? line.refId : undefined))).toEqual(['ref-after-ping']);
  });

  it('answers the console\'s test delivery 200 ping: signed, naming no candidate (no refId, no recordId), isPing true or "true"', async () => {
    // Exactly what the service's console sends to test a webhook: refused, the console would call the webhook broken.
    const consoles = [true, 'true'].map((isPing) =>
      JSON.stringify({ guid: 'p1', clientId: CLIENT_ID, event: 'user.created', isPing, env: 'prod' }),
    );
    for (const body of consoles) {
      const res = await deliver(app.port, body);
      expect(res.status, res.body).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ status: 'success', result: 'ping' });
    }
    // A ping with ids, isPing a string: a ping still, never a change of the candidate it names.
    const named = await deliver(app.port, deliveryBody({ isPing: 'true', guid: 'g-ping-text', refId: 'ref-ping-text' }));
    expect(JSON.parse(named.body)).toEqual({ status: 'success', result: 'ping' });
    const marker = hub.next();
    await deliver(app.port, deliveryBody({ refId: 'ref-after-pings' }));
    await marker;
    expect(hub.events.map((event) => event.refId)).toEqual(['ref-after-pings']);
    expect(webhookLines().map((line) => ('refId' in line ? line.refId : undefined))).toEqual(['ref-after-pings']);
    expect(await counted('user.created', 'ping')).toBe(2);
  });

  it('refuses a ping unsigned, or for another client: a ping is checked as any delivery is', async () => {
    const body = JSON.stringify({ guid: 'p2', clientId: CLIENT_ID, event: 'user.created', isPing: true });
    expect(codeOf(await deliver(app.port, body, { signature: null }))).toBe('webhook_signature_invalid');
    const other = JSON.stringify({ guid: 'p3', clientId: 'someone_else', event: 'user.created', isPing: true });
    expect(codeOf(await deliver(app.port, other))).toBe('webhook_wrong_client');
  });

  it('accepts and publishes an event it does not know, with the status the service’s record gives', async () => {
    service.set({ status: 'waiting', refId: 'ref-0001', recordId: 'rec-0001', isArchived: false });
    const published = hub.next();
    const res = await deliver(app.port, deliveryBody({ event: 'user.renamedSomehow', status: undefined, guid: 'g-new-event' }));
    expect(res.status).toBe(200);
    expect(await published).toMatchObject({ event: 'user.renamedSomehow', status: 'waiting', isArchived: false });
    expect(await counted('other', 'accepted')).toBe(1);
  });

  it('derives the status from a documented event when the delivery gives none, and says the data is gone on user.deleted', async () => {
    const cases: Array<[string, string | null, boolean]> = [
      ['user.readyToReview', 'waiting', false],
      ['user.inReview', 'inreview', false],
      ['review.rejected', 'rejected', false],
      ['user.blocked', 'blocked', false],
      ['user.deleted', null, true],
    ];
    for (const [event, status, isArchived] of cases) {
      const published = hub.next();
      await deliver(app.port, deliveryBody({ event, status: undefined }));
      expect(await published, event).toMatchObject({ event, status, isArchived });
    }
  });

  it("sends no delivery's check while the service's 429 wait lasts: one 429, then nothing asked, and the deliveries are not dropped", async () => {
    service.limit(60);
    expect((await deliver(app.port, deliveryBody({ guid: 'g-limited-1', refId: 'ref-0001', recordId: 'rec-0001' }))).status).toBe(200);
    await expect.poll(() => service.lookups().length).toBe(1);
    const waits = async () =>
      (await metrics.webhookIntakeRetries.get()).values
        .filter((v) => v.labels.reason === 'service_wait')
        .reduce((sum, v) => sum + v.value, 0);
    expect((await deliver(app.port, deliveryBody({ guid: 'g-limited-2', refId: 'ref-0002', recordId: 'rec-0002' }))).status).toBe(200);
    // Both deliveries sit out the wait the first check's 429 asked for: neither is sent meanwhile.
    await expect.poll(waits, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(service.lookups()).toHaveLength(1);
    expect(audit.lines.filter((line) => 'user' in line && line.user === '(webhook-check)')).toHaveLength(1);
    expect(await counted('review.approved', 'dropped')).toBe(0);
  }, 20_000);

  it("writes one audit line per accepted delivery: kind webhook, environment, event, ids and status, nothing of the body's other fields", async () => {
    const body = deliveryBody({
      guid: 'g-audit',
      refId: 'ref-audit',
      recordId: 'rec-audit',
      blockPassID: 'bp-personal-id',
      identities: { given_name: 'Ada', email: 'ada@example.org' },
    });
    const res = await deliver(app.port, body);
    expect(webhookLines()).toEqual([
      {
        time: expect.any(String),
        requestId: res.headers['x-request-id'],
        kind: 'webhook',
        env: 'default',
        event: 'review.approved',
        refId: 'ref-audit',
        recordId: 'rec-audit',
        status: 'approved',
        isArchived: false,
      },
    ]);
    const written = JSON.stringify(audit.lines);
    for (const personal of ['bp-personal-id', 'Ada', 'ada@example.org', 'g-audit', 'prod']) expect(written).not.toContain(personal);
  });

  it('counts refused deliveries: the first one a line, the rest one line of counts, never their bodies', async () => {
    for (let i = 0; i < 4; i++) await deliver(app.port, deliveryBody({ refId: `ref-refused-${i}` }), { signature: null });
    await deliver(app.port, deliveryBody({ clientId: 'other' }));
    expect(audit.lines).toEqual([
      expect.objectContaining({
        kind: 'webhook_refused',
        user: '(webhook)',
        env: 'default',
        status: 401,
        code: 'webhook_signature_invalid',
      }),
    ]);
    await refusals.flush();
    expect(audit.lines[1]).toMatchObject({
      kind: 'refusals',
      user: '(webhook)',
      count: 4,
      codes: { webhook_signature_invalid: 3, webhook_wrong_client: 1 },
    });
    expect(JSON.stringify(audit.lines)).not.toContain('ref-refused');
    expect(await counted('unknown', 'webhook_signature_invalid')).toBe(4);
    expect(await counted('review.approved', 'webhook_wrong_client')).toBe(1);
  });
});

describe('the webhook receiver: where it answers', () => {
  it('has no receiver for an environment without a secret, nor for one that does not exist: 404, and /api/meta says live updates are off', async () => {
    for (const path of ['/webhooks/kyc/quiet', '/webhooks/kyc/nowhere', '/webhooks/kyc/']) {
      const res = await deliver(app.port, deliveryBody({ clientId: 'acme_quiet' }), { path });
      expect(res.status, path).toBe(404);
      expect(codeOf(res)).toBe('no_such_route');
    }
    const said = async (path: string) => JSON.parse((await deliver(app.port, deliveryBody(), { path })).body).error.message as string;
    expect(await said('/webhooks/kyc/quiet')).toBe('No webhook receiver here: this environment has no webhook secret configured.');
    // A URL mistyped in the service's console is told so, not told to set a secret (which it would never find to set).
    expect(await said('/webhooks/kyc/stagin')).toBe(
      'No webhook receiver here: this server has no environment named "stagin". Check the webhook URL: its last part is an environment\'s name.',
    );
    expect(await said(`/webhooks/kyc/${encodeURIComponent('<b>x</b>')}`)).toContain('has no environment of that name.');
    const meta = async (path: string) => apiMetaSchema.parse(JSON.parse((await app.get(path)).body)).live;
    expect(await meta('/api/e/quiet/meta')).toBe(false);
    expect(await meta('/api/meta')).toBe(true);
    expect(await meta('/api/e/staging/meta')).toBe(true);
  });

  it('takes POST only', async () => {
    const res = await deliver(app.port, '', { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });
});

describe('the webhook receiver: its own rate limit', () => {
  it("refuses deliveries from one address over the receiver's limit with 429 and Retry-After, apart from users' limits", async () => {
    const limited = await startTestApp({
      environments: [withSecret(testEnvironment(target(CLIENT_ID)), WEBHOOK_SECRET)],
      settings: {
        limits: {
          webhookDeliveriesPerMinute: 2,
          lookupsPerMinute: 1,
        },
      },
    });
    try {
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await deliver(limited.port, deliveryBody()));
      expect(answers.map((res) => res.status)).toEqual([200, 200, 429]);
      expect(codeOf(answers[2]!)).toBe('webhook_rate_limited');
      expect(Number(answers[2]!.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('attack: deliveries from rotating addresses of one IPv6 /64 (behind TRUSTED_PROXIES) share one bucket, another /64 has its own', async () => {
    const limited = await startTestApp({
      environments: [withSecret(testEnvironment(target(CLIENT_ID)), WEBHOOK_SECRET)],
      settings: { trustedProxies: ['127.0.0.1/32'], limits: { webhookDeliveriesPerMinute: 2 } },
    });
    const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
    try {
      const answers = [];
      for (const address of ['2001:db8:1:2::1', '2001:db8:1:2:a:b:c:d', '2001:db8:1:2:ffff:1:2:3']) {
        answers.push(await deliver(limited.port, deliveryBody(), from(address)));
      }
      expect(answers.map((res) => res.status)).toEqual([200, 200, 429]);
      expect(codeOf(answers[2]!)).toBe('webhook_rate_limited');
      expect((await deliver(limited.port, deliveryBody(), from('2001:db8:1:3::1'))).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
