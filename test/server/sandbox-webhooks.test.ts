import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiMeta } from '../../src/kyc/contract/api.ts';
import { webhookDeliverySchema } from '../../src/kyc/contract/live-events.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { type RunningSandbox, startSandbox } from '../../src/server/sandbox/sandbox.ts';
import { webhookEventOf } from '../../src/server/sandbox/webhook-sender.ts';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApiFromConfig } from '../../src/server/composition/api.ts';
import { createAppServer } from '../../src/server/composition/app-server.ts';
import { parseConfig } from '../../src/server/config/config.ts';
import { resolveUpstream, samplesOf, simulatedSamples } from '../../src/server/composition/resolve-upstream.ts';
import { listen, rawRequest, requestWithBody, startTestApp, testEnvironment } from './http.ts';
import { recordingHub } from './webhook-fixture.ts';

const SECRET = 'sandbox-webhook-secret';

interface Delivery {
  body: string;
  signature: string | undefined;
  /** X-Blockpass-Event and X-Blockpass-Delivery, as the service sends them. */
  event: string | undefined;
  deliveryId: string | undefined;
}

/** A stand-in for the app's receiver: a real HTTP server that keeps each delivery and answers 200. */
async function receiver() {
  const deliveries: Delivery[] = [];
  const waiting: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const header = (name: string) => req.headers[name] as string | undefined;
      deliveries.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: header('x-hub-signature'),
        event: header('x-blockpass-event'),
        deliveryId: header('x-blockpass-delivery'),
      });
      res.end('ok');
      for (const wake of waiting.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const next = (count: number) =>
    new Promise<Delivery[]>((resolve) => {
      const check = () => (deliveries.length >= count ? resolve(deliveries) : waiting.push(check));
      check();
    });
  return { url: `http://127.0.0.1:${port}/webhooks/kyc`, deliveries, next, close: () => new Promise((r) => server.close(r)) };
}

function signedRight({ body, signature }: Delivery): boolean {
  const expected = createHmac('sha256', SECRET).update(body).digest();
  const given = Buffer.from((signature ?? '').replace(/^sha256=/, ''), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

let running: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  await Promise.all(running.map((r) => r.close()));
  running = [];
});

async function sandboxWithReceiver(): Promise<{ sandbox: RunningSandbox; hook: Awaited<ReturnType<typeof receiver>> }> {
  const hook = await receiver();
  const sandbox = await startSandbox({
    candidates: await sampleCandidates({ now: new Date() }),
    webhook: { url: hook.url, secret: SECRET },
  });
  running.push(sandbox, hook);
  return { sandbox, hook };
}

describe("the sandbox's webhooks", () => {
  it('sends a signed delivery of the documented shape for a status it sets, with ids and status only', async () => {
    const { sandbox, hook } = await sandboxWithReceiver();
    expect(sandbox.setStatus('refId', '8f14e45f-ceea-467f-a0e6-1c9e5a2b7d33', 'approved')).toBe(true);
    const [delivery] = await hook.next(1);
    expect(signedRight(delivery!)).toBe(true);
    const body = webhookDeliverySchema.parse(JSON.parse(delivery!.body));
    expect(body).toMatchObject({
      event: 'review.approved',
      clientId: sandbox.clientId,
      refId: '8f14e45f-ceea-467f-a0e6-1c9e5a2b7d33',
      status: 'approved',
      isArchived: false,
      isPing: false,
    });
    expect(body.approvedDate).toEqual(expect.any(String));
    // Never identity data: the sample's name is in its record, not in what is sent.
    expect(delivery!.body).not.toMatch(/identities|Дмитрий|Иванов/);
  });

  it('sends the changes in the order they were made, each with its own guid', async () => {
    const { sandbox, hook } = await sandboxWithReceiver();
    sandbox.setStatus('refId', 'crm-55102', 'waiting');
    sandbox.setStatus('refId', 'crm-55102', 'inreview');
    sandbox.setStatus('refId', 'crm-55102', 'rejected');
    const deliveries = await hook.next(3);
    const bodies = deliveries.map((d) => JSON.parse(d.body) as { event: string; guid: string });
    expect(bodies.map((b) => b.event)).toEqual(['user.readyToReview', 'user.inReview', 'review.rejected']);
    expect(new Set(bodies.map((b) => b.guid)).size).toBe(3);
    expect(deliveries.every(signedRight)).toBe(true);
  });

  it("sends the service's X-Blockpass-Event and X-Blockpass-Delivery headers: the body's event, and its guid as the delivery id", async () => {
    const { sandbox, hook } = await sandboxWithReceiver();
    sandbox.setStatus('refId', 'crm-55102', 'waiting');
    sandbox.setStatus('refId', 'crm-55102', 'approved');
    const deliveries = await hook.next(2);
    const bodies = deliveries.map((d) => JSON.parse(d.body) as { event: string; guid: string });
    expect(deliveries.map((d) => [d.event, d.deliveryId])).toEqual(bodies.map((b) => [b.event, b.guid]));
    expect(deliveries.map((d) => d.event)).toEqual(['user.readyToReview', 'review.approved']);
  });

  it('sends nothing for a candidate it does not have, and nothing without a receiver', async () => {
    const { sandbox, hook } = await sandboxWithReceiver();
    expect(sandbox.setStatus('refId', 'nobody-here', 'approved')).toBe(false);
    const quiet = await startSandbox({ candidates: await sampleCandidates({ now: new Date() }) });
    running.push(quiet);
    expect(quiet.setStatus('refId', 'crm-55102', 'approved')).toBe(true);
    sandbox.setStatus('refId', 'crm-55102', 'blocked');
    const deliveries = await hook.next(1);
    expect(deliveries.map((d) => JSON.parse(d.body).refId)).toEqual(['crm-55102']);
    expect(JSON.parse(deliveries[0]!.body).event).toBe('user.blocked');
  });

  it("names each documented status's event as the service does", () => {
    expect(['waiting', 'inreview', 'approved', 'rejected', 'blocked'].map(webhookEventOf)).toEqual([
      'user.readyToReview',
      'user.inReview',
      'review.approved',
      'review.rejected',
      'user.blocked',
    ]);
  });
});

