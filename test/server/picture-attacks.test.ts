import { mkdtempSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditLog } from '../../src/server/audit/audit.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { makePreview, PREVIEW_LIMITS } from '../../src/server/answer/picture-preview.ts';
import { greyTiff, heavySvg, paddedPdf } from '../fixtures/hostile-pictures.mjs';
import { startFakeUpstream } from './fake-upstream.ts';
import { documentPictures, heavySvgPictures, picturesBody, RECORD } from './hostile-upstream.ts';
import { cookieOf, signIn, startTestApp, type TestApp } from './http.ts';
import { getBytes, type PartsResponse, reassemble } from './parts.ts';
import { testPasswordHash } from './passwords.ts';
import { noiseJpeg, noisePng } from './preview-pictures.ts';

/**
 * Issue 31's first finding: one record whose pictures were CPU-heavy SVGs took every libuv thread for
 * minutes (sharp's timeout does not interrupt librsvg, and the preview code freed its slot at 5 s
 * anyway), so every audit write and sign-in waited. Now only JPEG, PNG and WebP are decoded, in preview
 * processes that are killed when they overrun. With a real sharp, a real audit file and real scrypt.
 */

const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-picture-attacks-'));
const usersFile = path.join(dir, 'users.json');
let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
let app: TestApp;
/** How the service answers `refId/<id>`; any other id gets a small record. */
const answers = new Map<string, (res: http.ServerResponse) => void>();

function plainRecord(refId: string): Buffer {
  return Buffer.from(
    JSON.stringify({ status: 'success', data: { ...RECORD, refId, identities: { given_name: { type: 'string', value: 'Ana' } } } }),
  );
}

beforeAll(async () => {
  const user = async (username: string, role: string) => ({
    username,
    passwordHash: await testPasswordHash(`${username} password ok`),
    role,
  });
  writeFileSync(
    usersFile,
    JSON.stringify({ users: [await user('ana', 'compliance'), await user('sam', 'compliance'), await user('tom', 'support')] }),
  );
  upstream = await startFakeUpstream();
  upstream.behave = (req, res) => {
    const id = decodeURIComponent(String(req.url).split('/').at(-1) ?? '');
    const answer = answers.get(id);
    if (answer) return answer(res);
    const body = plainRecord(id);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  };
  app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'picture-attack-key-5d1e' },
    access: createAccessControl({ mode: 'users', usersFile, sessionMaxAgeMinutes: 60, sessionIdleMinutes: 10 }, { signInDelayMs: 1 }),
    // A real file: each line is written through libuv's thread pool, as in production.
    audit: createAuditLog(path.join(dir, 'audit.jsonl')),
    settings: {
      limits: {
        upstreamTimeoutMs: 120_000,
      },
    },
  });
});
afterAll(async () => {
  await app.close();
  await upstream.close();
});

const session = async (username: string) => cookieOf(await signIn(app.port, username, `${username} password ok`));

