import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signatureMatches, signatureOf } from '../../src/server/http/webhook-signature.ts';
import { startTestApp, type TestApp, testEnvironment } from './http.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { CLIENT_ID, codeOf, deliver, deliveryBody, recordingHub, WEBHOOK_SECRET } from './webhook-fixture.ts';

// The comparison is watched, not timed (tests never assert on time): every forged digest of the right
// form must reach crypto.timingSafeEqual over the whole digest, never a string comparison that stops
// at the first wrong character.
const compared = vi.hoisted(() => ({ calls: [] as Array<[number, number]> }));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  const timingSafeEqual = (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
    compared.calls.push([a.byteLength, b.byteLength]);
    return actual.timingSafeEqual(a, b);
  };
  return { ...actual, default: { ...actual, timingSafeEqual }, timingSafeEqual };
});

let app: TestApp;
const hub = recordingHub();
const audit = memoryAuditLog();

beforeAll(async () => {
  app = await startTestApp({
    environments: [
      { ...testEnvironment({ baseUrl: 'http://127.0.0.1:9', clientId: CLIENT_ID, apiKey: 'k' }), webhookSecret: WEBHOOK_SECRET },
    ],
    hub,
    audit,
  });
});
afterAll(() => app.close());

/** The digest with one hex digit changed at `index`. */
const flipped = (digest: string, index: number) =>
  `${digest.slice(0, index)}${digest[index] === '0' ? '1' : '0'}${digest.slice(index + 1)}`;

describe('webhook attacks', () => {
  it('attack: a forged signature of the right length is refused, compared in constant time over the whole digest', async () => {
    const body = deliveryBody({ guid: 'g-forged' });
    const digest = signatureOf(body, WEBHOOK_SECRET);
    const forgeries = [flipped(digest, 0), flipped(digest, 63), flipped(digest, 32), `sha256=${flipped(digest, 63)}`, 'f'.repeat(64)];
    compared.calls.length = 0;
    for (const signature of forgeries) {
      const res = await deliver(app.port, body, { signature });
      expect(res.status, signature).toBe(401);
      expect(codeOf(res)).toBe('webhook_signature_invalid');
    }
    expect(compared.calls).toEqual(forgeries.map(() => [32, 32]));
    expect(hub.events).toEqual([]);
    expect(audit.lines.filter((line) => line.kind === 'webhook')).toEqual([]);
  });

  it('attack: a 10 MB delivery is refused at 64 kB with its 413, its connection then closed, never read to its end', async () => {
    const total = 10 * 1024 * 1024;
    const outcome = await new Promise<{ status?: number; sent: number; error?: string }>((resolve) => {
      let sent = 0;
      const req = http.request(
        {
          host: '127.0.0.1',
          port: app.port,
          path: '/webhooks/kyc',
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          agent: false,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode, sent }));
        },
      );
      // A reset once the answer came is the connection closing behind it.
      req.on('error', (error: NodeJS.ErrnoException) => resolve({ sent, error: error.code }));
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const write = () => {
        while (sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', write);
        }
        req.end();
      };
      write();
    });
    // The 413 arrives before the connection closes (it used to be cut first, and the sender saw only a reset).
    expect(outcome.status, outcome.error).toBe(413);
    expect(audit.lines.filter((line) => line.kind === 'webhook')).toEqual([]);
    const after = deliveryBody({ guid: 'g-after-flood' });
    expect((await deliver(app.port, after)).status).toBe(200);
  });

  it('attack: a validly signed delivery replayed later is accepted once', async () => {
    const body = deliveryBody({ guid: 'g-replayed', refId: 'ref-replayed' });
    const answers = await Promise.all([deliver(app.port, body), deliver(app.port, body), deliver(app.port, body)]);
    expect(answers.map((res) => JSON.parse(res.body).result).sort()).toEqual(['accepted', 'duplicate', 'duplicate']);
    expect(audit.lines.filter((line) => line.kind === 'webhook' && line.refId === 'ref-replayed')).toHaveLength(1);
  });

  it('attack: a delivery signed for one environment sent to another is refused (each has its own secret)', async () => {
    const body = deliveryBody({ guid: 'g-other-secret' });
    const res = await deliver(app.port, body, { signature: signatureOf(body, 'the-staging-secret') });
    expect(codeOf(res)).toBe('webhook_signature_invalid');
  });
});

describe('webhook signatures (property)', () => {
  it('any body changed after signing is refused', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 512 }),
        fc.uint8Array({ maxLength: 512 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.boolean(),
        (signed, changed, secret, prefixed) => {
          fc.pre(!Buffer.from(signed).equals(Buffer.from(changed)));
          const digest = signatureOf(Buffer.from(signed), secret);
          const header = prefixed ? `sha256=${digest}` : digest;
          expect(signatureMatches(Buffer.from(signed), header, secret)).toBe(true);
          expect(signatureMatches(Buffer.from(changed), header, secret)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('any body changed after signing is refused over HTTP: one byte of a delivery flipped', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 30 }), fc.nat(), fc.integer({ min: 1, max: 255 }), async (refId, at, mask) => {
        const signed = Buffer.from(deliveryBody({ refId: refId || 'r' }));
        const changed = Buffer.from(signed);
        const index = at % changed.length;
        changed[index] = changed[index]! ^ mask;
        // Sent as text: only a change that is still the same bytes once written as UTF-8.
        fc.pre(Buffer.from(changed.toString('utf8')).equals(changed));
        const res = await deliver(app.port, changed.toString('utf8'), { signature: signatureOf(signed, WEBHOOK_SECRET) });
        expect(res.status).toBe(401);
      }),
      { numRuns: 25 },
    );
  });
});
