import { type Code, I32, op, V128, type WasmFunction, wasmModule } from './wasm-module.ts';

/**
 * The answer's two scans of every byte, in WebAssembly with 128-bit SIMD (issue 35: in JavaScript, the
 * plain lookup's checks took about as much CPU as Node's own copying of the answer; docs/performance.md):
 * the end of a string's plain run (string-runs.ts) and the samples of the key search (needle-set.ts).
 * Both read their bytes from one instance's memory, into which a chunk is copied a window at a time
 * (`WINDOW`), once for both scans of the same read: WebAssembly reads no memory but its own. The
 * instructions are written out below, a step a line with what it does; the module's bytes are made from them at start-up (wasm-module.ts). Both are
 * held to a byte-by-byte reference by property tests (test/server/byte-scan.test.ts).
 */

/** The bytes copied into a module's memory at once: a network chunk's usual size. */
const WINDOW = 65536;

// runEnd(from, to): the first byte in [from, to) that ends a string's plain run: `"`, `\`, under 0x20 or
// over 0x7f; `to` when none. Sixty-four bytes a step (four loads of sixteen), one branch for the 64; the
// step holding such a byte, and the last bytes, one at a time. Also whether a space or `=` stands before
// it (a picture's letters then need a closer look: picture-key-search.ts): the result is that index
// times two, plus one for a space or `=`.
// A byte under 0x20 or over 0x7f is one under 0x20 when read as signed; and with its bit 1 flipped
// (xor 0x02), `"` (0x22) becomes 0x20 and no other byte does, while a byte under 0x20 stays under it and
// one over 0x7f stays negative: so one signed "under 0x21" of v ^ 0x02 finds all three.
// A picture's letters first go through a loop of three tests a vector (about half the work of the five):
// a byte under 0x2b read as signed (every byte that ends a run, a space, and `!#$%&'()*`), `=` or `\`. The
// step where one stands, and all after it, go through the five tests as before: no input makes the run
// slower than that, and a space or `=` is never passed unnoted.
const FROM = 0;
const TO = 1;
const C = 2;
const FLAG = 3;
/** The four vectors of a step, and the or of their spaces and `=`s so far. */
const V = [4, 5, 6, 7] as const;
const ACC = 8;
/** Sixteen copies of each byte used, in locals set before the loop (a constant in the loop is made anew each step). */
const SPLATS: Array<[byte: number, local: number]> = [
  [0x02, 9],
  [0x21, 10],
  [0x5c, 11],
  [0x20, 12],
  [0x3d, 13],
  [0x2b, 14],
];
const splat = (byte: number) => op.localGet(SPLATS.find(([b]) => b === byte)![1]);
const STEP_BYTES = 64;
/** For each vector of the step, `mask` of it; the four masks or'ed into one. */
const each = (mask: (v: number) => Code[]): Code[] => V.flatMap((v, i) => [...mask(v), ...(i > 0 ? [op.v128Or] : [])]);
const equals = (byte: number) => (v: number) => [op.localGet(v), splat(byte), op.i8x16Eq];
const ends = (v: number) => [op.localGet(v), splat(0x02), op.v128Xor, splat(0x21), op.i8x16LtS]; // under 0x20, over 0x7f, or `"`
/** A byte that is not a base64 letter nor `,-.` and the like: under 0x2b (signed: over 0x7f too), `=` or `\`. */
const unusual = (v: number) => [op.localGet(v), splat(0x2b), op.i8x16LtS, ...equals(0x3d)(v), op.v128Or, ...equals(0x5c)(v), op.v128Or];
// biome-ignore format: the instructions, a step a line
const runEnd: WasmFunction = {
  name: 'runEnd',
  params: [I32, I32],
  results: [I32],
  locals: [I32, I32, V128, V128, V128, V128, V128, V128, V128, V128, V128, V128, V128],
  body: [
    ...SPLATS.flatMap(([byte, local]) => [op.v128Splat(byte), op.localSet(local)]), // the constants, once
    op.block, //                                                  $unusual: a run of letters, three tests a vector
    op.loop, //                                                     $letters: 64 bytes a step
    op.localGet(FROM), op.i32Const(STEP_BYTES), op.i32Add, op.localGet(TO), op.i32GtU, op.brIf(1), // fewer than 64 left: $unusual
    ...V.flatMap((v, i) => [op.localGet(FROM), op.v128LoadAt(16 * i), op.localSet(v)]), // the vectors at from, +16, +32, +48
    ...each(unusual), op.v128AnyTrue, op.brIf(1), //               any byte under 0x2b, over 0x7f, `=` or `\`: $unusual
    op.localGet(FROM), op.i32Const(STEP_BYTES), op.i32Add, op.localSet(FROM), // from += 64 (no space nor `=` in it)
    op.br(0), //                                                    next step
    op.end,
    op.end, //                                                    from here (that step again), every test as before
    op.block, //                                                  $bytes: the bytes one at a time
    op.loop, //                                                     $steps: 64 bytes a step
    op.localGet(FROM), op.i32Const(STEP_BYTES), op.i32Add, op.localGet(TO), op.i32GtU, op.brIf(1), // fewer than 64 left: $bytes
    ...V.flatMap((v, i) => [op.localGet(FROM), op.v128LoadAt(16 * i), op.localSet(v)]), // the vectors at from, +16, +32, +48
    ...each(ends), ...each(equals(0x5c)), op.v128Or, //             each byte under 0x20, over 0x7f, `"` or `\`
    op.v128AnyTrue, op.brIf(1), //                                  one of them: $bytes, to find which
    op.localGet(ACC), ...each(equals(0x20)), op.v128Or, ...each(equals(0x3d)), op.v128Or, op.localSet(ACC), // acc |= spaces, `=`s
    op.localGet(FROM), op.i32Const(STEP_BYTES), op.i32Add, op.localSet(FROM), // from += 64
    op.br(0), //                                                    next step
    op.end,
    op.end,
    op.block, //                                                  $done
    op.loop, //                                                     $byte
    op.localGet(FROM), op.localGet(TO), op.i32GeU, op.brIf(1), //   at `to`: $done
    op.localGet(FROM), op.i32Load8U, op.localTee(C), //             c = the byte at `from`
    op.i32Const(0x20), op.i32Sub, op.i32Const(0x5f), op.i32GtU, //  c - 0x20, unsigned, over 0x5f: under 0x20 or over 0x7f
    op.localGet(C), op.i32Const(0x22), op.i32Eq, op.i32Or, //       or `"`
    op.localGet(C), op.i32Const(0x5c), op.i32Eq, op.i32Or, //       or `\`
    op.brIf(1), //                                                  the run's end: $done
    op.localGet(FLAG), //                                           flag |= c is a space or `=`
    op.localGet(C), op.i32Const(0x20), op.i32Eq, op.i32Or,
    op.localGet(C), op.i32Const(0x3d), op.i32Eq, op.i32Or,
    op.localSet(FLAG),
    op.localGet(FROM), op.i32Const(1), op.i32Add, op.localSet(FROM), // from += 1
    op.br(0), //                                                    next byte
    op.end,
    op.end,
    op.localGet(FROM), op.i32Const(1), op.i32Shl, //              from * 2
    op.localGet(FLAG), op.localGet(ACC), op.v128AnyTrue, op.i32Or, op.i32Or, // + (a space or `=` before it)
  ],
};

