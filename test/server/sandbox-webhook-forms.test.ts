import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { startSandbox } from '../../src/server/sandbox/sandbox.ts';
import { requestWithBody } from './http.ts';

/**
 * The service's deliveries come in forms the sandbox could not send (upstream-api-facts.md: "the sandbox
 * should be able to produce all of them"): the console's test ping, an unsigned delivery (no secret set),
 * the documented form without recordId, and one guid for two events. The test controls send a candidate's
 * webhook as it now is in each (`POST /_test/webhook`), so that a browser test, or anyone trying the
 * receiver, can see the app take each.
 */

const SECRET = 'sandbox-forms-secret';
const running: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

interface Seen {
  body: Record<string, unknown>;
  signature: string | undefined;
  event: string | undefined;
  delivery: string | undefined;
}

/** A sandbox with its test controls, sending to a stand-in receiver that keeps what it gets. */
async function sandboxSendingForms() {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const header = (name: string) => req.headers[name] as string | undefined;
      seen.push({
        body: JSON.parse(text),
        signature: header('x-hub-signature'),
        event: header('x-blockpass-event'),
        delivery: header('x-blockpass-delivery'),
      });
      const signed = header('x-hub-signature') === `sha256=${createHmac('sha256', SECRET).update(text).digest('hex')}`;
      res.end(signed ? 'ok' : 'unsigned');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/kyc`;
  const sandbox = await startSandbox({
    candidates: await sampleCandidates({ now: new Date() }),
    testControls: true,
    webhook: { url, secret: SECRET },
  });
  running.push(sandbox, { close: () => new Promise((resolve) => server.close(resolve)) });
  const port = Number(new URL(sandbox.url).port);
  const form = (body: unknown) => requestWithBody(port, '/_test/webhook', JSON.stringify(body));
  const until = async (count: number) => {
    await expect.poll(() => seen.length).toBeGreaterThanOrEqual(count);
    return seen;
  };
  return { form, until, seen };
}

describe("the sandbox's other webhook forms (POST /_test/webhook)", () => {
  it('sends the console’s test ping: isPing true, signed, the candidate as it now is', async () => {
    const { form, until } = await sandboxSendingForms();
    expect((await form({ kind: 'refId', id: 'crm-55102', form: 'ping' })).status).toBe(200);
    const [ping] = await until(1);
    expect(ping!.body).toMatchObject({ isPing: true, refId: 'crm-55102', event: 'user.created' });
    expect(ping!.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('sends a delivery without X-Hub-Signature, as the service does when no secret is set', async () => {
    const { form, until } = await sandboxSendingForms();
    await form({ kind: 'refId', id: 'crm-55102', form: 'unsigned' });
    const [unsigned] = await until(1);
    expect(unsigned!.signature).toBeUndefined();
    expect(unsigned!.body).toMatchObject({ isPing: false, refId: 'crm-55102' });
  });

  it('sends the documented form without recordId', async () => {
    const { form, until } = await sandboxSendingForms();
    await form({ kind: 'refId', id: 'cust_000482', form: 'no-record-id' });
    const [delivery] = await until(1);
    expect(delivery!.body).not.toHaveProperty('recordId');
    expect(delivery!.body).toMatchObject({ refId: 'cust_000482', isPing: false });
  });

  it('sends two events of one candidate under one guid and one delivery id, as the documentation’s samples do', async () => {
    const { form, until } = await sandboxSendingForms();
    await form({ kind: 'refId', id: 'crm-55102', form: 'guid-reused' });
    const [first, second] = await until(2);
    expect(first!.body.guid).toBe(second!.body.guid);
    expect(first!.delivery).toBe(second!.delivery);
    expect(first!.body.guid).toBe(first!.delivery);
    expect(first!.event).not.toBe(second!.event);
    expect([first!.body.event, second!.body.event]).toEqual([first!.event, second!.event]);
  });

  it('refuses a form it does not know, and a candidate it does not have, sending nothing', async () => {
    const { form, until } = await sandboxSendingForms();
    expect((await form({ kind: 'refId', id: 'crm-55102', form: 'encrypted' })).status).toBe(400);
    expect((await form({ kind: 'refId', id: 'nobody-here', form: 'ping' })).status).toBe(404);
    // Deliveries go out one at a time, in order: had either sent anything, it would come before this one.
    await form({ kind: 'refId', id: 'crm-55102', form: 'ping' });
    const seen = await until(1);
    expect(seen.map((delivery) => [delivery.body.refId, delivery.body.isPing])).toEqual([['crm-55102', true]]);
  });

  it('says so where it has no receiver to send to (npm run sandbox, alone)', async () => {
    const alone = await startSandbox({ candidates: await sampleCandidates({ now: new Date() }), testControls: true });
    running.push(alone);
    const answer = await requestWithBody(
      Number(new URL(alone.url).port),
      '/_test/webhook',
      JSON.stringify({ kind: 'refId', id: 'crm-55102', form: 'ping' }),
    );
    expect(answer.status).toBe(409);
    expect(answer.body).toBe('This sandbox sends no webhooks: it does inside the app (npm start), to its receiver');
  });
});
