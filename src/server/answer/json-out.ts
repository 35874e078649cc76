/**
 * The first part of an answer in parts as it is written (record-parts.ts): ASCII bytes in blocks of
 * BLOCK_BYTES, each block taken from the answer's share of the memory for answers in parts
 * (parts-budget.ts) before it is made. So the part costs its length in bytes, however many tokens it holds
 * (a record of ten million numbers is ten million bytes, not ten million strings). A slot is a place kept
 * for a value known only later (a picture's reference, or its text).
 */

const BLOCK_BYTES = 64 * 1024;

export interface Slot {
  chunks: Buffer[];
}

export class JsonOut {
  private readonly segments: Array<Buffer | Slot> = [];
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

  /** A place here for bytes known later. */
  slot(): Slot {
    this.seal();
    const slot: Slot = { chunks: [] };
    this.segments.push(slot);
    return slot;
  }

  /** The part's bytes, in order, slots filled. */
  chunks(): Buffer[] {
    this.seal();
    return this.segments.flatMap((segment) => (Buffer.isBuffer(segment) ? [segment] : segment.chunks));
  }

  private seal(): void {
    if (this.used > 0) this.segments.push(this.block.subarray(0, this.used));
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
