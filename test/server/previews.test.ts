import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import sharp from 'sharp';
import { statusLevelOf } from '../../src/kyc/contract/schema.ts';
import { createPartsBudget } from '../../src/server/answer/parts-budget.ts';
import { LookupPreviews } from '../../src/server/answer/parts-writer.ts';
import { makePreview, PREVIEW_LIMITS } from '../../src/server/answer/picture-preview.ts';
import { PreviewPool } from '../../src/server/answer/preview-pool.ts';
import { PreviewSlots } from '../../src/server/answer/preview-slots.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { APP_HEADERS, startTestApp, type TestApp } from './http.ts';
import { PARTS_ACCEPT } from '../../src/kyc/contract/picture-parts.ts';
import { getBytes, reassemble } from './parts.ts';
import { claimedPng, noiseJpeg, noisePng, undecodableJpeg } from './preview-pictures.ts';

let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
let app: TestApp;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'preview-test-key-41d7' },
    settings: {
      limits: {
        upstreamTimeoutMs: 20_000,
      },
    },
  });
});
afterAll(async () => {
  await app.close();
  await upstream.close();
});

const FIELDS = {
  refId: 'preview-1',
  recordId: '65f1c0de0123456789abcdef',
  status: 'approved',
  isArchived: false,
  blockPassID: 'bp-preview-1',
  submitCount: 1,
  waitingDate: '2026-01-02T03:04:05Z',
  approvedDate: '2026-01-03T03:04:05Z',
};

/** The service answers a record with these pictures (base64, in this order), the status fields first. */
function serve(pictures: Record<string, Buffer>, statusAfterIdentities = false): Record<string, unknown> {
  const identities = Object.fromEntries(
    Object.entries(pictures).map(([name, bytes]) => [name, { type: 'base64', value: bytes.toString('base64') }]),
  );
  const data = statusAfterIdentities ? { identities, ...FIELDS } : { ...FIELDS, identities };
  const body = JSON.stringify({ status: 'success', data });
  upstream.behave = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  return data;
}

const lookup = async () => {
  const res = await getBytes(app.port, '/api/candidates/refId/preview-1', { 'accept-encoding': 'gzip' });
  expect([res.status, res.cut]).toEqual([200, false]);
  return reassemble(res);
};

const partOf = (first: { data: Record<string, unknown> }, name: string) =>
  ((first.data.identities as Record<string, { value: { part: string } }>)[name]!.value as { part: string }).part;

async function sizeOf(bytes: Buffer) {
  const { width, height, format, orientation } = await sharp(bytes).metadata();
  return { width, height, format, orientation };
}

