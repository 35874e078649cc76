import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnswerScan, QuietReader } from '../../src/server/answer/answer-scan.ts';
import type { TextPiece } from '../../src/server/answer/text-piece.ts';
import { anyCodePoint } from '../support/any-code-point.ts';
import { cutAt } from '../support/cut-at.ts';

/**
 * The tokenizer hands each piece of a string on as one reused TextPiece whose text is made only when a
 * reader asks (text-piece.ts). Whatever a reader reads of a piece, through `text` or without making it
 * (head, tail, has, length), must be what the text holds: the strings JSON.parse yields, however the
 * bytes are cut into chunks.
 */

const ASCII_PROBES = [' ', '=', 'A', 'a', '+', '/', '"', '\\', '\x7f', '0'];
const SIZES = [0, 1, 4, 5, 7, 22, 63, 64, 65, 200, 1000];

/** Everything a reader may read of a piece, read without its text first, then from its text. */
function readings(piece: TextPiece, read: (piece: TextPiece) => unknown) {
  const lazy = read(piece);
  const text = piece.text;
  const fromText = {
    length: text.length,
    heads: SIZES.map((n) => (n <= 0 ? '' : text.slice(0, n))),
    tails: SIZES.map((n) => (n <= 0 ? '' : text.slice(-n))),
    has: ASCII_PROBES.map((char) => text.includes(char)),
  };
  return { lazy, fromText, text, again: read(piece) };
}

const lazyRead = (piece: TextPiece) => ({
  length: piece.length,
  heads: SIZES.map((n) => piece.head(n)),
  tails: SIZES.map((n) => piece.tail(n)),
  has: ASCII_PROBES.map((char) => piece.has(char)),
});

/** Every string of the text (keys and values, in order) as its pieces join, each piece checked on the way. */
class PieceCheck extends QuietReader {
  readonly strings: string[] = [];
  private current: string[] = [];

  override text(piece: TextPiece): void {
    const { lazy, fromText, text, again } = readings(piece, lazyRead);
    expect(lazy).toEqual(fromText);
    expect(again).toEqual(fromText);
    if (piece.verbatim) {
      // As it stands in the answer: ASCII, no escape, one byte a character.
      expect(piece.buffer!.toString('latin1', piece.from, piece.to)).toBe(text);
      expect(text).toMatch(/^[\x20-\x7f]*$/);
    }
    this.current.push(text);
  }

  override key(name: string): void {
    expect(this.current.join('')).toBe(name);
    this.strings.push(name);
    this.current = [];
  }

  override endString(): void {
    this.strings.push(this.current.join(''));
    this.current = [];
  }
}

/** Every string of a value, keys included, in the order of its JSON text. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, v]) => [key, ...stringsOf(v)]);
  return [];
}

/** JSON.stringify's text with some characters in strings \u-escaped besides (`every` 0: none), so pieces hold escapes too. */
function withEscapes(json: string, every: number): string {
  if (every === 0) return json;
  let out = '';
  let index = 0;
  let inString = false;
  for (let i = 0; i < json.length; ) {
    if (json[i] === '\\') {
      const length = json[i + 1] === 'u' ? 6 : 2;
      out += json.slice(i, i + length);
      i += length;
      continue;
    }
    const char = String.fromCodePoint(json.codePointAt(i)!);
    if (char === '"') inString = !inString;
    const escaped = inString && char !== '"' && index++ % every === 0;
    out += escaped ? unitEscapes(char).join('') : char;
    i += char.length;
  }
  return out;
}

/** Each UTF-16 code unit of a character as a \u escape (JSON.parse joins a pair again). */
const unitEscapes = (char: string) =>
  Array.from({ length: char.length }, (_, k) => `\\u${char.charCodeAt(k).toString(16).padStart(4, '0')}`);

/** Long text: as a picture's letters (long runs of ASCII), or with escapes and characters over 0x7f among them. */
const longText = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('', '=', ' '),
      fc.string({ unit: fc.constantFrom('A', 'b', '0', '+', '/'), maxLength: 300, size: 'max' }),
      fc.constantFrom('', '=', '==', ' ', ' A'),
    )
    .map(([start, letters, end]) => start + letters + end),
  fc.string({ unit: fc.constantFrom('A', 'b', '+', '/', '=', ' ', 'é', '"', '\\', '\n', '😀'), maxLength: 300, size: 'max' }),
);
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 4, stringUnit: anyCodePoint }),
  fc.dictionary(longText, fc.oneof(longText, fc.array(longText, { maxLength: 4 })), { maxKeys: 4 }),
);

// Generated cases by the thousand, all CPU: seconds on a quiet machine, up to a minute beside two busy
// processes (the run under load in .ci/run) or other work. Nothing here waits on a timer.
describe('a piece of a string as the tokenizer hands it on', { timeout: 120_000 }, () => {
  it('reads as JSON.parse yields each string, and its head, tail, length and characters are its text’s, however the bytes are cut', () => {
    fc.assert(
      fc.property(value, fc.nat({ max: 6 }), fc.array(fc.nat(), { maxLength: 10 }), (doc, every, cuts) => {
        const text = withEscapes(JSON.stringify(doc), every);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(doc)));
        const check = new PieceCheck();
        const scan = new AnswerScan();
        scan.add(check);
        for (const chunk of cutAt(Buffer.from(text), cuts)) expect(scan.write(chunk)).toBe(true);
        expect(scan.end()).toBe(true);
        expect(check.strings).toEqual(stringsOf(doc));
      }),
      { numRuns: 3000 },
    );
  });
});
