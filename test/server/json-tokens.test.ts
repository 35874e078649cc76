import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasControl, isPlainAscii } from '../../src/server/answer/json-bytes.ts';
import { AnswerScan, QuietReader } from '../../src/server/answer/answer-scan.ts';
import { JsonSyntaxError, JsonTokenizer, JsonTooDeepError, MAX_DEPTH } from '../../src/server/answer/json-tokens.ts';
import { RecordSplitter } from '../../src/server/answer/record-parts.ts';
import type { TextPiece } from '../../src/server/answer/text-piece.ts';
import { anyCodePoint } from '../support/any-code-point.ts';
import { cutAt } from '../support/cut-at.ts';

/**
 * The tokenizer of answers in parts, against what the browser does with the plain answer: decode the
 * bytes (TextDecoder: a byte order mark dropped, bytes that are not UTF-8 as U+FFFD) and JSON.parse
 * them. Whatever that accepts comes out of RecordSplitter as the same value, however the bytes are cut
 * into chunks; whatever it refuses is refused.
 */

/** The record as RecordSplitter writes it from the tokens, parsed; throws where the tokenizer refuses. */
function viaTokens(chunks: Buffer[]): unknown {
  const splitter = new RecordSplitter('b');
  const scan = new AnswerScan();
  scan.add(splitter);
  for (const chunk of chunks) if (!scan.write(chunk)) throw scan.failure;
  if (!scan.end()) throw scan.failure;
  expect(splitter.done).toBe(true);
  return JSON.parse(Buffer.concat(splitter.result().first).toString('latin1'));
}

const asBrowser = (bytes: Buffer): unknown => JSON.parse(new TextDecoder().decode(bytes));

function outcome(read: () => unknown): { ok: true; value: string } | { ok: false } {
  try {
    return { ok: true, value: JSON.stringify(read()) };
  } catch (error) {
    if (error instanceof JsonSyntaxError || error instanceof SyntaxError) return { ok: false };
    throw error;
  }
}

const sameAsBrowser = (bytes: Buffer, cuts: number[]) =>
  expect(outcome(() => viaTokens(cutAt(bytes, cuts)))).toEqual(outcome(() => asBrowser(bytes)));

/** The pieces of string values' text, as handed on. */
class TextPieces extends QuietReader {
  constructor(private readonly onPiece: (piece: string) => void) {
    super();
  }
  override text(piece: TextPiece, inKey: boolean): void {
    if (!inKey) this.onPiece(piece.text);
  }
}

const cuts = fc.array(fc.nat(), { maxLength: 8 });
const json = fc.jsonValue({ maxDepth: 4, stringUnit: anyCodePoint });