describe('an answer in parts with previews', () => {
  it('sends the status level, then the record, then every preview, then every full picture', async () => {
    const data = serve({
      passport: await noiseJpeg(1600, 1000),
      selfie: await noisePng(700, 1100),
      small: await noiseJpeg(120, 80),
      broken: undecodableJpeg(400_000),
    });
    const { order, status, first, envelope, previews } = await lookup();
    const kinds = order.map((name) => name.slice(0, name.indexOf('@')));
    expect(kinds).toEqual(['status', 'record', 'preview-1', 'preview-2', 'picture-1', 'picture-2', 'picture-3', 'picture-4']);
    // The status part holds the status level only: no identity, no picture.
    expect(status).toEqual({ status: 'success', data: statusLevelOf(data as never) });
    expect(status!.data.identities).toBeUndefined();
    expect(envelope.data.status).toBe('approved');
    expect([...previews.keys()]).toEqual([partOf(first, 'passport'), partOf(first, 'selfie')]);
  }, 30_000);

  it('sends the status part too when the service puts the status fields after the identities', async () => {
    const data = serve({ passport: await noiseJpeg(1600, 1000) }, true);
    const { order, status } = await lookup();
    expect(order[0]).toMatch(/^status@/);
    expect(status).toEqual({ status: 'success', data: statusLevelOf(data as never) });
  }, 30_000);

  it('makes previews of JPEG and PNG, landscape and portrait, 640 px on the long side, as JPEG', async () => {
    serve({
      jpegWide: await noiseJpeg(1600, 1000),
      jpegTall: await noiseJpeg(900, 1440),
      pngWide: await noisePng(1100, 700),
      pngTall: await noisePng(700, 1100),
    });
    const { first, previews, pictures } = await lookup();
    const expected = { jpegWide: [640, 400], jpegTall: [400, 640], pngWide: [640, 407], pngTall: [407, 640] };
    for (const [name, [width, height]] of Object.entries(expected)) {
      const preview = previews.get(partOf(first, name))!;
      expect(preview.headers['content-type']).toBe('image/jpeg');
      expect(await sizeOf(preview.body)).toMatchObject({ width, height, format: 'jpeg' });
      expect(preview.body.length).toBeLessThan(pictures.get(partOf(first, name))!.body.length / 3);
    }
  }, 30_000);

  it('turns an EXIF-rotated picture (orientation 6) upright in its preview', async () => {
    const rotated = await noiseJpeg(1600, 1000, 6);
    expect(await sizeOf(rotated)).toMatchObject({ width: 1600, height: 1000, orientation: 6 });
    serve({ passport: rotated });
    const { first, previews, pictures } = await lookup();
    const preview = await sizeOf(previews.get(partOf(first, 'passport'))!.body);
    expect(preview).toMatchObject({ width: 400, height: 640, format: 'jpeg' });
    // Upright in its pixels, so no orientation is left for a viewer to apply twice.
    expect(preview.orientation).toBeUndefined();
    expect(pictures.get(partOf(first, 'passport'))!.body.equals(rotated)).toBe(true);
  }, 30_000);

  it('gives an undecodable picture no preview, and still its full part, as inert as before', async () => {
    const broken = undecodableJpeg(400_000);
    serve({ broken, passport: await noiseJpeg(1600, 1000) });
    const { first, previews, pictures, order } = await lookup();
    expect(previews.has(partOf(first, 'broken'))).toBe(false);
    expect(previews.has(partOf(first, 'passport'))).toBe(true);
    const full = pictures.get(partOf(first, 'broken'))!;
    expect(full.body.equals(broken)).toBe(true);
    expect(full.headers['content-type']).toBe('image/jpeg');
    expect(order.at(-2)).toBe(partOf(first, 'broken'));
  }, 30_000);

  it('attack: a picture of 50000 x 50000 pixels gets no preview and the server keeps serving', async () => {
    const huge = claimedPng(50_000, 50_000, 400_000);
    serve({ huge, passport: await noiseJpeg(1600, 1000) });
    const { first, previews, pictures } = await lookup();
    expect(previews.has(partOf(first, 'huge'))).toBe(false);
    expect(previews.has(partOf(first, 'passport'))).toBe(true);
    expect(pictures.get(partOf(first, 'huge'))!.body.equals(huge)).toBe(true);
    expect((await app.get('/healthz')).status).toBe(200);
    const again = await lookup();
    expect(again.previews.size).toBe(1);
  }, 30_000);

  it('gives a picture that takes longer than the time limit no preview, and still its full part', async () => {
    const passport = await noiseJpeg(1600, 1000);
    serve({ passport });
    const { timeLimitMs } = PREVIEW_LIMITS;
    PREVIEW_LIMITS.timeLimitMs = 0;
    try {
      const { first, previews, pictures } = await lookup();
      expect(previews.size).toBe(0);
      expect(pictures.get(partOf(first, 'passport'))!.body.equals(passport)).toBe(true);
    } finally {
      PREVIEW_LIMITS.timeLimitMs = timeLimitMs;
    }
    expect((await lookup()).previews.size).toBe(1);
  }, 30_000);
});

describe('an instance configured with no previews (limits.previewLookupsAtOnce: 0)', () => {
  it('sends the status level, the record and every full picture, and no preview', async () => {
    const quiet = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'preview-test-key-41d7' },
      settings: {
        limits: {
          upstreamTimeoutMs: 20_000,
          previewLookupsAtOnce: 0,
        },
      },
    });
    try {
      const passport = await noiseJpeg(1600, 1000);
      serve({ passport });
      const res = await getBytes(quiet.port, '/api/candidates/refId/preview-1', { 'accept-encoding': 'gzip' });
      const { order, first, pictures } = await reassemble(res);
      expect(order.map((name) => name.slice(0, name.indexOf('@')))).toEqual(['status', 'record', 'picture-1']);
      expect(pictures.get(partOf(first, 'passport'))!.body.equals(passport)).toBe(true);
    } finally {
      await quiet.close();
    }
  }, 30_000);
});

