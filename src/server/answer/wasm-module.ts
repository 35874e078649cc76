/**
 * A WebAssembly module's bytes, written out from readable instructions at start-up: the encoder of the
 * few parts of the binary format the answer's byte scans use (byte-scan.ts), so that the project ships
 * no binary nobody can read. One memory, its functions, their exports; no imports, tables or globals.
 * The format: https://webassembly.github.io/spec/core/binary/ (sections `type` 1, `function` 3,
 * `memory` 5, `export` 7, `code` 10), the SIMD opcodes from the spec's 128-bit SIMD proposal, final.
 */

/** An unsigned LEB128 number. */
export function uleb(value: number): number[] {
  const out: number[] = [];
  let rest = value >>> 0;
  do {
    const byte = rest & 0x7f;
    rest >>>= 7;
    out.push(rest === 0 ? byte : byte | 0x80);
  } while (rest !== 0);
  return out;
}

/** A signed LEB128 number (an `i32.const`'s operand). */
export function sleb(value: number): number[] {
  const out: number[] = [];
  let rest = value | 0;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    const done = (rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

/** Value types. */
export const I32 = 0x7f;
export const V128 = 0x7b;

/** A memory argument: alignment (as a power of two, a hint only) and a constant offset. */
const memarg = (align: number, offset = 0) => [align, ...uleb(offset)];
/** A SIMD instruction: the 0xfd prefix, then its number as LEB128. */
const simd = (code: number) => [0xfd, ...uleb(code)];

/** The instructions used, by name (the text format's), as their bytes. */
export const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  if: [0x04, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, ...uleb(depth)],
  brIf: (depth: number) => [0x0d, ...uleb(depth)],
  return: [0x0f],
  localGet: (index: number) => [0x20, ...uleb(index)],
  localSet: (index: number) => [0x21, ...uleb(index)],
  localTee: (index: number) => [0x22, ...uleb(index)],
  i32Load: [0x28, ...memarg(0)],
  i32Load8U: [0x2d, ...memarg(0)],
  i32Const: (value: number) => [0x41, ...sleb(value)],
  i32Eq: [0x46],
  i32GtU: [0x4b],
  i32GeU: [0x4f],
  i32Add: [0x6a],
  i32Sub: [0x6b],
  i32Mul: [0x6c],
  i32Or: [0x72],
  i32Shl: [0x74],
  i32ShrU: [0x76],
  v128Load: [...simd(0x00), ...memarg(0)],
  /** v128.load at the address plus a constant offset. */
  v128LoadAt: (offset: number) => [...simd(0x00), ...memarg(0, offset)],
  /** Sixteen copies of one byte, as a constant. */
  v128Splat: (byte: number) => [...simd(0x0c), ...new Array<number>(16).fill(byte & 0xff)],
  i8x16Eq: simd(0x23),
  i8x16LtS: simd(0x25),
  v128Or: simd(0x50),
  v128Xor: simd(0x51),
  v128AnyTrue: simd(0x53),
} as const;

/** One instruction's bytes (or several instructions'). */
export type Code = readonly number[];

export interface WasmFunction {
  name: string;
  params: number[];
  results: number[];
  /** The locals past the parameters, each with its type. */
  locals: number[];
  /** The instructions, without the final `end`. */
  body: Code[];
}

const vector = (items: Code[]) => [...uleb(items.length), ...items.flat()];
const section = (id: number, content: number[]) => [id, ...uleb(content.length), ...content];
const name = (text: string) => vector([...Buffer.from(text)].map((byte) => [byte]));

/** The module: a memory of `pages` 64 KiB pages, exported as `memory`, and these functions, exported by name. */
export function wasmModule(pages: number, functions: WasmFunction[]): Uint8Array<ArrayBuffer> {
  const types = functions.map((f) => [0x60, ...vector(f.params.map((t) => [t])), ...vector(f.results.map((t) => [t]))]);
  const code = functions.map((f) => {
    const body = [...vector(f.locals.map((type) => [1, type])), ...f.body.flat(), ...op.end];
    return [...uleb(body.length), ...body];
  });
  const exports = [[...name('memory'), 0x02, 0], ...functions.map((f, i) => [...name(f.name), 0x00, ...uleb(i)])];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector(types)),
    ...section(3, vector(functions.map((_, i) => uleb(i)))),
    ...section(5, vector([[0x00, ...uleb(pages)]])),
    ...section(7, vector(exports)),
    ...section(10, vector(code)),
  ]);
}
