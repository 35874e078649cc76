import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArchivingGuard, watchWillArchiveAt } from '../../src/server/archiving-guard.ts';
import { listen } from './http.ts';

/** A real HTTP response whose body arrives in the given pieces, with the given encoding. */
let serve: (res: http.ServerResponse) => void = () => {};
let port = 0;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ port, close } = await listen(http.createServer((_req, res) => serve(res))));
});
afterAll(() => close());

async function scanned(pieces: Buffer[], encoding?: string): Promise<string | undefined> {
  serve = (res) => {
    res.writeHead(200, encoding ? { 'content-encoding': encoding } : {});
    let index = 0;
    const next = () => (index < pieces.length ? res.write(pieces[index++], () => setImmediate(next)) : res.end());
    next();
  };
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
        let found: string | undefined;
        watchWillArchiveAt(res, (value) => {
          found = value;
          // An encoded body is inflated after it arrives: its finding comes when it comes.
          if (encoding) resolve(value);
        });
        res.resume();
        // Unencoded, the scan is done with the last chunk.
        if (!encoding) res.once('end', () => resolve(found));
      })
      .on('error', reject);
  });
}

const AT = '2026-11-22T14:02:10.000Z';
const body = (extra = '') =>
  Buffer.from(
    `{"status":"success","data":{"status":"approved","identities":{"x":{"type":"base64","value":"${'A'.repeat(100_000)}"}}${extra}}}`,
  );

describe('watching a streamed record for willArchiveAtDate', () => {
  it('finds it wherever the chunks are cut', async () => {
    const whole = body(`,"willArchiveAtDate" : "${AT}"`);
    const keyAt = whole.indexOf('willArchive');
    for (const cut of [keyAt - 1, keyAt + 5, keyAt + 25, keyAt + 30, whole.length - 5]) {
      expect(await scanned([whole.subarray(0, cut), whole.subarray(cut)]), `cut at ${cut}`).toBe(AT);
    }
  });

  it('finds it in a gzip or brotli body, and not where there is none', async () => {
    const whole = body(`,"willArchiveAtDate":"${AT}"`);
    const gz = zlib.gzipSync(whole);
    expect(await scanned([gz.subarray(0, 100), gz.subarray(100)], 'gzip')).toBe(AT);
    expect(await scanned([zlib.brotliCompressSync(whole)], 'br')).toBe(AT);
    expect(await scanned([zlib.deflateSync(whole)], 'deflate')).toBe(AT);
    expect(await scanned([body()])).toBeUndefined();
    // Inside a string value (escaped quotes, as in a certificate's JSON text) it is not the field.
    expect(await scanned([body(`,"certs":{"c":"{\\"willArchiveAtDate\\":\\"${AT}\\"}"}`)])).toBeUndefined();
  });
});

describe('the archiving guard', () => {
  const lookupAt = Date.parse('2026-11-22T14:02:00.000Z');

  it('detects a date less than 24 h after the lookup, warns once, then refuses', () => {
    const warnings: string[] = [];
    const guard = createArchivingGuard({ accept: false, warn: (line) => warnings.push(line) });
    expect(guard.refusal()).toBeUndefined();
    guard.observe('2026-12-12T14:02:00.000Z', lookupAt); // 20 days: an ordinary schedule
    guard.observe(undefined, lookupAt);
    guard.observe('2026-11-22T13:00:00.000Z', lookupAt); // before the lookup: set by someone else
    guard.observe('not a date', lookupAt);
    expect(guard.state()).toBeUndefined();
    guard.observe(AT, lookupAt);
    guard.observe(AT, lookupAt);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^WARNING: .*archives identity data after each full lookup.*10 s after the lookup.*KYC_KEY_ARCHIVES_ON_EXTRACT=accept/,
    );
    expect(guard.state()).toMatchObject({ accepted: false });
    expect(guard.refusal()).toMatchObject({ status: 409, code: 'archiving_key' });
    expect(guard.refusal()!.message).toContain('KYC_KEY_ARCHIVES_ON_EXTRACT=accept');
  });

  it('with the setting, detects and warns but never refuses', () => {
    const warnings: string[] = [];
    const guard = createArchivingGuard({ accept: true, warn: (line) => warnings.push(line) });
    guard.observe(AT, lookupAt);
    expect(guard.state()).toMatchObject({ accepted: true });
    expect(guard.refusal()).toBeUndefined();
    expect(warnings[0]).toContain('KYC_KEY_ARCHIVES_ON_EXTRACT=accept is set');
  });
});
