import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainRunEnd } from '../../src/server/answer/byte-scan.ts';
import { AnswerScan, QuietReader } from '../../src/server/answer/answer-scan.ts';
import { createAnswerGuard } from '../../src/server/answer/answer-guard.ts';
import { keySearch } from '../../src/server/answer/key-watch.ts';
import { NeedleSet, WASM_FROM } from '../../src/server/answer/needle-set.ts';
import { sleb, uleb } from '../../src/server/answer/wasm-module.ts';
import type { TextPiece } from '../../src/server/answer/text-piece.ts';

/**
 * The WebAssembly scans of every byte (byte-scan.ts) against byte-by-byte references: the end of a
 * string's plain run (the tokenizer's) and the key search's samples (needle-set.ts), at every memory
 * alignment, every chunk split, across the 64 KiB window they are copied in by and the 64-byte step they
 * read. A scan that missed one byte would let a control character, a quote or a key through.
 */

const WINDOW = 65536;
const LETTERS = Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
const letters = (length: number, seed = 7) => {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) out[i] = LETTERS[(i * 31 + seed) % 64]!;
  return out;
};

/** The reference: the first `"`, `\`, byte under 0x20 or over 0x7f from `at`, and whether a space or `=` stands before it. */
function reference(buf: Buffer, at: number): number {
  let flag = 0;
  for (let i = at; i < buf.length; i++) {
    const c = buf[i]!;
    if (c < 0x20 || c > 0x7f || c === 0x22 || c === 0x5c) return i * 2 + flag;
    if (c === 0x20 || c === 0x3d) flag = 1;
  }
  return buf.length * 2 + flag;
}

/** `bytes` copied to start `align` bytes into a fresh memory. */
function aligned(bytes: Uint8Array, align: number): Buffer {
  const memory = Buffer.alloc(bytes.length + align + 16);
  memory.set(bytes, align);
  return memory.subarray(align, align + bytes.length);
}

describe('the run scan (byte-scan.ts)', () => {
  it('ends a run where a byte-by-byte check does, for any bytes, start and memory alignment', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.nat(), fc.nat(15), (bytes, start, align) => {
        const buf = aligned(bytes, align);
        const at = start % (buf.length + 1);
        expect(plainRunEnd({}, buf, at)).toBe(reference(buf, at));
      }),
      { numRuns: 3000 },
    );
  });

  it('ends a run of letters where a byte-by-byte check does across its 64 KiB windows, with any bytes planted anywhere', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: WINDOW - 200, max: 2 * WINDOW + 200 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
        fc.nat(),
        fc.nat(15),
        (length, planted, start, align) => {
          const bytes = letters(length);
          for (const [at, byte] of planted) bytes[at % length] = byte;
          const buf = aligned(bytes, align);
          const at = start % (buf.length + 1);
          expect(plainRunEnd({}, buf, at)).toBe(reference(buf, at));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('attack: a control byte, a byte over 0x7f, a quote or a backslash at each place of a 16- and 64-byte step is where the run ends', () => {
    const stops = [0x00, 0x09, 0x0a, 0x1f, 0x22, 0x5c, 0x7f + 1, 0xc3, 0xff];
    for (let place = 0; place < 192; place++) {
      for (const stop of stops) {
        for (const align of [0, 1, 15]) {
          const bytes = letters(256);
          bytes[place] = stop;
          expect(plainRunEnd({}, aligned(bytes, align), 0)).toBe(place * 2);
        }
      }
    }
    // 0x7f (DEL) and every printable byte other than `"` and `\` continue the run; a space or `=` is noted.
    for (let byte = 0x20; byte <= 0x7f; byte++) {
      if (byte === 0x22 || byte === 0x5c) continue;
      const bytes = letters(200);
      bytes[77] = byte;
      expect(plainRunEnd({}, bytes, 0)).toBe(200 * 2 + (byte === 0x20 || byte === 0x3d ? 1 : 0));
    }
  });

  it('every byte value at each place of three 64-byte steps, and a stray byte of the letters-only loop before a space, `=` or quote: as the reference', () => {
    for (let place = 0; place < 192; place++) {
      for (let byte = 0; byte < 256; byte++) {
        const bytes = letters(256);
        bytes[place] = byte;
        expect(plainRunEnd({}, bytes, 0)).toBe(reference(bytes, 0));
      }
    }
    // The letters-only loop stops at any byte under 0x2b; the run goes on, tested in full, from that step.
    for (const stray of [0x21, 0x23, 0x27, 0x2a]) {
      for (const [first, second] of [
        [10, 20],
        [60, 70],
        [63, 64],
        [100, 250],
      ]) {
        for (const next of [0x20, 0x3d, 0x22, 0x41]) {
          const bytes = letters(320);
          bytes[first!] = stray;
          bytes[second!] = next;
          expect(plainRunEnd({}, bytes, 0)).toBe(reference(bytes, 0));
        }
      }
    }
  });

  it('reads the bytes of the buffer it is given when another read or other bytes came between', () => {
    const buf = letters(1000);
    const owner = {};
    expect(plainRunEnd(owner, buf, 0)).toBe(2000);
    const other = letters(1000);
    other[10] = 0x22;
    expect(plainRunEnd({}, other, 0)).toBe(20);
    // The first owner's window was replaced: its buffer is copied in again, not the other's bytes read.
    expect(plainRunEnd(owner, buf, 5)).toBe(2000);
    // A new owner (the tokenizer's next chunk) copies again, even the same buffer with bytes changed.
    buf[500] = 0x01;
    expect(plainRunEnd({}, buf, 0)).toBe(1000);
  });
});

