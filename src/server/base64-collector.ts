/**
 * A JSON string value that may be a picture, read piece by piece as the parser hands it over. While it
 * is canonical base64 (only the 64 letters, `=` padding at the very end, nothing after it, no stray bits)
 * it is decoded as it comes, so the server holds bytes rather than a third more of text. Anything else
 * (whitespace, a data: prefix, other characters) is not a picture part: the text is kept as it was
 * received, to be passed on in the record exactly as the plain answer would have it.
 */

const LETTERS = /^[A-Za-z0-9+/]*$/;
const PADDED_END = /^[A-Za-z0-9+/]*={1,2}$/;
/** Text decoded at once: a multiple of 4, large enough that Buffer.from is not called for every parser piece. */
const DECODE_CHARS = 64 * 1024;

export type Collected = { kind: 'bytes'; chunks: Buffer[]; size: number } | { kind: 'text'; text: string };

export class Base64Collector {
  private chunks: Buffer[] = [];
  private size = 0;
  private pending = '';
  private padded = false;
  /** Set once the value is seen not to be canonical base64: the text as received. */
  private text: string[] | undefined;

  push(piece: string): void {
    if (this.text) {
      this.text.push(piece);
      return;
    }
    // The parser may cut `==` in two: a lone `=` after a single one is still padding.
    const secondPad = this.padded && piece === '=' && this.pending.endsWith('=') && !this.pending.endsWith('==');
    if (!secondPad && (this.padded || !(LETTERS.test(piece) || PADDED_END.test(piece)))) {
      this.fallBack(piece);
      return;
    }
    if (piece.includes('=')) this.padded = true;
    this.pending += piece;
    // Once padded the value is at its end: its last quantum is checked before anything is decoded.
    if (!this.padded && this.pending.length >= DECODE_CHARS) this.decode(this.pending.length - (this.pending.length % 4));
  }

  /** The value once its string has ended: bytes when it was canonical base64 and not empty, otherwise its text. */
  end(): Collected {
    if (!this.text && this.pending.length % 4 === 0 && this.padOk()) this.decode(this.pending.length);
    if (this.text || this.pending.length > 0 || this.size === 0) {
      const text = this.text ? this.text.join('') : this.decodedText() + this.pending;
      return { kind: 'text', text };
    }
    const chunks = this.chunks;
    this.chunks = [];
    return { kind: 'bytes', chunks, size: this.size };
  }

  private decode(chars: number): void {
    if (chars === 0) return;
    const bytes = Buffer.from(this.pending.slice(0, chars), 'base64');
    this.chunks.push(bytes);
    this.size += bytes.length;
    this.pending = this.pending.slice(chars);
  }

  /** The last quantum re-encodes to itself: no `=` inside it, and no bits set past the data it pads. */
  private padOk(): boolean {
    if (!this.padded) return true;
    const last = this.pending.slice(-4);
    return last.length === 4 && Buffer.from(last, 'base64').toString('base64') === last;
  }

  /** Canonical so far, so the bytes decoded re-encode to exactly the text they came from. */
  private decodedText(): string {
    return Buffer.concat(this.chunks).toString('base64');
  }

  private fallBack(piece: string): void {
    this.text = [this.decodedText(), this.pending, piece];
    this.chunks = [];
    this.size = 0;
    this.pending = '';
  }
}