// Generated cases by the thousand, all CPU: seconds on a quiet machine, up to a minute beside two busy
// processes (the run under load in .ci/run) or other work. Nothing here waits on a timer.
describe('the tokenizer of answers in parts', { timeout: 120_000 }, () => {
  it('reads any JSON value as JSON.parse does, however its bytes are cut into chunks', () => {
    fc.assert(
      fc.property(json, cuts, fc.constantFrom(undefined, 1, '\t', '\r\n'), fc.boolean(), (value, at, space, bom) => {
        const text = Buffer.from(JSON.stringify(value, null, space as never));
        const bytes = bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text]) : text;
        expect(JSON.stringify(viaTokens(cutAt(bytes, at)))).toBe(JSON.stringify(value));
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses a byte inserted, removed or replaced exactly when the browser would, and reads the rest alike', () => {
    const edit = fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('insert', 'remove', 'replace'));
    fc.assert(
      fc.property(json, edit, cuts, (value, [at, byte, how], chunkCuts) => {
        const text = Buffer.from(JSON.stringify(value));
        const p = at % (text.length + 1);
        const rest = text.subarray(how === 'insert' ? p : p + 1);
        const bytes = Buffer.concat([text.subarray(0, p), how === 'remove' ? Buffer.alloc(0) : Buffer.from([byte]), rest]);
        sameAsBrowser(bytes, chunkCuts);
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads strings of any bytes (cut characters, stray continuation bytes, escapes) as the browser decodes them', () => {
    const piece = fc.oneof(
      fc.uint8Array({ maxLength: 12 }).map((b) => Buffer.from(b).toString('latin1')),
      fc.constantFrom('\\u', '\\ud83d', '\\ude00', '\\ud83d\\ude00', '\\n', '\\"', '\\\\', '\\/', 'é', '😀', '\\x', '\\u12'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), cuts, (pieces, at) => {
        sameAsBrowser(Buffer.from(`{"a":["${pieces.join('')}"],"${pieces.join('')}":1}`, 'latin1'), at);
      }),
      { numRuns: 5000 },
    );
  });

  it('takes a byte order mark only at the very start, also when a chunk ends inside it', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const body = Buffer.from('{"a":"x"}');
    for (const at of [[1], [2], [1, 2], [3]]) expect(viaTokens(cutAt(Buffer.concat([bom, body]), at))).toEqual({ a: 'x' });
    for (const bytes of [Buffer.concat([bom, bom, body]), Buffer.concat([Buffer.from(' '), bom, body]), bom.subarray(0, 2)]) {
      expect(() => viaTokens([bytes])).toThrow(JsonSyntaxError);
    }
  });

  it('refuses a NUL byte anywhere, trailing text, a second value and an unfinished body', () => {
    for (const text of [
      '{"a":"x\0"}',
      '{"a":1\0}',
      '\0{}',
      '{"a":1} x',
      '{}{}',
      '{"a":1}]',
      '{"a":"x',
      '{"a":"x\\',
      '{"a":1',
      '[1,]',
      '{"a":1,}',
      '',
    ]) {
      for (const at of [[], [1], [text.length - 1]])
        expect(() => viaTokens(cutAt(Buffer.from(text, 'latin1'), at))).toThrow(JsonSyntaxError);
    }
    expect(viaTokens([Buffer.from('{"a":1} \r\n\t')])).toEqual({ a: 1 });
  });

  it('keeps an escaped lone surrogate, and a pair split across chunks, as JSON.parse does', () => {
    const text = Buffer.from('["\\ud800","\\udc00x","\\ud83d\\ude00"]');
    for (let at = 0; at <= text.length; at++) expect(viaTokens(cutAt(text, [at]))).toEqual(JSON.parse(text.toString()));
  });

  it('reads a number of any length alike, whole or cut into one-byte chunks', () => {
    const text = Buffer.from(`[1${'0'.repeat(5000)},-0.${'5'.repeat(3000)}e-7]`);
    const oneByOne = cutAt(
      text,
      Array.from({ length: text.length }, (_, i) => i),
    );
    expect(viaTokens(oneByOne)).toEqual(JSON.parse(text.toString()));
    expect(viaTokens([text])).toEqual(JSON.parse(text.toString()));
    for (const bad of ['[01]', '[1.]', '[.5]', '[1e]', '[+1]', '[-]', '[tru]', '[nulll]', '[1 2]']) {
      expect(() => viaTokens(cutAt(Buffer.from(bad), [2]))).toThrow(JsonSyntaxError);
    }
  });

  it(`reads ${MAX_DEPTH} levels of nesting, and refuses one more as too deep rather than hold every level`, () => {
    const nested = (depth: number) => Buffer.from(`${'[{"a":'.repeat(depth / 2)}1${'}]'.repeat(depth / 2)}`);
    expect(JSON.stringify(viaTokens([nested(MAX_DEPTH)]))).toBe(nested(MAX_DEPTH).toString());
    expect(() => viaTokens([nested(MAX_DEPTH + 2)])).toThrow(JsonTooDeepError);
    // 64 MB of `[` would hold 64 million levels: refused at the first past the limit.
    expect(() => new JsonTokenizer(new QuietReader()).write(Buffer.alloc(1024 * 1024, '['))).toThrow(JsonTooDeepError);
  });

  it('hands a long string on in one piece per chunk, escapes and all, whatever the characters', () => {
    const value = `${'A'.repeat(100_000)}\\n${'é'.repeat(50_000)}${'\\u00e9'.repeat(10_000)}${'\\"'.repeat(10_000)}`;
    const bytes = Buffer.from(`{"a":"${value}"}`);
    const chunks = cutAt(bytes, [65_536, 131_072, 196_608]);
    const pieces: string[] = [];
    const tokenizer = new JsonTokenizer(new TextPieces((piece) => pieces.push(piece)));
    for (const chunk of chunks) tokenizer.write(chunk);
    tokenizer.end();
    expect(pieces).toHaveLength(chunks.length);
    expect(pieces.join('')).toBe(JSON.parse(bytes.toString()).a);
  });

  it('reads a 64 MB string, handed on as it comes', () => {
    const size = 64 * 1024 * 1024;
    const tokenizer = new JsonTokenizer(new TextPieces((piece) => (received += piece.length)));
    let received = 0;
    tokenizer.write(Buffer.from('"'));
    const chunk = Buffer.alloc(64 * 1024, 'Q');
    for (let sent = 0; sent < size; sent += chunk.length) tokenizer.write(chunk);
    tokenizer.write(Buffer.from('"'));
    tokenizer.end();
    expect(received).toBe(size);
  });

  it('finds a control byte at any place and alignment, and none among the others', () => {
    const bytes = Buffer.alloc(64, 0x41);
    for (let from = 0; from < 8; from++) {
      for (let at = from; at < 40; at++) {
        for (const control of [0x00, 0x0a, 0x1f]) {
          bytes[at] = control;
          expect(hasControl(bytes, from, 40)).toBe(true);
          expect(hasControl(bytes, at + 1, 64)).toBe(false);
          bytes[at] = 0x41;
        }
      }
    }
    const others = Buffer.from(Array.from({ length: 256 - 0x20 }, (_, i) => i + 0x20));
    for (let from = 0; from < 4; from++) expect(hasControl(others, from, others.length)).toBe(false);
  });

  it('tells ASCII without a control byte from the rest as a byte-by-byte check does, for any bytes, range and memory alignment', () => {
    // Mostly letters, so that long runs pass the word-at-a-time loop and a stray byte stands anywhere in them.
    const bytes = fc.array(
      fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 0x20, max: 0x7f }) }, { weight: 1, arbitrary: fc.nat(0xff) }),
      {
        maxLength: 300,
      },
    );
    fc.assert(
      fc.property(bytes, fc.nat(7), fc.nat(), fc.nat(), (values, shift, a, b) => {
        // Shifted inside a larger buffer: the run starts at any byte of a word of memory.
        const buf = Buffer.alloc(values.length + shift).subarray(shift);
        buf.set(values);
        const from = a % (buf.length + 1);
        const to = from + (b % (buf.length - from + 1));
        const plain = [...buf.subarray(from, to)].every((c) => c >= 0x20 && c <= 0x7f);
        expect(isPlainAscii(buf, from, to)).toBe(plain);
      }),
      { numRuns: 3000 },
    );
    const letters = Buffer.alloc(200, 0x41);
    for (const odd of [0x00, 0x1f, 0x80, 0xff]) {
      for (let at = 0; at < 100; at++) {
        letters[at] = odd;
        expect(isPlainAscii(letters, 0, 200)).toBe(false);
        expect(isPlainAscii(letters, at + 1, 200)).toBe(true);
        letters[at] = 0x41;
      }
    }
  });
});
