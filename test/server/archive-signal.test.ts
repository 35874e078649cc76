import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { archivesOnExtract, archivesWithoutDate } from '../../src/kyc/contract/archiving.ts';
import { readTimestamp } from '../../src/kyc/contract/record-fields.ts';
import { PARTS_ACCEPT } from '../../src/kyc/contract/picture-parts.ts';
import { type Scan, watchWillArchiveAt } from '../../src/server/answer/archive-watch.ts';
import { createArchivingGuard } from '../../src/server/archiving/archiving-guard.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { createLogger } from '../../src/server/log/log.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp } from './http.ts';

/**
 * `willArchiveAtDate` is only sent by a key that archives after extract (upstream-api-facts.md): its
 * presence is the signal, whatever form its value takes. A number or text that is no date used to pass
 * unnoticed (200, then 200 again: a candidate's data deleted per lookup).
 */
const COMPLIANCE = { 'x-user': 'ana', 'x-role': 'compliance' };
const SUPPORT = { 'x-user': 'sam', 'x-role': 'support' };
const LOOKUP = '/api/candidates/refId/cust-1';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A service whose full answers carry `willArchiveAtDate` as this raw JSON text. */
async function serviceSending(rawValue: string) {
  const upstream = await startFakeUpstream();
  upstream.behave = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      `{"status":"success","data":{"status":"approved","refId":"cust-1","recordId":"0123456789abcdef01234567","willArchiveAtDate":${rawValue}}}`,
    );
  };
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key' },
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
  });
  cleanups.push(async () => {
    await app.close();
    await upstream.close();
  });
  return { upstream, app };
}

const NOT_DATES = [
  '1764549409000',
  '"soon"',
  '""',
  '{"at":"2026-12-01T00:00:10Z"}',
  '["2026-12-01T00:00:10Z"]',
  'true',
  `"${'9'.repeat(80)}"`,
];

describe('attack: willArchiveAtDate that is no ISO text hides a key that deletes what it reads', () => {
  for (const raw of NOT_DATES) {
    it(`a plain lookup answered with willArchiveAtDate: ${raw.slice(0, 40)} flags the key: the next full lookup is refused`, async () => {
      const { upstream, app } = await serviceSending(raw);
      expect((await app.get(LOOKUP, COMPLIANCE)).status).toBe(200);
      const next = await app.get(LOOKUP, COMPLIANCE);
      expect(next.status).toBe(409);
      expect(apiErrorBodySchema.parse(JSON.parse(next.body)).error.code).toBe('archiving_key');
      expect(upstream.seen).toHaveLength(1);
    });
  }

  it('in parts, and for a support user without a status key, the same', async () => {
    for (const headers of [{ ...COMPLIANCE, accept: PARTS_ACCEPT }, SUPPORT]) {
      const { upstream, app } = await serviceSending('1764549409000');
      await app.get(LOOKUP, headers);
      expect((await app.get(LOOKUP, COMPLIANCE)).status).toBe(409);
      expect(upstream.seen).toHaveLength(1);
    }
  });

  it('null is no value: a record with willArchiveAtDate null does not flag the key', async () => {
    const { app } = await serviceSending('null');
    expect((await app.get(LOOKUP, COMPLIANCE)).status).toBe(200);
    expect((await app.get(LOOKUP, COMPLIANCE)).status).toBe(200);
  });
});

/** What the archive watch reads of `data.willArchiveAtDate` in this body. */
function scanOfBody(body: string): Promise<Scan> {
  return new Promise((resolve) => {
    const source = Object.assign(new PassThrough(), { headers: {} });
    watchWillArchiveAt(source as never, resolve);
    source.end(body);
    source.resume();
  });
}

describe('which values of willArchiveAtDate flag the key', () => {
  it('any JSON value but null, read from the answer, flags the key unless it is a readable timestamp (whose date decides)', async () => {
    const lookupAt = Date.parse('2026-12-01T00:00:00Z');
    const log = createLogger({ write: () => {} });
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        fc.pre(value !== null);
        const scan = await scanOfBody(
          JSON.stringify({ status: 'success', data: { status: 'approved', refId: 'r', willArchiveAtDate: value } }),
        );
        const guard = createArchivingGuard({ accept: false, now: () => lookupAt });
        await guard.observe(scan, lookupAt, log, 'refId:r');
        const readable = readTimestamp(value) !== undefined;
        const expected = !readable || archivesOnExtract(value, lookupAt) !== undefined;
        expect((await guard.state()) !== undefined).toBe(expected);
        expect(archivesWithoutDate(value)).toBe(!readable);
      }),
      { numRuns: 300 },
    );
  });
});
