/**
 * A JSON string value that may be a picture, read piece by piece as the parser hands it over. While it
 * is canonical base64 (only the 64 letters, `=` padding at the very end, nothing after it, no stray bits)
 * it is decoded as it comes, so the server holds bytes rather than a third more of text. Anything else
 * (whitespace, a data: prefix, other characters) is not a picture part: the text is kept as it was
 * received, to be passed on in the record exactly as the plain answer would have it.
 */

/** The end of a value with padding: letters, then one or two `=`. */
const PADDED = /^[A-Za-z0-9+/]*={1,2}$/;
/** Text decoded at once: a multiple of 4, large enough that Buffer.from is not called for every parser piece. */
const DECODE_CHARS = 64 * 1024;

export type Collected = { kind: 'bytes'; chunks: Buffer[]; size: number } | { kind: 'text'; text: string };

export class Base64Collector {
  private chunks: Buffer[] = [];
  private size = 0;
  private pending = '';
  /** Set once the value is seen not to be canonical base64: the text as received. */
  private text: string[] | undefined;

  push(piece: string): void {
    if (this.text) {
      this.text.push(piece);
      return;
    }
    this.pending += piece;
    if (this.pending.length >= DECODE_CHARS) this.decodeLetters(this.pending.length - (this.pending.length % 4));
  }

  /** The value once its string has ended: bytes when it was canonical base64 and not empty, otherwise its text. */
  end(): Collected {
    if (!this.text && this.pending.length % 4 === 0) {
      if (!this.pending.includes('=')) this.decodeLetters(this.pending.length);
      else if (PADDED.test(this.pending) && this.lastQuantumCanonical()) this.decode(this.pending.length);
    }
    if (this.text || this.pending.length > 0 || this.size === 0) {
      const text = this.text ? this.text.join('') : this.decodedText() + this.pending;
      return { kind: 'text', text };
    }
    const chunks = this.chunks;
    this.chunks = [];
    return { kind: 'bytes', chunks, size: this.size };
  }

  /**
   * Decodes the first `chars` (a multiple of 4) when they hold only the 64 letters. Node's decoder skips
   * what is not base64 (so fewer bytes come out) and reads `-` and `_` as the URL alphabet (looked for
   * apart); a `=` waits for the end, where only padding may hold one.
   */
  private decodeLetters(chars: number): void {
    const head = this.pending.slice(0, chars);
    if (head.includes('=')) return;
    const bytes = head.includes('-') || head.includes('_') ? undefined : Buffer.from(head, 'base64');
    if (bytes?.length === (chars / 4) * 3) this.keep(bytes, chars);
    else this.fallBack();
  }

  private decode(chars: number): void {
    this.keep(Buffer.from(this.pending.slice(0, chars), 'base64'), chars);
  }

  private keep(bytes: Buffer, chars: number): void {
    this.chunks.push(bytes);
    this.size += bytes.length;
    this.pending = this.pending.slice(chars);
  }

  /** The last quantum (its letters checked by PADDED) re-encodes to itself: no stray bits. */
  private lastQuantumCanonical(): boolean {
    const last = this.pending.slice(-4);
    return Buffer.from(last, 'base64').toString('base64') === last;
  }

  /** Canonical so far, so the bytes decoded re-encode to exactly the text they came from. */
  private decodedText(): string {
    return Buffer.concat(this.chunks).toString('base64');
  }

  private fallBack(): void {
    this.text = [this.decodedText(), this.pending];
    this.chunks = [];
    this.size = 0;
    this.pending = '';
  }
}