// sample(from, to, step): the first position p = from, from + step, … with p + 4 <= to whose four bytes, as
// a little-endian word w, have filter[(w * HASH) >>> 16] set (the filter: the memory's first 64 KiB);
// -1 when none. needle-set.ts's loop: a load, a multiply, a shift and a load a sample, four samples a
// step with one branch for the four; a step with a set slot, and the last samples, one at a time.
export const HASH = 0x9e3779b1;
const P = 0;
const END = 1;
const STRIDE = 2;
/** filter[(the word at p + k * step) * HASH >>> 16]. */
// biome-ignore format: the instructions, a step a line
const slotAt = (k: number): Code[] => [
  op.localGet(P), ...(k > 0 ? [op.localGet(STRIDE), op.i32Const(k), op.i32Mul, op.i32Add] : []), op.i32Load, // w: the word at p + k * step
  op.i32Const(HASH), op.i32Mul, op.i32Const(16), op.i32ShrU, op.i32Load8U, //  filter[(w * HASH) >>> 16]
];
// biome-ignore format: the instructions, a step a line
const sample: WasmFunction = {
  name: 'sample',
  params: [I32, I32, I32],
  results: [I32],
  locals: [],
  body: [
    op.block, //                                                  $one: a sample at a time
    op.loop, //                                                     $steps: four samples a step
    op.localGet(P), op.localGet(STRIDE), op.i32Const(3), op.i32Mul, op.i32Add, op.i32Const(4), op.i32Add, // p + 3 * step + 4
    op.localGet(END), op.i32GtU, op.brIf(1), //                     past `to`: $one
    ...slotAt(0), ...slotAt(1), op.i32Or, ...slotAt(2), op.i32Or, ...slotAt(3), op.i32Or, // any of the four slots set
    op.brIf(1), //                                                  $one, to find which
    op.localGet(P), op.localGet(STRIDE), op.i32Const(4), op.i32Mul, op.i32Add, op.localSet(P), // p += 4 * step
    op.br(0), //                                                    next step
    op.end,
    op.end,
    op.block, //                                                  $none
    op.loop, //                                                     $samples
    op.localGet(P), op.i32Const(4), op.i32Add, op.localGet(END), op.i32GtU, op.brIf(1), // p + 4 > to: $none
    ...slotAt(0), op.if, op.localGet(P), op.return, op.end, //      set: a candidate at p
    op.localGet(P), op.localGet(STRIDE), op.i32Add, op.localSet(P), // p += step
    op.br(0), //                                                    next sample
    op.end,
    op.end,
    op.i32Const(-1),
  ],
};

