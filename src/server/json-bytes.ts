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

/** Whether bytes [from, to) hold one under 0x20: a byte at a time up to a word boundary, then four at a time. */
export function hasControl(buf: Buffer, from: number, to: number): boolean {
  let i = from;
  while (i < to && (buf.byteOffset + i) & 3) if (buf[i++]! < 0x20) return true;
  const words = (to - i) >> 2;
  if (words > 0) {
    const view = new Uint32Array(buf.buffer, buf.byteOffset + i, words);
    // Exact: a byte under 0x20 borrows into its own top bit; no byte at or over it can (Bit Twiddling Hacks, "hasless").
    for (let k = 0; k < words; k++) {
      const w = view[k]!;
      if (((w - 0x20202020) & ~w & 0x80808080) !== 0) return true;
    }
    i += words * 4;
  }
  for (; i < to; i++) if (buf[i]! < 0x20) return true;
  return false;
}
