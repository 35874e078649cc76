import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ArchivingFindings, findingName } from '../../src/server/archiving/archiving-findings.ts';
import { type Scan, watchWillArchiveAt } from '../../src/server/answer/archive-watch.ts';
import { createArchivingGuard } from '../../src/server/archiving/archiving-guard.ts';
import { createLogger } from '../../src/server/log/log.ts';
import { listen } from './http.ts';

/** A real HTTP response whose body arrives in the given pieces, with the given encoding. */
let serve: (res: http.ServerResponse) => void = () => {};
let port = 0;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ port, close } = await listen(http.createServer((_req, res) => serve(res))));
});
afterAll(() => close());

async function scanned(pieces: Buffer[], encoding?: string, cut = false, said: string[] = []): Promise<Scan> {
  serve = (res) => {
    res.writeHead(200, encoding ? { 'content-encoding': encoding } : {});
    let index = 0;
    const next = () =>
      index < pieces.length ? res.write(pieces[index++], () => setImmediate(next)) : cut ? res.socket?.destroy() : res.end();
    next();
  };
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
        res.on('error', () => {});
        // Once: the value as soon as it is seen, null at the end of a body without it, undefined for one cut short.
        // `said`: the record's end without it ('absent'), before the body's ('done').
        const done = (scan: Scan) => {
          said.push('done');
          resolve(scan);
        };
        watchWillArchiveAt(res, done, undefined, () => said.push('absent'));
        res.resume();
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
    expect(await scanned([body()])).toBeNull();
    expect(await scanned([zlib.gzipSync(body())], 'gzip')).toBeNull();
    // Inside a string value (escaped quotes, as in a certificate's JSON text) it is not the field.
    expect(await scanned([body(`,"certs":{"c":"{\\"willArchiveAtDate\\":\\"${AT}\\"}"}`)])).toBeNull();
  });

  it('says the record ended without it before the body ends, and still finds it in a second `data`', async () => {
    const said: string[] = [];
    expect(
      await scanned([Buffer.from('{"data":{"x":{"data":{}},"status":"approved"},"note":"'), Buffer.from('rest"}')], undefined, false, said),
    ).toBeNull();
    expect(said).toEqual(['absent', 'done']);
    const inflated: string[] = [];
    expect(await scanned([zlib.gzipSync(body(',"z":1'))], 'gzip', false, inflated)).toBeNull();
    expect(inflated).toEqual(['absent', 'done']);
    const twice: string[] = [];
    expect(await scanned([Buffer.from(`{"data":{"a":1},"data":{"willArchiveAtDate":"${AT}"}}`)], undefined, false, twice)).toBe(AT);
    expect(twice).toEqual(['absent', 'done']);
    // Found in the record, or a record that is not an object: never said absent.
    const found: string[] = [];
    expect(await scanned([body(`,"willArchiveAtDate":"${AT}"`)], undefined, false, found)).toBe(AT);
    const notRecord: string[] = [];
    expect(await scanned([Buffer.from('{"data":[{"a":1}],"note":"x"}')], undefined, false, notRecord)).toBeNull();
    expect([found, notRecord]).toEqual([['done'], ['done']]);
  });

  it('says a body cut short, or in an encoding it cannot read, is not known to lack it', async () => {
    expect(await scanned([body().subarray(0, 5000)], undefined, true)).toBeUndefined();
    expect(await scanned([body()], 'zstd')).toBeUndefined();
    // Seen before the cut: known all the same.
    const whole = body(`,"willArchiveAtDate":"${AT}"`);
    expect(await scanned([whole.subarray(0, whole.length - 2)], undefined, true)).toBe(AT);
  });
});

