/**
 * The first part of an answer in parts as it is written (record-parts.ts): ASCII bytes in blocks of
 * BLOCK_BYTES, each block taken from the answer's share of the memory for answers in parts
 * (parts-budget.ts) before it is made. So the part costs its length in bytes, however many tokens it holds
 * (a record of ten million numbers is ten million bytes, not ten million strings). A slot is a place kept
 * for a value known only later (a picture's reference, or its text).
 *
 * Every slot cuts the bytes around it into pieces, so a record of many small values (100 000 identity
 * attributes of one letter each) is hundreds of thousands of pieces of a few bytes. Each piece written on
 * its own into gzip and into the response cost a turn of each (15 to 30 s of a 4 MB record, the server
 * held meanwhile), so the pieces are gathered into blocks again as soon as no empty slot is before them:
 * the part comes out as whole blocks, its cost grows with its bytes, not with its number of values, and
 * the pieces and filled slots are let go as the record is read rather than kept until its end.
 */

const BLOCK_BYTES = 64 * 1024;
const EMPTY = Buffer.alloc(0);

export interface Slot {
  chunks: Buffer[];
  filled: boolean;
}

export class JsonOut {
  /** Sealed pieces and slots, in order, from the first slot not yet filled on (at `pendingFrom`). */
  private pending: Array<Buffer | Slot> = [];
  private pendingFrom = 0;
  /** The part's bytes before that slot, in whole blocks (gathering: the one being filled). */
  private readonly gathered: Buffer[] = [];
  private gathering: Buffer = Buffer.alloc(0);
  private gatheringUsed = 0;
  private block: Buffer = Buffer.alloc(0);
  private used = 0;
  /** The budget refused a block: nothing more is written (the answer is refused as a whole). */
  refused = false;

  /** `take(bytes)`: whether the answer may hold that many bytes more. */
  constructor(private readonly take: (bytes: number) => boolean) {}

  byte(code: number): void {
    if (this.used === this.block.length && !this.newBlock()) return;
    this.block[this.used++] = code;
  }

  /** Bytes [from, to) of `source`, ASCII (a number or literal as the service wrote it). */
  bytes(source: Buffer, from: number, to: number): void {
    for (let i = from; i < to; ) {
      if (this.used === this.block.length && !this.newBlock()) return;
      const n = Math.min(to - i, this.block.length - this.used);
      if (n < 16) for (let k = 0; k < n; k++) this.block[this.used + k] = source[i + k]!;
      else source.copy(this.block, this.used, i, i + n);
      this.used += n;
      i += n;
    }
  }

  /** ASCII text. */
  write(text: string): void {
    for (let i = 0; i < text.length; ) {
      if (this.used === this.block.length && !this.newBlock()) return;
      const n = Math.min(text.length - i, this.block.length - this.used);
      this.block.write(i === 0 && n === text.length ? text : text.slice(i, i + n), this.used, n, 'latin1');
      this.used += n;
      i += n;
    }
  }

  /** A place here for bytes known later (`fill`). */
  slot(): Slot {
    this.seal();
    const slot: Slot = { chunks: [], filled: false };
    this.pending.push(slot);
    return slot;
  }

  /** The slot's bytes: from here on, what stands before the next empty slot is gathered into blocks. */
  fill(slot: Slot, chunks: Buffer[]): void {
    slot.chunks = chunks;
    slot.filled = true;
    this.gather();
  }

  /** The part's bytes, in order, slots filled: blocks of BLOCK_BYTES but the last. */
  chunks(): Buffer[] {
    this.seal();
    this.gather();
    // Only a slot never filled is left (a record cut short, not sent): its bytes are handed on as they are.
    const rest = this.pending.slice(this.pendingFrom).flatMap((segment) => (Buffer.isBuffer(segment) ? [segment] : segment.chunks));
    const last = this.gathering.subarray(0, this.gatheringUsed);
    return [...this.gathered, ...(last.length > 0 ? [last] : []), ...rest];
  }

  /**
   * Copies the pieces before the first empty slot into the blocks gathered, in order. A whole block
   * written with no slot in it (a record of numbers) is kept as it is when it falls on a block's start:
   * such a record is never copied. The blocks gathered hold the bytes of the blocks taken from the budget,
   * which are let go as they are copied: the part holds its length once, and one block more at most.
   */
  private gather(): void {
    let at = this.pendingFrom;
    for (; at < this.pending.length; at++) {
      const segment = this.pending[at]!;
      if (Buffer.isBuffer(segment)) this.gatherBytes(segment);
      else if (segment.filled) for (const chunk of segment.chunks) this.gatherBytes(chunk);
      else break;
      this.pending[at] = EMPTY;
    }
    // Let go of what was gathered, at most once for as many pieces as remain: an attribute of many values
    // fills its slots one after the other, and copying the rest at each would take their number squared.
    if (at === this.pending.length) this.pending = [];
    else if (at > this.pending.length / 2) this.pending = this.pending.slice(at);
    else {
      this.pendingFrom = at;
      return;
    }
    this.pendingFrom = 0;
  }

  private gatherBytes(bytes: Buffer): void {
    if (this.gatheringUsed === 0 && bytes.length === BLOCK_BYTES) {
      this.gathered.push(bytes);
      return;
    }
    for (let i = 0; i < bytes.length; ) {
      if (this.gatheringUsed === 0) this.gathering = Buffer.allocUnsafeSlow(BLOCK_BYTES);
      const n = bytes.copy(this.gathering, this.gatheringUsed, i);
      this.gatheringUsed += n;
      i += n;
      if (this.gatheringUsed === BLOCK_BYTES) {
        this.gathered.push(this.gathering);
        this.gatheringUsed = 0;
      }
    }
  }

  private seal(): void {
    if (this.used > 0) {
      this.pending.push(this.block.subarray(0, this.used));
      // Nothing before it waits for a slot.
      if (this.pending.length - this.pendingFrom === 1) this.gather();
    }
    this.block = this.block.subarray(this.used);
    this.used = 0;
  }

  private newBlock(): boolean {
    this.seal();
    if (this.refused || !this.take(BLOCK_BYTES)) {
      this.refused = true;
      return false;
    }
    this.block = Buffer.allocUnsafeSlow(BLOCK_BYTES);
    return true;
  }
}