describe('the status part, sent before the rest is read', () => {
  const opening = `{"status":"success","data":${JSON.stringify(FIELDS).slice(0, -1)},"identities":{"passport":{"type":"base64","value":"${'A'.repeat(4000)}`;

  it('goes out while the service is still sending the pictures', async () => {
    let finish = () => {};
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(opening);
      finish = () => res.end('"}}}}');
    };
    const { status, firstBytes } = await new Promise<{ status: number; firstBytes: string }>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port: app.port, path: '/api/candidates/refId/preview-1', headers: { ...APP_HEADERS, accept: PARTS_ACCEPT } },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => {
            text += chunk.toString('latin1');
            // The status part whole: its JSON ends in two braces.
            if (text.includes('}}')) resolve({ status: res.statusCode!, firstBytes: text });
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
    finish();
    expect(status).toBe(200);
    expect(firstBytes).toMatch(/^--[0-9a-f]{32}\r\nContent-Type: application\/json; charset=utf-8\r\ncontent-id: status@/);
    expect(firstBytes).toContain('"approvedDate":"2026-01-03T03:04:05Z"');
    expect(firstBytes).not.toContain('identities');
  });

  it('a body cut after it: the answer is cut too, never a short answer that looks whole', async () => {
    upstream.behave = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 100_000 });
      res.write(opening);
      setTimeout(() => req.socket.destroy(), 30);
    };
    const res = await getBytes(app.port, '/api/candidates/refId/preview-1');
    expect([res.status, res.cut]).toEqual([200, true]);
    expect(res.body.toString('latin1')).toContain('content-id: status@');
    expect(res.body.toString('latin1')).not.toContain('content-id: record@');
  });

  it('attack: the key after the status fields is never sent, and cuts the answer', async () => {
    const rest = `"},"note":{"type":"string","value":"preview-test-key-41d7"}}}}`;
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(opening + rest) });
      res.write(opening);
      // Once the status part has gone out.
      setTimeout(() => res.end(rest), 100);
    };
    const res = await getBytes(app.port, '/api/candidates/refId/preview-1');
    expect([res.status, res.cut]).toEqual([200, true]);
    expect(res.body.toString('latin1')).toContain('content-id: status@');
    expect(res.body.toString('latin1')).not.toContain('preview-test-key-41d7');
  });
});

describe('makePreview', () => {
  it('refuses a picture over the pixel limit from its header, before decoding it, and says why', async () => {
    const over = claimedPng(8000, 7000, 1000);
    const made = await makePreview(over, PREVIEW_LIMITS);
    expect(made).toMatchObject({ ok: false, problem: expect.stringMatching(/pixel limit/i) });
  });

  it('past its time limit, answers that it ran out of time', async () => {
    const made = await makePreview(await noiseJpeg(1600, 1000), { ...PREVIEW_LIMITS, timeLimitMs: 0 });
    expect(made).toEqual({ ok: false, problem: 'time limit' });
  });
});

describe('the preview slots', () => {
  it('never let more than their number of lookups make previews at once, and serve every one in order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 5 }), fc.array(fc.nat(3), { minLength: 1, maxLength: 30 }), async (slots, work) => {
        const pool = new PreviewSlots(slots);
        let most = 0;
        const served: number[] = [];
        await Promise.all(
          work.map(async (ticks, index) => {
            const release = await pool.take();
            served.push(index);
            most = Math.max(most, pool.inUse);
            for (let tick = 0; tick < ticks; tick++) await Promise.resolve();
            release();
            release();
          }),
        );
        expect(most).toBeLessThanOrEqual(slots);
        expect(served).toEqual(work.map((_, index) => index));
        expect(pool.inUse).toBe(0);
      }),
      { numRuns: 200 },
    );
  });
});

describe("a lookup's previews", () => {
  it('take nothing from the parts budget once the answer is done with, and give their slot back', async () => {
    const budget = createPartsBudget(100 * 1024 * 1024);
    const holding = budget.hold();
    const slots = new PreviewSlots(1);
    const previews = new LookupPreviews(holding, { limits: PREVIEW_LIMITS, slots, pool: new PreviewPool(2) });
    // The slot is busy: the preview waits for it, and the answer is given up meanwhile.
    const busy = await slots.take();
    const bytes = await noiseJpeg(1600, 1000);
    const picture = {
      reference: { part: 'picture-1@b', type: 'image/jpeg', size: bytes.length },
      contentType: 'image/jpeg',
      chunks: [bytes],
    };
    previews.add(picture);
    previews.abandon();
    holding.release();
    busy();
    expect(await previews.of(picture)).toBeUndefined();
    expect(budget.held()).toBe(0);
    // The one slot was given back: another lookup takes it.
    (await slots.take())();
    expect(slots.inUse).toBe(0);
  });
});