/** A record's answer sent whole. */
function serve(id: string, body: Buffer): void {
  answers.set(id, (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
}

type Identities = Record<string, { value: { part: string; type: string } }>;
const referenceOf = (first: { data: Record<string, unknown> }, name: string) => (first.data.identities as Identities)[name]!.value;

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;

describe('issue 31: pictures that took the threads audit writes and sign-ins need', () => {
  it("attack: one compliance user opens a record of four CPU-heavy SVGs; another user's lookups and sign-ins keep working while it is open", async () => {
    // On a server that decoded them, the four renders would all be running within a second: each picture's
    // time limit passing (100 ms here) freed its slot for the next, and none of the renders stopped.
    const { timeLimitMs } = PREVIEW_LIMITS;
    PREVIEW_LIMITS.timeLimitMs = 100;
    const pictures = heavySvgPictures();
    const body = picturesBody(pictures, 'heavy-svg');
    // The service sends every picture, then holds the last bytes of the record until the rounds below are done.
    const tail = 64;
    let finish = () => {};
    let sent = () => {};
    const picturesSent = new Promise<void>((resolve) => {
      sent = resolve;
    });
    answers.set('heavy-svg', (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.write(body.subarray(0, body.length - tail), () => sent());
      finish = () => res.end(body.subarray(body.length - tail));
    });
    try {
      const [ana, sam] = [await session('ana'), await session('sam')];
      // The key's first full answer, read: until then full lookups go one at a time (archiving-guard.ts).
      expect((await getBytes(app.port, '/api/candidates/refId/warm-up', { cookie: sam, accept: 'application/json' })).status).toBe(200);
      let heavyDone = false;
      const heavy = getBytes(app.port, '/api/candidates/refId/heavy-svg', { cookie: ana, 'accept-encoding': 'gzip' }).finally(() => {
        heavyDone = true;
      });
      await picturesSent;

      const lookups: number[] = [];
      const signIns: number[] = [];
      const timed = async <T>(into: number[], work: () => Promise<T>) => {
        const start = performance.now();
        const result = await work();
        into.push(performance.now() - start);
        return result;
      };
      for (let round = 0; round < 120; round++) {
        const [lookup, signedIn] = await Promise.all([
          timed(lookups, () => getBytes(app.port, `/api/candidates/refId/other-${round}`, { cookie: sam, accept: 'application/json' })),
          timed(signIns, () => signIn(app.port, 'tom', 'tom password ok')),
        ]);
        expect(lookup.status, lookup.body.toString()).toBe(200);
        expect(JSON.parse(lookup.body.toString()).data.refId).toBe(`other-${round}`);
        expect(signedIn.status, signedIn.body).toBe(200);
      }
      // Every one of them was served while the heavy record was still open.
      expect(heavyDone).toBe(false);
      console.log(
        `issue 31, heavy SVG record open: ${lookups.length} lookups p99 ${percentile(lookups, 99).toFixed(0)} ms, ` +
          `${signIns.length} sign-ins p99 ${percentile(signIns, 99).toFixed(0)} ms`,
      );

      finish();
      const { first, previews, pictures: parts } = await reassemble(await heavy);
      for (const [name, bytes] of Object.entries(pictures)) {
        const reference = referenceOf(first, name);
        expect(reference.type).toBe('image/svg+xml');
        expect(parts.get(reference.part)!.headers['content-type']).toBe('application/octet-stream');
        expect(parts.get(reference.part)!.body.equals(bytes)).toBe(true);
      }
      expect(previews.size).toBe(0);
    } finally {
      PREVIEW_LIMITS.timeLimitMs = timeLimitMs;
      finish();
    }
  }, 120_000);

  it('attack: SVG, TIFF and PDF pictures are never decoded: each part names its type, and only the JPEG gets a preview', async () => {
    const pictures = { passport: heavySvg(), ...documentPictures(), selfie: await noiseJpeg(1600, 1000) };
    serve('documents', picturesBody(pictures, 'documents'));
    const res: PartsResponse = await getBytes(app.port, '/api/candidates/refId/documents', { cookie: await session('ana') });
    expect([res.status, res.cut]).toEqual([200, false]);
    const { first, previews, pictures: parts } = await reassemble(res);
    const types = Object.fromEntries(Object.keys(pictures).map((name) => [name, referenceOf(first, name).type]));
    expect(types).toEqual({
      passport: 'image/svg+xml',
      residence_permit: 'image/tiff',
      proof_of_address: 'application/pdf',
      selfie: 'image/jpeg',
    });
    for (const name of ['passport', 'residence_permit', 'proof_of_address']) {
      const part = parts.get(referenceOf(first, name).part)!;
      expect(part.headers['content-type'], name).toBe('application/octet-stream');
      expect(part.body.equals(pictures[name as keyof typeof pictures]), name).toBe(true);
    }
    expect([...previews.keys()]).toEqual([referenceOf(first, 'selfie').part]);
  }, 60_000);
});

describe('makePreview', () => {
  it('attack: reads the type from the first bytes and decodes none but JPEG, PNG and WebP', async () => {
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(400_000)]);
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.alloc(400_000)]);
    const refused = { SVG: heavySvg(), TIFF: greyTiff(640, 500), PDF: paddedPdf(400_000), GIF: gif, HEIF: heic };
    for (const [label, bytes] of Object.entries(refused)) {
      expect(await makePreview(bytes), label).toEqual({ ok: false, problem: `not decoded: a file of type ${label}` });
    }
    expect(await makePreview(Buffer.from('plain text, not a picture'))).toEqual({
      ok: false,
      problem: 'not decoded: a file of an unknown type',
    });
    expect(await makePreview(await noisePng(200, 100))).toMatchObject({ ok: true, width: 200, height: 100 });
  }, 60_000);
});
