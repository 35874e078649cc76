import { afterEach, describe, expect, it } from 'vitest';
import { AnswerScan } from '../../src/server/answer/answer-scan.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { Base64Collector } from '../../src/server/answer/base64-collector.ts';
import { RecordSplitter } from '../../src/server/answer/record-parts.ts';
import {
  archiveBody,
  base64KeyBody,
  equalsPictureBody,
  escapedKeyBody,
  numberArrayBody,
  sendInChunks,
  startHostileUpstream,
} from './hostile-upstream.ts';
import { getBytes, partsOf, recordPartOf } from './parts.ts';
import { startTestApp } from './http.ts';

/** Issue 20, findings 1 to 4: answers of a hostile upstream, read by the one scan of each answer. */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
const KEY = 'live-key-3f9a/"c27e81d0';
const as = (user: string, role = 'compliance') => ({ 'x-user': user, 'x-role': role });
const gateway = () => createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] });

async function hostile(
  body: () => Buffer,
  options: { chunkBytes?: number; partsMemoryBytes?: number; acceptArchiving?: boolean; patient?: boolean } = {},
) {
  const upstream = await startHostileUpstream(body, options.chunkBytes);
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: KEY },
    access: gateway(),
    settings: {
      ...(options.partsMemoryBytes ? { partsMemoryBytes: options.partsMemoryBytes } : {}),
      // Accepted, full lookups do not wait one at a time for the first to show the key does not archive.
      ...(options.acceptArchiving ? { keyArchivesOnExtract: 'accept' as const } : {}),
      // Eight 60 MB answers on a loaded machine can outlast the service's 15 s: a 504 then says nothing of the attack.
      ...(options.patient ? { limits: { upstreamTimeoutMs: 110_000, upstreamAnswerTimeoutMs: 110_000 } } : {}),
    },
  });
  cleanups.push(app.close, upstream.close);
  return { upstream, app };
}

/** A plain JSON lookup (no parts asked for). */
const plain = (port: number, user = 'ana', role = 'compliance') =>
  getBytes(port, '/api/candidates/refId/r', { ...as(user, role), accept: 'application/json' });
const inParts = (port: number, user = 'ana') => getBytes(port, '/api/candidates/refId/r', as(user));
const errorCode = (res: { body: Buffer }) => JSON.parse(res.body.toString()).error.code as string;

describe('finding 1: answers in parts of a record that is mostly numbers', () => {
  it('attack: a record of two million numbers asked in parts holds its length in bytes, not a string per number', () => {
    const body = numberArrayBody(4_000_000);
    let held = 0;
    const splitter = new RecordSplitter('b', (bytes) => {
      held += bytes;
      return true;
    });
    const scan = new AnswerScan();
    scan.add(splitter);
    for (let at = 0; at < body.length; at += 16 * 1024) scan.write(body.subarray(at, at + 16 * 1024));
    expect(scan.end()).toBe(true);
    // One block of 64 KiB at most beyond the record's own length.
    expect(held).toBeLessThanOrEqual(body.length + 64 * 1024);
    const first = JSON.parse(Buffer.concat(splitter.result().first).toString('latin1'));
    expect(first.data.x).toHaveLength(2_000_000);
  });

  it('attack: eight answers in parts of number records at once, from two users: each gets its parts or a 503 with Retry-After, and the server goes on', async () => {
    const body = numberArrayBody(6_000_000);
    // Room for about two such records at once: the others are refused, not held.
    const { app } = await hostile(() => body, { partsMemoryBytes: 14 * 1024 * 1024, acceptArchiving: true, patient: true });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => inParts(app.port, i % 2 === 0 ? 'ana' : 'bea')));
    for (const res of answers) expect([200, 503]).toContain(res.status);
    const busy = answers.filter((res) => res.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const res of busy) {
      expect(errorCode(res)).toBe('server_busy');
      expect(res.headers['retry-after']).toBe('5');
    }
    const whole = answers.filter((res) => res.status === 200);
    expect(whole.length).toBeGreaterThan(0);
    const first = recordPartOf(await partsOf(whole[0]!));
    expect(JSON.parse(first!.body.toString()).data.x).toHaveLength(3_000_000);
    // Every answer's share was given back: the next one is built.
    expect((await inParts(app.port)).status).toBe(200);
  }, 120_000);
});

describe('finding 2: an identity value of "=" and megabytes of "A"', () => {
  it('attack: "=" then 16 MB of "A" in 16 KiB pieces is handed on as text, read once, not rescanned at every piece', () => {
    const held: number[] = [];
    const collector = new Base64Collector((bytes) => held.push(bytes));
    const piece = 'A'.repeat(16 * 1024);
    collector.push(`=${piece}`);
    for (let i = 1; i < 1024; i++) collector.push(piece);
    const collected = collector.end();
    expect(collected.kind).toBe('text');
    const text = collected.kind === 'text' ? collected.pieces.join('') : '';
    expect(text.length).toBe(16 * 1024 * 1024 + 1);
    expect(text.startsWith('=AAAA')).toBe(true);
    // Once known not to be base64, each piece is kept as it came: the text's length, once.
    expect(held.reduce((sum, bytes) => sum + bytes, 0)).toBe(text.length);
  });

  it('attack: characters beyond Latin-1 in a base64 value are text, never decoded by their low byte into a picture', () => {
    // Found by the fuzzer: Node's base64 decoder reads "񜕁𡰯" (four UTF-16 units) as three bytes, "1AG/".
    for (const value of ['񜕁𡰯', 'AAA\u0141', '\u00c1AAA']) {
      const collector = new Base64Collector(() => {});
      collector.push(value);
      const collected = collector.end();
      expect(collected).toEqual({ kind: 'text', pieces: expect.any(Array) });
      expect(collected.kind === 'text' ? collected.pieces.join('') : '').toBe(value);
    }
  });

  it('attack: such a picture asked in parts is sent as text in the first part, as the plain answer has it', async () => {
    const body = equalsPictureBody(4 * 1024 * 1024);
    const { app } = await hostile(() => body);
    const res = await inParts(app.port);
    expect(res.status).toBe(200);
    const parts = await partsOf(res);
    expect(parts.filter((part) => part.headers['content-id']!.startsWith('picture-'))).toHaveLength(0);
    expect(JSON.parse(recordPartOf(parts)!.body.toString())).toEqual(JSON.parse(body.toString()));
  }, 60_000);
});

