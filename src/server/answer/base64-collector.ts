/**
 * A JSON string value that may be a picture, read piece by piece as the parser hands it over. While it
 * is canonical base64 (only the 64 letters, `=` padding at the very end, nothing after it, no stray bits)
 * it is decoded as it comes, so the server holds bytes rather than a third more of text. Anything else
 * (whitespace, a data: prefix, other characters, a `=` before the end) is not a picture part: from the
 * piece that shows it, the text is kept as it was received, to be passed on in the record exactly as the
 * plain answer would have it. Every character is looked at a bounded number of times: a value is read in
 * linear time whatever it holds.
 */

/** Text decoded at once: a multiple of 4, large enough that Buffer.from is not called for every parser piece. */
const DECODE_CHARS = 64 * 1024;
const PADDING = /^={1,2}$/;

/**
 * ASCII letters as they stand in the answer (a multiple of 4, no `=`) are the 64 of base64 when the
 * decoder skipped none (it skips what is not base64, so fewer bytes came out) and read none as the URL
 * alphabet (`-`, `_`). Characters beyond ASCII cannot be among them; elsewhere the bytes are re-encoded.
 */
function plainLetters(letters: string, bytes: Buffer): boolean {
  return bytes.length === (letters.length / 4) * 3 && !letters.includes('-') && !letters.includes('_');
}

export type Collected = { kind: 'bytes'; chunks: Buffer[]; size: number } | { kind: 'text'; pieces: string[] };

export class Base64Collector {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Letters not decoded yet: fewer than DECODE_CHARS and a piece. */
  private letters = '';
  /** The `=` read so far, at the value's end. */
  private padding = '';
  /** Set once the value is seen not to be canonical base64: the text as received. */
  private text: string[] | undefined;
  /**
   * Every piece so far was the answer's bytes as they stand (ASCII, no escape: json-tokens.ts). Then the
   * letters are checked by two native searches, and the decoded bytes need no search for the key: the
   * answer's raw bytes were searched for the key's base64 forms at every alignment (key-watch.ts), which
   * is the same search while the text is its bytes.
   */
  private plain = true;

  /** `take(bytes)`: the answer is to hold that many bytes more (parts-budget.ts); `decoded`: sees the bytes as they are decoded. */
  constructor(
    private readonly take: (bytes: number) => void,
    private readonly decoded: (bytes: Buffer) => void = () => {},
  ) {}

  push(piece: string, verbatim = false): void {
    if (this.plain && !verbatim) this.leavePlain();
    if (this.text) {
      this.text.push(piece);
      this.take(piece.length);
      return;
    }
    const at = this.padding ? 0 : piece.indexOf('=');
    if (at >= 0) {
      this.pushPadding(piece, at);
      return;
    }
    this.letters += piece;
    if (this.letters.length >= DECODE_CHARS) this.decodeLetters(this.letters.length - (this.letters.length % 4));
  }

  /** The value once its string has ended: bytes when it was canonical base64 and not empty, otherwise its text. */
  end(): Collected {
    if (!this.text && (this.letters.length + this.padding.length) % 4 === 0) {
      if (!this.padding) this.decodeLetters(this.letters.length);
      else this.decodePadded();
    }
    if (this.text || this.letters.length > 0 || this.size === 0) {
      return { kind: 'text', pieces: this.text ?? [this.decodedText(), this.letters, this.padding] };
    }
    const chunks = this.chunks;
    this.chunks = [];
    return { kind: 'bytes', chunks, size: this.size };
  }

  /** A piece with a `=` at `at`: letters before it, then padding only, two `=` at most. */
  private pushPadding(piece: string, at: number): void {
    const padding = this.padding + piece.slice(at);
    if (!PADDING.test(padding)) {
      this.fallBack(piece);
      return;
    }
    this.letters += piece.slice(0, at);
    this.padding = padding;
  }

  /**
   * Decodes the first `chars` letters (a multiple of 4, no padding) when they hold only the 64 letters.
   * Node's decoder does not say: it skips what is not base64, reads `-` and `_` as the URL alphabet, and
   * reads a character beyond Latin-1 by its low byte (an astral "񜕁𡰯" decodes to three bytes). But each
   * of those decodes to bytes that re-encode to other letters, and whole groups of four of the 64 letters
   * re-encode to themselves: so the bytes are kept when they re-encode to exactly the letters read. Both
   * steps are native; a regular expression over the letters took ten times as long (7 ns a letter, about
   * 110 ms of a 15 MB lookup in parts).
   */
  private decodeLetters(chars: number): void {
    if (chars === 0) return;
    const head = this.letters.slice(0, chars);
    const bytes = Buffer.from(head, 'base64');
    if (this.plain ? plainLetters(head, bytes) : bytes.toString('base64') === head) this.keep(bytes, chars);
    else this.fallBack('');
  }

  /** From a piece that is not the answer's bytes as they stand: the decoded bytes are searched, from the last chunk on (a key may straddle). */
  private leavePlain(): void {
    this.plain = false;
    const last = this.chunks.at(-1);
    if (last) this.decoded(last);
  }

  /** The last letters and their padding: canonical when they re-encode to themselves (no stray bits). */
  private decodePadded(): void {
    const quantum = this.letters.length - (this.letters.length % 4);
    this.decodeLetters(quantum);
    if (this.text) return;
    const last = this.letters + this.padding;
    const bytes = Buffer.from(last, 'base64');
    if (bytes.toString('base64') !== last) {
      this.fallBack('');
      return;
    }
    this.chunks.push(bytes);
    this.size += bytes.length;
    if (!this.plain) this.decoded(bytes);
    this.letters = this.padding = '';
  }

  private keep(bytes: Buffer, chars: number): void {
    this.chunks.push(bytes);
    this.size += bytes.length;
    this.take(bytes.length);
    if (!this.plain) this.decoded(bytes);
    this.letters = this.letters.slice(chars);
  }

  /** Canonical so far, so the bytes decoded re-encode to exactly the text they came from. */
  private decodedText(): string {
    return Buffer.concat(this.chunks).toString('base64');
  }

  private fallBack(piece: string): void {
    this.text = [this.decodedText(), this.letters, this.padding, piece];
    this.take(this.text.reduce((sum, part) => sum + part.length, 0));
    this.chunks = [];
    this.size = 0;
    this.letters = this.padding = '';
  }
}