describe('the archiving guard', () => {
  const lookupAt = Date.parse('2026-11-22T14:02:00.000Z');
  /** A request's log, as the guard is given one: its warning lines' texts land in `warnings`. */
  const capture = () => {
    const warnings: string[] = [];
    const log = createLogger({ write: (text: string) => void warnings.push(JSON.parse(text).msg) }, 'warn');
    return { warnings, log };
  };

  it('detects a date less than 24 h after the lookup, warns once, then refuses', async () => {
    const { warnings, log } = capture();
    const guard = createArchivingGuard({ accept: false });
    expect(await guard.refusal(log)).toBeUndefined();
    await guard.observe('2026-12-12T14:02:00.000Z', lookupAt, log); // 20 days: an ordinary schedule
    await guard.observe(undefined, lookupAt, log);
    await guard.observe('2026-11-22T13:00:00.000Z', lookupAt, log); // before the lookup: set by someone else
    await guard.observe(null, lookupAt, log);
    expect(await guard.state()).toBeUndefined();
    await Promise.all([guard.observe(AT, lookupAt, log), guard.observe(AT, lookupAt, log)]);
    await guard.observe(AT, lookupAt, log);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^WARNING: .*archives identity data after each full lookup.*10 s after the lookup.*"archiveOnExtract": "accept" in CONFIG_FILE/,
    );
    expect(await guard.state()).toMatchObject({ accepted: false });
    expect(await guard.refusal(log)).toMatchObject({ status: 409, code: 'archiving_key' });
    expect((await guard.refusal(log))!.message).toContain('set "archiveOnExtract": "accept" for this environment in CONFIG_FILE');
    expect(warnings).toHaveLength(1);
  });

  it('attack: a willArchiveAtDate that is no date ("soon", a number) is the finding, its date unknown, the value never logged', async () => {
    for (const value of ['soon', { notADate: 'a number' }]) {
      const { warnings, log } = capture();
      const guard = createArchivingGuard({ accept: false });
      await guard.observe(value, lookupAt, log);
      expect(await guard.refusal(log)).toMatchObject({ status: 409, code: 'archiving_key' });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^WARNING: .*a form that is no date \(its value is not logged\)/);
      expect(warnings[0]).not.toContain('soon');
    }
  });

  it('with the setting, detects and warns but never refuses', async () => {
    const { warnings, log } = capture();
    const guard = createArchivingGuard({ accept: true });
    await guard.observe(AT, lookupAt, log);
    expect(await guard.state()).toMatchObject({ accepted: true });
    expect(await guard.refusal(log)).toBeUndefined();
    expect(warnings[0]).toContain('"archiveOnExtract": "accept" is set');
  });

  it('refuses at once, before the finding is recorded, and fails closed when it cannot be read', async () => {
    let stored: string | undefined;
    let release = () => {};
    const slow: ArchivingFindings = {
      describe: () => 'a slow store',
      read: async () => stored,
      record: (_name, detectedAt) =>
        new Promise((resolve) => {
          release = () => {
            stored = detectedAt;
            resolve(true);
          };
        }),
    };
    const { log } = capture();
    const guard = createArchivingGuard({ accept: false, findings: slow });
    const observed = guard.observe(AT, lookupAt, log);
    expect(await guard.refusal(log)).toMatchObject({ code: 'archiving_key' });
    release();
    await observed;
    expect(await guard.refusal(log)).toMatchObject({ code: 'archiving_key' });

    const broken: ArchivingFindings = { ...slow, read: () => Promise.reject(Object.assign(new Error('denied'), { code: 'EACCES' })) };
    const { warnings, log: blindLog } = capture();
    const blind = createArchivingGuard({ accept: false, findings: broken });
    // Its own code: the shared store is not down, and sign-in is not paused.
    expect(await blind.refusal(blindLog)).toMatchObject({ status: 503, code: 'archiving_check_unavailable' });
    expect(await blind.refusal(blindLog)).toMatchObject({ status: 503, code: 'archiving_check_unavailable' });
    expect(await blind.state()).toBeUndefined();
    // Said once, with why, not at every refused lookup.
    expect(warnings).toEqual([expect.stringMatching(/^The archive-after-extract finding in a slow store cannot be read \(EACCES\)/)]);
  });

  it('keys the finding by environment and a fingerprint of the key, never the key', () => {
    const name = findingName('production', 'the-secret-api-key');
    expect(name).toMatch(/^archiving-key-production-[0-9a-f]{16}$/);
    expect(name).not.toContain('the-secret-api-key');
    expect(findingName('production', 'another-key')).not.toBe(name);
    expect(findingName('staging', 'the-secret-api-key')).not.toBe(name);
  });
});
