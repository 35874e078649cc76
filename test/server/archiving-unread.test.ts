import http from 'node:http';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { PARTS_ACCEPT } from '../../src/kyc/contract/picture-parts.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { APP_HEADERS, type RawResponse, startTestApp, type TestApp } from './http.ts';

/**
 * The service schedules the deletion when it answers a full-level request with such a key, whether or
 * not anyone reads the answer: the server reads it to the end for `willArchiveAtDate` even when the
 * browser has left, or the answer was refused. The sandbox and the real service put the field last,
 * after the pictures.
 */
const record: CandidateRecord = (await sampleCandidates({ now: new Date() }))[0]!.record;
const COMPLIANCE = { 'x-user': 'ana', 'x-role': 'compliance' };
const SUPPORT = { 'x-user': 'sam', 'x-role': 'support' };
const LOOKUP = `/api/candidates/refId/${encodeURIComponent(record.refId!)}`;
const KEY = 'full-key-that-archives-after-extract';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

interface Served {
  /** Wait before the status line (ms). */
  headersAfterMs?: number;
  /** Wait between the pictures and the rest (ms). */
  restAfterMs?: number;
  /** A field put first in the record (e.g. the key, reflected). */
  first?: Record<string, string>;
  gzip?: boolean;
}

/** A full record of ~2 MB of pictures, its willArchiveAtDate last, sent in two pieces. */
async function service(served: Served = {}) {
  const upstream = await startFakeUpstream();
  const picture = 'A'.repeat(2 * 1024 * 1024);
  upstream.behave = (_req, res) => {
    const willArchiveAtDate = new Date(Date.now() + 10_000).toISOString();
    const data = { ...served.first, ...record, identities: { selfie: { type: 'base64', value: picture } } };
    const head = JSON.stringify({ status: 'success', data });
    const whole = Buffer.from(`${head.slice(0, -2)},"willArchiveAtDate":"${willArchiveAtDate}"}}`);
    const body = served.gzip ? zlib.gzipSync(whole) : whole;
    const cut = Math.floor(body.length * 0.9);
    setTimeout(() => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': body.length,
        ...(served.gzip ? { 'content-encoding': 'gzip' } : {}),
      });
      res.write(body.subarray(0, cut));
      setTimeout(() => res.end(body.subarray(cut)), served.restAfterMs ?? 0);
    }, served.headersAfterMs ?? 0);
  };
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: KEY },
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
  });
  cleanups.push(async () => {
    await app.close();
    await upstream.close();
  });
  return { upstream, app };
}

/**
 * A browser that leaves: once the service has the request (`asked`: not after a fixed time, which on a
 * loaded machine could come before the server had asked at all, and then nothing was there to archive),
 * or as soon as the first bytes of the body arrive.
 */
function leave(app: TestApp, headers: Record<string, string>, when: { asked: { seen: unknown[] } } | 'first bytes'): Promise<void> {
  return new Promise((resolve) => {
    const req = http.get(
      { host: '127.0.0.1', port: app.port, path: LOOKUP, headers: { ...APP_HEADERS, ...headers }, agent: false },
      (res) => {
        res.once('data', () => {
          if (when === 'first bytes') req.destroy();
        });
        res.on('error', () => {});
        res.on('close', () => resolve());
      },
    );
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    if (when !== 'first bytes') {
      const asked = when.asked;
      const check = setInterval(() => {
        if (asked.seen.length === 0) return;
        clearInterval(check);
        req.destroy();
      }, 5);
    }
  });
}

const codeOf = (res: RawResponse) => apiErrorBodySchema.parse(JSON.parse(res.body)).error.code;

/** The next full lookup is refused before it reaches the service: the first one was seen to archive. */
async function expectRefusedNext(app: TestApp, upstream: { seen: unknown[] }) {
  const next = await app.get(LOOKUP, COMPLIANCE);
  expect(next.status).toBe(409);
  expect(codeOf(next)).toBe('archiving_key');
  expect(upstream.seen).toHaveLength(1);
}

describe('a full answer nobody reads to its end is still seen to archive', () => {
  it('when the browser leaves before the status line', async () => {
    const { upstream, app } = await service({ headersAfterMs: 300 });
    await leave(app, COMPLIANCE, { asked: upstream });
    await expectRefusedNext(app, upstream);
  });

  it('when the browser leaves after the first bytes, before the field streamed past', async () => {
    const { upstream, app } = await service({ restAfterMs: 300 });
    await leave(app, COMPLIANCE, 'first bytes');
    await expectRefusedNext(app, upstream);
  });

  it('when the browser asked in parts and leaves while the record is read', async () => {
    const { upstream, app } = await service({ restAfterMs: 300 });
    await leave(app, { ...COMPLIANCE, accept: PARTS_ACCEPT }, { asked: upstream });
    await expectRefusedNext(app, upstream);
  });

  it('when a support user without a status key leaves', async () => {
    const { upstream, app } = await service({ restAfterMs: 300 });
    await leave(app, SUPPORT, { asked: upstream });
    await expectRefusedNext(app, upstream);
  });

  it('when the answer is refused for holding the key', async () => {
    const { upstream, app } = await service({ first: { note: KEY }, restAfterMs: 300 });
    const first = await app.get(LOOKUP, COMPLIANCE);
    expect(first.status === 502 || first.cut).toBe(true);
    await expectRefusedNext(app, upstream);
  });

  it('when the answer is refused for being compressed although none was asked for', async () => {
    const { upstream, app } = await service({ gzip: true, restAfterMs: 300 });
    const first = await app.get(LOOKUP, COMPLIANCE);
    expect(first.status).toBe(502);
    await expectRefusedNext(app, upstream);
  });
});
