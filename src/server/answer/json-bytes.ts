import type { TextPiece } from './text-piece.ts';

/** The bytes of JSON as the tokenizer (json-tokens.ts) reads them: tables by byte value, and the control-byte check. */

/** JSON's whitespace. */
export const WS = new Uint8Array(256);
for (const c of [0x20, 0x09, 0x0a, 0x0d]) WS[c] = 1;
/** What ends a number or a literal: whitespace, `,`, `}`, `]`. */
export const SCALAR_END = WS.slice();
for (const c of [0x2c, 0x7d, 0x5d]) SCALAR_END[c] = 1;
/** A JSON number, whole. */
export const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?$/;
/** The character of each one-letter escape, by the byte after the backslash. */
export const ESCAPES: Array<string | undefined> = [];
for (const [byte, char] of Object.entries({ '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' })) {
  ESCAPES[byte.charCodeAt(0)] = char;
}
/** Each byte's value as a hex digit, -1 when it is not one. */
export const HEX = new Int8Array(256).fill(-1);
for (let i = 0; i < 16; i++) HEX[i.toString(16).charCodeAt(0)] = HEX[i.toString(16).toUpperCase().charCodeAt(0)] = i;

/** A word's bytes under 0x20, each as its top bit (0: none). */
const under20 = (w: number) => (w - 0x20202020) & ~w;

/**
 * Whether bytes [from, to) hold one under 0x20: a byte at a time up to a word boundary, then four words
 * (sixteen bytes) a step, one branch for the four (a quarter less time on a picture's megabytes), then
 * the rest.
 */
export function hasControl(buf: Buffer, from: number, to: number): boolean {
  let i = from;
  while (i < to && (buf.byteOffset + i) & 3) if (buf[i++]! < 0x20) return true;
  const words = (to - i) >> 2;
  if (words > 0) {
    const view = new Uint32Array(buf.buffer, buf.byteOffset + i, words);
    // Exact: a byte under 0x20 borrows into its own top bit; no byte at or over it can (Bit Twiddling Hacks, "hasless").
    let k = 0;
    for (; k + 4 <= words; k += 4) {
      if ((under20(view[k]!) | under20(view[k + 1]!) | under20(view[k + 2]!) | under20(view[k + 3]!)) & 0x80808080) return true;
    }
    for (; k < words; k++) if (under20(view[k]!) & 0x80808080) return true;
    i += words * 4;
  }
  for (; i < to; i++) if (buf[i]! < 0x20) return true;
  return false;
}

/** A word's bytes under 0x20 or over 0x7f, each as its top bit (0: none); exact for "any", as `under20`. */
const outside = (w: number) => (w - 0x20202020) | w;

/**
 * Whether bytes [from, to) are all ASCII with no control byte: a string's bytes as they stand in nearly
 * every answer (a picture's letters), which need neither a UTF-8 decode nor a control check. Since issue
 * 35 such a run is found by WebAssembly (string-runs.ts, byte-scan.ts): this is for a run it did not
 * find plain, and where WebAssembly SIMD is missing. One pass
 * where `hasControl` and `isAscii` took two (about a third less time on a plain answer's megabytes); only
 * a run it refuses is looked at again, for which of the two it is. Eight words (32 bytes) a step, one
 * branch for the eight.
 */
export function isPlainAscii(buf: Buffer, from: number, to: number): boolean {
  let i = from;
  while (i < to && (buf.byteOffset + i) & 3) if (outsideByte(buf[i++]!)) return false;
  const words = (to - i) >> 2;
  if (words > 0) {
    const view = new Int32Array(buf.buffer, buf.byteOffset + i, words);
    let k = 0;
    for (; k + 8 <= words; k += 8) {
      const any =
        outside(view[k]!) |
        outside(view[k + 1]!) |
        outside(view[k + 2]!) |
        outside(view[k + 3]!) |
        outside(view[k + 4]!) |
        outside(view[k + 5]!) |
        outside(view[k + 6]!) |
        outside(view[k + 7]!);
      if (any & 0x80808080) return false;
    }
    for (; k < words; k++) if (outside(view[k]!) & 0x80808080) return false;
    i += words * 4;
  }
  for (; i < to; i++) if (outsideByte(buf[i]!)) return false;
  return true;
}

const outsideByte = (c: number) => c < 0x20 || c > 0x7f;

/** What a number or literal is, once read whole. */
export type ScalarKind = 'number' | 'true' | 'false' | 'null';

/**
 * What the tokenizer (json-tokens.ts) hands on, in the order of the text. A string's text comes in pieces,
 * one per network chunk; a key's too (`inKey`), then the key whole. A scalar comes as its bytes.
 */
export interface TokenSink {
  open(bracket: '{' | '['): void;
  close(bracket: '}' | ']'): void;
  key(name: string): void;
  startString(): void;
  /** `piece`: one object for every piece, valid during this call only (text-piece.ts): never kept. */
  text(piece: TextPiece, inKey: boolean): void;
  endString(): void;
  scalar(kind: ScalarKind, bytes: Buffer, from: number, to: number): void;
}

/** The bytes a number or literal may hold: a byte outside them is refused at once, not at the scalar's end. */
export const SCALAR_BYTE = new Uint8Array(256);
for (const c of Buffer.from('0123456789+-.eEtruefalsn')) SCALAR_BYTE[c] = 1;

const LITERALS: Array<[ScalarKind, Buffer]> = [
  ['true', Buffer.from('true')],
  ['false', Buffer.from('false')],
  ['null', Buffer.from('null')],
];

/** What bytes [from, to) are as a whole scalar, or undefined when they are not JSON. */
export function scalarKind(buf: Buffer, from: number, to: number): ScalarKind | undefined {
  const first = buf[from];
  if (first === 0x2d || (first !== undefined && first >= 0x30 && first <= 0x39)) return isNumber(buf, from, to) ? 'number' : undefined;
  for (const [kind, literal] of LITERALS)
    if (to - from === literal.length && buf.compare(literal, 0, literal.length, from, to) === 0) return kind;
  return undefined;
}

const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;

/** JSON's number grammar over bytes: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. */
function isNumber(buf: Buffer, from: number, to: number): boolean {
  let i = from;
  if (buf[i] === 0x2d) i++;
  if (i < to && buf[i] === 0x30) i++;
  else if (i < to && isDigit(buf[i])) while (i < to && isDigit(buf[i])) i++;
  else return false;
  if (i < to && buf[i] === 0x2e) {
    const digits = ++i;
    while (i < to && isDigit(buf[i])) i++;
    if (i === digits) return false;
  }
  if (i < to && (buf[i] === 0x65 || buf[i] === 0x45)) {
    i++;
    if (i < to && (buf[i] === 0x2b || buf[i] === 0x2d)) i++;
    const digits = i;
    while (i < to && isDigit(buf[i])) i++;
    if (i === digits) return false;
  }
  return i === to;
}
