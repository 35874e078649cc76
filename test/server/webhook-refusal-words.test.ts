import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readDelivery } from '../../src/server/live/webhook-delivery.ts';
import type { TestApp } from './http.ts';
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

/**
 * A refused delivery's answer is all the service's console shows of it: it names the field that is
 * missing or cannot be read and what was expected, never what the field held. And a body is read as
 * JSON is (a UTF-8 BOM before it, as lookups' answers may carry one), its signature checked over the
 * bytes as sent.
 */
let app: TestApp;
let hub: ReturnType<typeof recordingHub>;
let service: AgreeingService;
let close: () => Promise<void>;

beforeEach(async () => {
  ({ app, hub, service, close } = await startWebhookApp((made) => [webhookEnvironment(made, CLIENT_ID, WEBHOOK_SECRET)]));
});
afterEach(() => close());

const messageOf = (body: string) => (JSON.parse(body) as { error: { message: string } }).error.message;
const without = (field: string) => {
  const body = JSON.parse(deliveryBody()) as Record<string, unknown>;
  delete body[field];
  return JSON.stringify(body);
};

describe('a refused webhook delivery names what is wrong', () => {
  it('names the missing required field and what was expected, for each of guid, event and clientId', async () => {
    for (const field of ['guid', 'event', 'clientId']) {
      const res = await deliver(app.port, without(field));
      expect(res.status, field).toBe(400);
      expect(codeOf(res)).toBe('webhook_delivery_invalid');
      expect(messageOf(res.body), field).toContain(`${field} is missing (text expected)`);
    }
    expect(hub.events).toEqual([]);
  });

  it('names a field of the wrong kind by its kind, never its value', async () => {
    const res = await deliver(app.port, deliveryBody({ event: ['secret-word-in-a-list'] }));
    expect(res.status).toBe(400);
    expect(messageOf(res.body)).toContain('event: text expected, a list found');
    expect(res.body).not.toContain('secret-word');
  });

  it('names both ids when neither names the candidate', async () => {
    const res = await deliver(app.port, deliveryBody({ refId: { x: 1 }, recordId: null }));
    expect(messageOf(res.body)).toContain('neither recordId (missing) nor refId (text expected, an object found) names the candidate');
  });

  it('says the body is not JSON without repeating what the parser saw of it', async () => {
    const res = await deliver(app.port, '{"guid": "g1", oops');
    expect(messageOf(res.body)).toContain('it is not JSON');
    expect(res.body).not.toContain('oops');
  });
});

describe('a webhook delivery read liberally where reading does not mislead', () => {
  it('reads a signed body that starts with a UTF-8 BOM, the signature over the bytes as sent', async () => {
    const published = hub.next();
    const res = await deliver(app.port, `\uFEFF${deliveryBody({ guid: 'g-bom', refId: 'ref-bom', recordId: 'rec-bom' })}`);
    expect(res.status, res.body).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: 'success', result: 'accepted' });
    expect(await published).toMatchObject({ refId: 'ref-bom', recordId: 'rec-bom', status: 'approved' });
  });

  it('reads a guid or recordId sent as a whole number as its digits, the candidate confirmed under them', async () => {
    service.set({ status: 'approved', recordId: '12345', isArchived: false });
    const published = hub.next();
    const res = await deliver(app.port, deliveryBody({ guid: 123, recordId: 12345, refId: undefined }));
    expect(res.status, res.body).toBe(200);
    expect(await published).toMatchObject({ recordId: '12345', refId: null, status: 'approved' });
  });

  it('refuses a guid past 2^53 (its digits were not read exactly), naming it', async () => {
    const body = deliveryBody({ guid: 0 }).replace('"guid":0', '"guid":12345678901234567890');
    const res = await deliver(app.port, body);
    expect(res.status).toBe(400);
    expect(messageOf(res.body)).toContain('guid: text expected, a number too large to read exactly found');
  });
});

describe('readDelivery, whatever a required field holds', () => {
  const odd = fc.oneof(
    fc.constant(undefined),
    fc.jsonValue({ maxDepth: 1 }).filter((value) => typeof value !== 'string' || value === '' || value.length > 256),
  );
  it('reads it, or refuses it naming that field and never its value', () => {
    fc.assert(
      fc.property(fc.constantFrom('guid', 'event', 'clientId'), odd, (field, value) => {
        const body: Record<string, unknown> = { guid: 'g-1', event: 'review.approved', clientId: 'acme', refId: 'r-1' };
        body[field] = value;
        const read = readDelivery(Buffer.from(JSON.stringify(body)));
        const readable = typeof value === 'number' && field !== 'event' && Number.isSafeInteger(value) && value >= 0;
        if (readable) return void expect(read.kind === 'delivery' && read.delivery[field]).toBe(String(value));
        expect(read.kind).toBe('unreadable');
        const reason = read.kind === 'unreadable' ? read.reason : '';
        expect(reason.startsWith(field)).toBe(true);
        if (typeof value === 'string' && value.length > 3) expect(reason).not.toContain(value);
      }),
      { numRuns: 300 },
    );
  });

  it('reads a body with a BOM before it as the same body without', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 2 }), (json) => {
        const text = JSON.stringify({ guid: 'g-1', event: 'e', clientId: 'acme', refId: 'r-1', extra: json });
        expect(readDelivery(Buffer.from(`\uFEFF${text}`))).toEqual(readDelivery(Buffer.from(text)));
      }),
    );
  });
});
