import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PARTS_ACCEPT } from '../../src/kyc/contract/picture-parts.ts';
import { MAX_DEPTH } from '../../src/server/answer/json-tokens.ts';
import { keySearch } from '../../src/server/answer/key-watch.ts';
import { readStatusLevelStreamed } from '../../src/server/answer/status-level-read.ts';
import { TOO_DEEP as TOO_DEEP_FAILURE } from '../../src/server/answer/upstream-body.ts';
import { ndjson, type RawResponse, requestWithBody } from './http.ts';
import { serviceAndApp } from './service-app.ts';

/**
 * An answer nested deeper than the one scan holds (MAX_DEPTH, json-tokens.ts) is refused at every level;
 * the status level used to call it "not a readable record, perhaps encrypted" (its failures had no
 * `tooDeep`), sending an administrator to check KYC_BASE_URL and the key, where the full level said why.
 */

const { upstream, app } = await serviceAndApp((baseUrl) => ({ upstream: { baseUrl, clientId: 'client_deep', apiKey: 'deep-key-5e1a' } }));

/** A valid record whose one custom field `x` is `depth` arrays deep. */
function deepRecord(depth: number): string {
  const head = '{"status":"success","data":{"status":"inreview","refId":"r","isArchived":false,"customFields":{"x":';
  return `${head}${'['.repeat(depth)}${']'.repeat(depth)}}}}`;
}

function answer(body: string) {
  upstream.behave = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
}

const said = (res: RawResponse) => {
  const { code, message } = JSON.parse(res.body).error as { code: string; message: string };
  return `${res.status} ${code}: ${message}`;
};
const TOO_DEEP = "502 upstream_error: The KYC service's answer is nested deeper than 1000 levels, so it could not be sent.";

describe('attack: a custom field nested 200 000 arrays deep', () => {
  it('is refused as too deep in the same words at the full level, in parts, at status level and in a batch row, never as "not a record"', async () => {
    answer(deepRecord(200_000));
    const full = await app.get('/api/candidates/refId/r', { accept: 'application/json' });
    const parts = await app.get('/api/candidates/refId/r', { accept: PARTS_ACCEPT });
    const status = await app.get('/api/status/refId/r', { accept: 'application/json' });
    expect([said(full), said(parts), said(status)]).toEqual([TOO_DEEP, TOO_DEEP, TOO_DEEP]);

    const batch = await requestWithBody(app.port, '/api/batch', JSON.stringify({ kind: 'refId', ids: ['r'] }));
    const row = ndjson(batch.body).find((event) => event.type === 'row') as { code: string; message: string };
    expect(`502 ${row.code}: ${row.message}`).toBe(TOO_DEEP);
  });

  it('one level within the bound is a record at status level, the deep field passed over', async () => {
    answer(deepRecord(996));
    const status = await app.get('/api/status/refId/r', { accept: 'application/json' });
    expect(status.status).toBe(200);
    expect(JSON.parse(status.body).data).toMatchObject({ status: 'inreview', refId: 'r' });
  });
});

/** A record with a value `depth` levels deep (objects or lists, as `shape` says) at `where`, read to status level in `chunk`-byte pieces. */
function statusLevelOf(depth: number, shape: boolean[], where: 'custom' | 'data' | 'envelope', chunk: number) {
  const opening = Array.from({ length: depth }, (_, i) => (shape[i % shape.length] ? '{"k":' : '['));
  const closing = opening.map((open) => (open === '[' ? ']' : '}')).reverse();
  const deep = `${opening.join('')}1${closing.join('')}`;
  const data = `"status":"approved","refId":"r","isArchived":false`;
  const body = {
    custom: `{"status":"success","data":{${data},"customFields":{"x":${deep}}}}`,
    data: `{"status":"success","data":{"x":${deep},${data}}}`,
    envelope: `{"status":"success","extra":${deep},"data":{${data}}}`,
  }[where];
  const bytes = Buffer.from(body);
  const chunks = Array.from({ length: Math.ceil(bytes.length / chunk) }, (_, i) => bytes.subarray(i * chunk, (i + 1) * chunk));
  const source = Object.assign(Readable.from(chunks, { objectMode: false }), { complete: true, headers: {}, statusCode: 200 });
  return readStatusLevelStreamed(source, 64 * 1024 * 1024, keySearch(['deep-key-5e1a']), ['x']);
}

describe('the status level and the depth bound', () => {
  it('refuses as too deep exactly the answers nested past MAX_DEPTH, wherever the deep value is, and reads the rest', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: MAX_DEPTH - 4, max: MAX_DEPTH + 50 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('custom' as const, 'data' as const, 'envelope' as const),
        fc.integer({ min: 1, max: 4096 }),
        async (depth, shape, where, chunk) => {
          // The envelope is one level, `data` a second, `customFields` a third: the value's own levels come on top.
          const total = depth + { envelope: 1, data: 2, custom: 3 }[where];
          const read = await statusLevelOf(depth, shape, where, chunk);
          if (total > MAX_DEPTH) expect(read).toEqual({ ok: false, failure: TOO_DEEP_FAILURE });
          else expect(read.ok && (read.value as { data: { status: string } }).data.status).toBe('approved');
        },
      ),
      { numRuns: 60 },
    );
  });
});