describe('POST /api/sandbox/simulate', () => {
  async function appWith(simulate: boolean) {
    const { sandbox, hook } = await sandboxWithReceiver();
    const simulated = simulatedSamples(sandbox);
    const environment = testEnvironment(
      { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: 'unused' },
      { samples: simulate ? simulated.samples : samplesOf(sandbox.candidates) },
    );
    const app = await startTestApp({ environments: [simulate ? { ...environment, simulate: simulated.simulate } : environment] });
    running.push(app);
    const post = (body: unknown) => requestWithBody(app.port, '/api/sandbox/simulate', JSON.stringify(body));
    return { hook, post, app };
  }

  it("keeps the home page's sample card to the status the decision gave, by refId or by recordId", async () => {
    const { post, app } = await appWith(true);
    const sampleOf = async (id: string) => {
      const meta = JSON.parse((await rawRequest(app.port, '/api/meta')).body) as ApiMeta;
      return meta.samples?.find((sample) => sample.id === id);
    };
    const statusOf = async (id: string) => (await sampleOf(id))?.status;
    const start = await sampleOf('crm-55102');
    expect(start?.status).toBe('incomplete');
    expect((await post({ kind: 'refId', id: 'crm-55102', action: 'approve' })).status).toBe(200);
    expect(await statusOf('crm-55102')).toBe('approved');
    // Its summary described the status it started with ("Incomplete: …"): the card says where the new one came from.
    expect((await sampleOf('crm-55102'))?.summary).toBe(`Status set here by Simulate. It started as: ${start?.summary}`);
    // A sample shown by refId, its decision taken by recordId.
    const cust = (await sampleCandidates({ now: new Date(), pictures: false })).find((c) => c.record.refId === 'cust_000482')!.record;
    expect((await post({ kind: 'recordId', id: cust.recordId, action: 'block' })).status).toBe(200);
    expect(await statusOf('cust_000482')).toBe('blocked');
  });

  it("takes the decision in the sandbox, which sends the candidate's webhook", async () => {
    const { hook, post } = await appWith(true);
    const answer = await post({ kind: 'refId', id: 'crm-55102', action: 'approve' });
    expect(answer.status).toBe(200);
    const [delivery] = await hook.next(1);
    expect(JSON.parse(delivery!.body)).toMatchObject({ event: 'review.approved', refId: 'crm-55102', status: 'approved' });
  });

  it('refuses an unknown action or candidate with a clear error, changing nothing', async () => {
    const { hook, post } = await appWith(true);
    const unknownAction = await post({ kind: 'refId', id: 'crm-55102', action: 'delete_everything' });
    expect(unknownAction.status).toBe(400);
    expect(JSON.parse(unknownAction.body).error.code).toBe('bad_request');
    const unknownCandidate = await post({ kind: 'refId', id: 'nobody-here', action: 'approve' });
    expect(unknownCandidate.status).toBe(404);
    expect(hook.deliveries).toHaveLength(0);
  });

  it('does not exist without the embedded sandbox', async () => {
    const { hook, post } = await appWith(false);
    const answer = await post({ kind: 'refId', id: 'crm-55102', action: 'approve' });
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body).error.code).toBe('no_such_route');
    expect(hook.deliveries).toHaveLength(0);
  });
});

describe('sandbox mode, wired as npm start wires it', () => {
  it("sends each simulated decision to the app's own receiver, signed with the start's secret, which publishes it", async () => {
    const config = parseConfig({ AUDIT_LOG: path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-sandbox-live-')), 'audit.jsonl') });
    const upstream = await resolveUpstream(config);
    const hub = recordingHub();
    const configured = createApiFromConfig(config, upstream, { hub, queueCrawl: { start: false } });
    const server = await listen(createAppServer({ api: configured.handler, staticDir: 'public' }));
    try {
      upstream.listening?.(`http://127.0.0.1:${server.port}/`);
      const meta = JSON.parse((await rawRequest(server.port, '/api/meta')).body);
      expect(meta.live).toBe(true);
      expect(meta.environments[0].live).toBe(true);
      const published = hub.next();
      const answer = await requestWithBody(
        server.port,
        '/api/sandbox/simulate',
        JSON.stringify({ kind: 'refId', id: 'crm-55102', action: 'approve' }),
      );
      expect(answer.status).toBe(200);
      expect(await published).toMatchObject({ environment: 'sandbox', event: 'review.approved', refId: 'crm-55102', status: 'approved' });
    } finally {
      await server.close();
      await Promise.all([configured.close(), upstream.close()]);
    }
  });
});