/** Buffer#includes of each needle: the reference. */
const includesAny = (haystack: Buffer, needles: Buffer[]) => needles.some((needle) => needle.length > 0 && haystack.includes(needle));

describe('the key search in WebAssembly (needle-set.ts over byte-scan.ts)', () => {
  it('answers as Buffer.includes of each needle would, for long haystacks with needles planted anywhere, at any alignment', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ minLength: 8, maxLength: 40 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: WASM_FROM, max: 2 * WINDOW + 300 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 2 }),
        fc.nat(15),
        (needles, length, plants, align) => {
          const bytes = letters(length, 3);
          for (const [which, at] of plants) {
            const needle = needles[which % needles.length]!;
            bytes.set(needle.subarray(0, Math.max(0, length - (at % length))), at % length);
          }
          const haystack = aligned(bytes, align);
          expect(new NeedleSet(needles.map((needle) => Buffer.from(needle))).in(haystack)).toBe(
            includesAny(
              haystack,
              needles.map((needle) => Buffer.from(needle)),
            ),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('attack: finds a key at every offset around the 64 KiB window seam, and none in letters without it', () => {
    const key = Buffer.from('bench-plain-key-35c1e8');
    const set = keySearch([key.toString()]).needles;
    const base = letters(2 * WINDOW + 100, 5);
    expect(set.in(base)).toBe(false);
    for (let at = WINDOW - key.length - 20; at <= WINDOW + 20; at++) {
      const haystack = Buffer.from(base);
      key.copy(haystack, at);
      expect(set.in(haystack)).toBe(true);
    }
  });
});

describe('one copy of a chunk for both scans (byte-scan.ts, one read)', () => {
  it('the key searches of two sets and the run scan, in any order over one read or fresh ones, each answer as its reference', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ minLength: 8, maxLength: 30 }), { minLength: 1, maxLength: 3 }),
        fc.array(fc.uint8Array({ minLength: 8, maxLength: 30 }), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: WASM_FROM, max: 2 * WINDOW + 300 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.boolean()), { maxLength: 3 }),
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'run'), fc.nat(), fc.boolean()), { minLength: 1, maxLength: 8 }),
        (needlesA, needlesB, length, plants, steps) => {
          const bytes = letters(length, 11);
          const all = [...needlesA, ...needlesB];
          for (const [which, at, stop] of plants) {
            if (stop) bytes[at % length] = 0x22;
            else bytes.set(all[which % all.length]!.subarray(0, length - (at % length)), at % length);
          }
          const sets = { a: new NeedleSet(needlesA.map((n) => Buffer.from(n))), b: new NeedleSet(needlesB.map((n) => Buffer.from(n))) };
          const one = {};
          for (const [scan, at, sameRead] of steps) {
            const read = sameRead ? one : {};
            if (scan === 'run') expect(plainRunEnd(read, bytes, at % (length + 1))).toBe(reference(bytes, at % (length + 1)));
            else {
              const needles = (scan === 'a' ? needlesA : needlesB).map((n) => Buffer.from(n));
              expect(sets[scan].in(bytes, read)).toBe(includesAny(bytes, needles));
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('attack: a buffer whose bytes change between two reads is copied again, a quote or a key planted after the first read found', () => {
    const key = Buffer.from('window-reuse-key-9d2f');
    const set = new NeedleSet([key]);
    const buf = letters(WINDOW, 13);
    const first = {};
    expect(set.in(buf, first)).toBe(false);
    expect(plainRunEnd(first, buf, 0)).toBe(WINDOW * 2);
    buf[4000] = 0x22;
    key.copy(buf, 9000);
    const second = {};
    expect(set.in(buf, second)).toBe(true);
    expect(plainRunEnd(second, buf, 0)).toBe(4000 * 2);
  });
});

/** The decoded text of a JSON body's string values, through the one scan. */
function textsOf(chunks: Buffer[]): { ok: boolean; text: string } {
  const scan = new AnswerScan();
  let text = '';
  scan.add(
    new (class extends QuietReader {
      override text(piece: TextPiece, inKey: boolean): void {
        if (!inKey) text += piece.text;
      }
    })(),
  );
  for (const chunk of chunks) if (!scan.write(chunk)) return { ok: false, text: '' };
  return { ok: scan.end(), text };
}

describe('the tokenizer over the run scan', () => {
  it('attack: refuses a control byte at each place of a long string, and reads a byte over 0x7f as the browser does, however the chunks are cut', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 299 }),
        fc.constantFrom(0x00, 0x0a, 0x1f, 0xc3, 0xe9, 0xff),
        fc.nat(320),
        (place, byte, cut) => {
          const inner = letters(300);
          inner[place] = byte;
          const body = Buffer.concat([Buffer.from('{"a":"'), inner, Buffer.from('"}')]);
          const got = textsOf([body.subarray(0, cut % body.length), body.subarray(cut % body.length)]);
          if (byte < 0x20) expect(got.ok).toBe(false);
          else expect(got).toEqual({ ok: true, text: JSON.parse(new TextDecoder().decode(body)).a });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('attack: a quote or a backslash at a 16- or 64-byte edge of a long string ends the run there', () => {
    for (const place of [15, 16, 63, 64, 65, 127, 128]) {
      const inner = letters(200).toString('latin1');
      const quoted = `{"a":"${inner.slice(0, place)}","b":"${inner.slice(place)}"}`;
      expect(textsOf([Buffer.from(quoted)])).toEqual({ ok: true, text: inner });
      const escaped = `{"a":"${inner.slice(0, place)}\\n${inner.slice(place)}"}`;
      expect(textsOf([Buffer.from(escaped)])).toEqual({ ok: true, text: `${inner.slice(0, place)}\n${inner.slice(place)}` });
    }
  });
});

describe('the guard over the WebAssembly scans', () => {
  it('attack: a key reflected across a chunk seam of a long picture is refused, and the key reaches no output', async () => {
    const key = 'bench-plain-key-35c1e8';
    const picture = letters(3 * WINDOW, 9).toString('latin1');
    for (const seamAt of [WINDOW - 5, WINDOW + 11, 2 * WINDOW - 1]) {
      const value = `${picture.slice(0, seamAt)}${key}${picture.slice(seamAt)}`;
      const body = Buffer.from(JSON.stringify({ status: 'success', data: { identities: { selfie: { type: 'base64', value } } } }));
      const cut = body.indexOf(key) + 7;
      // No scan fed upstream of the guard: it tokenizes the body itself.
      const guard = createAnswerGuard({} as Parameters<typeof createAnswerGuard>[0], keySearch([key]));
      const out: Buffer[] = [];
      guard.on('data', (part: Buffer) => out.push(part));
      const failed = new Promise<Error>((resolve) => guard.on('error', resolve));
      guard.write(body.subarray(0, cut));
      guard.write(body.subarray(cut));
      guard.end();
      expect((await failed).message).toMatch(/API key/);
      // The first chunk held seven of the key's bytes: not one of them was passed on.
      expect(Buffer.concat(out).includes(key.slice(0, 7))).toBe(false);
    }
  });
});

describe('the module encoder (wasm-module.ts)', () => {
  it('writes LEB128 numbers as the format reads them', () => {
    expect(uleb(0)).toEqual([0]);
    expect(uleb(624485)).toEqual([0xe5, 0x8e, 0x26]);
    expect(sleb(-1)).toEqual([0x7f]);
    expect(sleb(-123456)).toEqual([0xc0, 0xbb, 0x78]);
    expect(sleb(0x9e3779b1)).toEqual(sleb(0x9e3779b1 | 0));
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), (value) => {
        let result = 0;
        let shift = 0;
        let byte = 0;
        for (const b of sleb(value)) {
          byte = b;
          result |= (b & 0x7f) << shift;
          shift += 7;
        }
        if (shift < 32 && byte & 0x40) result |= -1 << shift;
        expect(result).toBe(value);
      }),
    );
  });
});