describe('finding 3: the archive check reads data.willArchiveAtDate at that path', () => {
  const soon = () => new Date(Date.now() + 10_000).toISOString();
  const farAhead = '2099-01-01T00:00:00.000Z';

  it('attack: a custom field named willArchiveAtDate dated far ahead, before the real one, does not hide it', async () => {
    const { app } = await hostile(() => archiveBody({ custom: farAhead, real: soon() }));
    expect((await plain(app.port)).status).toBe(200);
    const next = await plain(app.port);
    expect(next.status).toBe(409);
    expect(errorCode(next)).toBe('archiving_key');
  });

  it('attack: a custom field named willArchiveAtDate alone, dated soon, raises no finding', async () => {
    const { app } = await hostile(() => archiveBody({ custom: soon(), nested: soon() }));
    expect((await plain(app.port)).status).toBe(200);
    expect((await plain(app.port)).status).toBe(200);
  });

  it('attack: 400 bytes of whitespace between the key and its colon, cut across chunks, do not hide it', async () => {
    const { app } = await hostile(() => archiveBody({ real: soon(), whitespace: 400 }), { chunkBytes: 100 });
    expect((await plain(app.port)).status).toBe(200);
    expect((await plain(app.port)).status).toBe(409);
  });
});

describe('finding 4: the key in a form only a decoder shows', () => {
  it('attack: the key with every character \\u-escaped in a string is refused, plain, in parts and for support users', async () => {
    const { app } = await hostile(() => escapedKeyBody(KEY));
    for (const res of [await plain(app.port), await inParts(app.port), await plain(app.port, 'sam', 'support')]) {
      expect(res.status).toBe(502);
      expect(JSON.parse(res.body.toString()).error.message).toContain('KYC_BASE_URL');
      expect(res.body.toString()).not.toContain('\\u006c\\u0069\\u0076\\u0065');
    }
    expect(app.logs.join('\n')).toContain("contained this server's API key");
  });

  it('attack: the key base64-encoded as an identity picture, at any alignment, is refused before a part is sent', async () => {
    let lead = 0;
    const { app } = await hostile(() => base64KeyBody(KEY, lead));
    for (lead = 0; lead < 3; lead++) {
      const res = await inParts(app.port);
      expect(res.status).toBe(502);
      expect(res.body.toString()).not.toContain(Buffer.from(KEY).toString('base64').slice(4, 20));
      const cut = await plain(app.port);
      expect(cut.status === 502 || cut.cut).toBe(true);
    }
  });
});

describe('finding 4: the key in a picture written partly with escapes', () => {
  it("hands the last decoded bytes to the key's search when the letters stop being the answer's bytes, so a key cut there is found", () => {
    const key = Buffer.from(KEY);
    // 65536 letters (one decode) end ten bytes into the key; the rest comes escaped.
    const letters = Buffer.concat([Buffer.alloc(49_152 - 10, 7), key, Buffer.alloc(300, 7)]).toString('base64');
    const searched: Buffer[] = [];
    const collector = new Base64Collector(
      () => {},
      (bytes) => searched.push(bytes),
    );
    collector.push(letters.slice(0, 65_536), true);
    expect(searched).toEqual([]);
    collector.push(letters.slice(65_536), false);
    expect(collector.end().kind).toBe('bytes');
    expect(Buffer.concat(searched).includes(key)).toBe(true);
  });

  it('attack: the key base64-encoded in a picture whose letters turn to \\u escapes inside the key is refused, at any alignment and turn', async () => {
    let lead = 0;
    let turn = 0;
    const { app } = await hostile(() => {
      const value = Buffer.concat([Buffer.alloc(3000 + lead, 7), Buffer.from(KEY), Buffer.alloc(3000, 7)]).toString('base64');
      // Plain letters up to a point inside the key's letters, every letter after it as a \u escape.
      const at = 4000 + turn;
      const escaped = [...value.slice(at)].map((char) => `\\u00${char.charCodeAt(0).toString(16)}`).join('');
      const body = `{"status":"success","data":{"status":"approved","refId":"r","recordId":"${'a'.repeat(24)}","isArchived":false,"identities":{"selfie":{"type":"base64","value":"${value.slice(0, at)}${escaped}"}}}}`;
      return Buffer.from(body);
    });
    for (lead = 0; lead < 3; lead++) {
      for (turn = 2; turn < 40; turn += 9) {
        const res = await inParts(app.port);
        expect(res.status === 502 || res.cut).toBe(true);
        expect(res.body.toString()).not.toContain('live-key');
      }
    }
  });
});

describe('the hostile upstream itself', () => {
  it('sends a body in the chunks asked for, whole', async () => {
    const body = archiveBody({ real: '2030-01-01T00:00:00.000Z', whitespace: 400 });
    const { app } = await hostile(() => body, { chunkBytes: 7 });
    const res = await plain(app.port);
    expect(res.body.equals(body)).toBe(true);
    expect(typeof sendInChunks).toBe('function');
  });
});