interface Scans {
  memory: WebAssembly.Memory;
  runEnd: (from: number, to: number) => number;
  sample: (from: number, to: number, step: number) => number;
}

/** The module's bytes: two pages, the first the key search's filter, the second the window. */
const MODULE = wasmModule(2, [runEnd, sample]);
const compiled = WebAssembly.validate(MODULE) ? new WebAssembly.Module(MODULE) : undefined;

/** Where the window starts in the memory: past the filter. */
const WINDOW_AT = 65536;

/** A new instance, with a memory of its own; undefined where WebAssembly SIMD is not supported (the JavaScript loops then). */
function scanInstance(): { scans: Scans; memory: Uint8Array } | undefined {
  if (!compiled) return undefined;
  const scans = new WebAssembly.Instance(compiled).exports as unknown as Scans;
  return { scans, memory: new Uint8Array(scans.memory.buffer) };
}

/**
 * One instance for both scans, as every answer is read on this thread, one call at a time: the key
 * search's filter in the memory's first 64 KiB (the filter of the set searched last), and the window of
 * the buffer copied in last. A window is used again while its read (`read`: one read of one buffer, which
 * the scan of an answer gives both the key search and the tokenizer: answer-scan.ts) and buffer are the
 * same, so a chunk is copied in once for both scans; any other read copies its own.
 */
const shared = scanInstance();
let loaded: { read: object; buf: Buffer; from: number; to: number } | undefined;
let loadedFilter: Uint8Array | undefined;

/** The window of `buf` that holds its bytes from `from` (at least `need` of them, or up to its end), copied in unless it is there already. */
function windowAt(memory: Uint8Array, read: object, buf: Buffer, from: number, need: number) {
  const window = loaded;
  if (window && window.read === read && window.buf === buf && window.from <= from && Math.min(buf.length, from + need) <= window.to) {
    return window;
  }
  const fresh = { read, buf, from, to: Math.min(buf.length, from + WINDOW) };
  memory.set(buf.subarray(fresh.from, fresh.to), WINDOW_AT);
  loaded = fresh;
  return fresh;
}

/**
 * Where the plain run of a string's bytes that starts at `at` ends: the first `"`, `\`, control byte or
 * byte over 0x7f at or after `at`, or the buffer's length; times two, plus one when a space or `=`
 * stands before it. `read`: the tokenizer's one read of this buffer. Undefined without WebAssembly.
 */
export function plainRunEnd(read: object, buf: Buffer, at: number): number | undefined {
  if (!shared) return undefined;
  let flag = 0;
  for (let from = at; from < buf.length; ) {
    const window = windowAt(shared.memory, read, buf, from, 1);
    const found = shared.scans.runEnd(WINDOW_AT + from - window.from, WINDOW_AT + window.to - window.from);
    flag |= found & 1;
    const end = window.from + (found >>> 1) - WINDOW_AT;
    if (end < window.to) return end * 2 + flag;
    from = end;
  }
  return buf.length * 2 + flag;
}

/**
 * A key search's samples (needle-set.ts) in WebAssembly, with its filter (copied into the memory's first
 * 64 KiB when another set's is there); undefined without it. `read`: this read of the buffer, whose
 * window the tokenizer then uses too.
 */
export function sampleSearch(
  filter: Uint8Array,
  step: number,
): ((buf: Buffer, candidate: (at: number) => boolean, read?: object) => boolean) | undefined {
  if (!shared) return undefined;
  const { scans, memory } = shared;
  // Every sample p = 0, step, 2 * step, … with p + 4 <= buf.length; a window at a time.
  return (buf, candidate, read = {}) => {
    if (loadedFilter !== filter) {
      memory.set(filter, 0);
      loadedFilter = filter;
    }
    for (let from = 0; from + 4 <= buf.length; ) {
      const window = windowAt(memory, read, buf, from, 4);
      const base = WINDOW_AT - window.from;
      for (let p = from + base; ; p += step) {
        p = scans.sample(p, window.to + base, step);
        if (p < 0) break;
        if (candidate(p - base)) return true;
      }
      // Past the last sample whose four bytes lie in the window.
      from += (Math.floor((window.to - 4 - from) / step) + 1) * step;
    }
    return false;
  };
}
