/**
 * Whether any of a few needles occurs in a buffer, in one pass over it whatever their number. The key
 * check searches every answer for a dozen needles (each key as sent, as JSON escapes it, and its base64
 * forms at three alignments: key-watch.ts); `Buffer.includes` once per needle read a 15 MB answer a dozen
 * times, about 20 ms, the largest cost of a plain answer (docs/performance.md). Here the buffer is read
 * at every `step`-th byte only: a needle of length L covers L - 3 positions where a group of four of its
 * bytes starts, so with `step` at most that, one of those positions is read wherever it stands. The four
 * bytes read are looked up in a filter of every needle's groups of four (a byte table indexed by a hash),
 * then exactly, and only a match is compared with the needle in place. The positions read are those where
 * a word of the buffer's memory starts, `step` a multiple of four, so that each is one aligned read of a
 * word rather than four of a byte (issue 35: about 1.8 times faster on a 32 MB answer, docs/performance.md).
 * Needles shorter than eight bytes are searched one by one (no key is that short: needle-watch.ts).
 */

import { HASH, sampleSearch } from './byte-scan.ts';

const GROUP = 4;
/** From this length a buffer is searched in WebAssembly (byte-scan.ts): below it, copying it in costs more than it saves. */
export const WASM_FROM = 512;
const FILTER_BITS = 16;
const SAMPLED_FROM = 8;

/** The four bytes at `at` as one number: the same as `readInt32LE`, without its bounds check. */
const groupAt = (buf: Uint8Array, at: number) => buf[at]! | (buf[at + 1]! << 8) | (buf[at + 2]! << 16) | (buf[at + 3]! << 24);
const slot = (group: number) => Math.imul(group, HASH) >>> (32 - FILTER_BITS);

export class NeedleSet {
  /** The longest needle's length: a caller keeps one byte less of the last chunk, for a needle cut between two. */
  readonly longest: number;
  readonly size: number;
  private readonly step: number;
  private readonly longestStep: number;
  private readonly filter = new Uint8Array(1 << FILTER_BITS);
  /** Every needle's groups of four: where each starts in which needle. */
  readonly groups = new Map<number, { needle: Buffer; at: number }[]>();
  private readonly short: Buffer[];
  /** The same loop in WebAssembly (byte-scan.ts), made at the first long buffer; null where it is not supported. */
  private wasm: ReturnType<typeof sampleSearch> | null | undefined;

  constructor(needles: readonly Buffer[]) {
    const unique = [...new Map(needles.filter((needle) => needle.length > 0).map((needle) => [needle.toString('hex'), needle])).values()];
    this.size = unique.length;
    this.longest = Math.max(0, ...unique.map((needle) => needle.length));
    this.short = unique.filter((needle) => needle.length < SAMPLED_FROM);
    const sampled = unique.filter((needle) => needle.length >= SAMPLED_FROM);
    // The most whole words that fit in the positions each needle covers: at least one, as L - 3 >= 5.
    this.longestStep = Math.min(...sampled.map((needle) => needle.length - GROUP + 1));
    this.step = this.longestStep & ~(GROUP - 1);
    for (const needle of sampled) {
      for (let at = 0; at + GROUP <= needle.length; at++) {
        const group = groupAt(needle, at);
        this.filter[slot(group)] = 1;
        const list = this.groups.get(group) ?? [];
        list.push({ needle, at });
        this.groups.set(group, list);
      }
    }
  }

  /** Whether a needle occurs in `buf`. `read`: this read of it, when another scan shares its copy (byte-scan.ts). */
  in(buf: Buffer, read?: object): boolean {
    if (this.short.length > 0 && this.short.some((needle) => buf.includes(needle))) return true;
    if (this.groups.size === 0) return false;
    if (buf.length < WASM_FROM) return sampled(buf, this.step, this.filter, this.groups);
    // Unaligned reads cost WebAssembly nothing: its step is the most positions each needle covers, L - 3.
    this.wasm ??= sampleSearch(this.filter, this.longestStep) ?? null;
    if (!this.wasm) return sampled(buf, this.step, this.filter, this.groups);
    return this.wasm(buf, (p) => groupMatches(buf, this.groups.get(groupAt(buf, p)), p), read);
  }
}

/**
 * The loop of `in`: a sample every `step` bytes, its four bytes through the filter, then exactly. The
 * samples start at the buffer's first word boundary (`first`, at most 3): a needle starting before it
 * still covers it, as it covers at least five positions. A word is read as the machine stores it, the
 * bytes' order of `groupAt` on a little-endian machine; on another, byte by byte.
 */
function sampled(buf: Buffer, step: number, filter: Uint8Array, groups: NeedleSet['groups']): boolean {
  const first = (GROUP - (buf.byteOffset % GROUP)) % GROUP;
  if (!LITTLE_ENDIAN || buf.length < first + GROUP) return sampledBytes(buf, first, step, filter, groups);
  const words = new Int32Array(buf.buffer, buf.byteOffset + first, (buf.length - first) >> 2);
  const wordStep = step >> 2;
  for (let k = 0; k < words.length; k += wordStep) {
    const group = words[k]!;
    if (filter[Math.imul(group, HASH) >>> (32 - FILTER_BITS)] === 0) continue;
    if (groupMatches(buf, groups.get(group), first + k * GROUP)) return true;
  }
  return false;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The same loop reading bytes: a buffer too short for a word past `first`, or a big-endian machine. */
function sampledBytes(buf: Buffer, first: number, step: number, filter: Uint8Array, groups: NeedleSet['groups']): boolean {
  const last = buf.length - GROUP;
  for (let p = first; p <= last; p += step) {
    const group = groupAt(buf, p);
    if (filter[slot(group)] === 0) continue;
    if (groupMatches(buf, groups.get(group), p)) return true;
  }
  return false;
}

/** Whether a needle holding this group of four at `p` stands there whole (no closure: `p` stays a plain local). */
function groupMatches(buf: Buffer, list: { needle: Buffer; at: number }[] | undefined, p: number): boolean {
  for (const { needle, at } of list ?? []) if (matchesAt(buf, needle, p - at)) return true;
  return false;
}

function matchesAt(buf: Buffer, needle: Buffer, start: number): boolean {
  return start >= 0 && start + needle.length <= buf.length && buf.compare(needle, 0, needle.length, start, start + needle.length) === 0;
}
