/**
 * A piece of a string's text as the tokenizer (json-tokens.ts) hands it on: its text made only when a
 * reader asks for it. A plain answer is megabytes of base64 letters inside strings, and most readers need
 * only a piece's ends, its length or whether it holds a character (key-watch.ts, picture-key-search.ts):
 * so a verbatim piece stays the answer's bytes, searched and sliced there, and becomes a string only on
 * `text`.
 *
 * The tokenizer hands on ONE piece object for every piece (no object is made per piece), valid only
 * during the `text` call it is given to: a reader must never keep it, only strings taken from it.
 */
export interface TextPiece {
  /** The piece is the string's bytes as they are (ASCII, no escape), so a search of the raw bytes saw it already. */
  readonly verbatim: boolean;
  /** Its length in characters (UTF-16 code units, as a string's). */
  readonly length: number;
  /** Its text: made on first use, then kept for this piece. */
  readonly text: string;
  /** Its first `n` characters (all of it when shorter, none for n ≤ 0). */
  head(n: number): string;
  /** Its last `n` characters (all of it when shorter, none for n ≤ 0). */
  tail(n: number): string;
  /** Whether it holds this ASCII character (one code unit under 0x80). */
  has(char: string): boolean;
  /** A verbatim piece's bytes are `buffer` [from, to), one per character; undefined for any other piece. */
  readonly buffer: Buffer | undefined;
  readonly from: number;
  readonly to: number;
}

/** Below this many bytes a search runs in JavaScript; over it, natively on a view of the bytes. */
const NATIVE_SEARCH = 64;

/**
 * The tokenizer's one TextPiece, filled anew for each piece: either one run of the answer's bytes, ASCII
 * as they are (`raw`), or text put together from runs, escapes and decoded characters (`parts`).
 */
export class PieceBuilder implements TextPiece {
  verbatim = false;
  buffer: Buffer | undefined;
  from = 0;
  to = 0;
  private readonly parts: string[] = [];
  private made: string | undefined;
  /** The run's scan (byte-scan.ts) saw no space and no `=` in it: `has` of either needs no search. */
  private noSpaceOrEq = false;

  /** Empties it for the next piece. */
  clear(): void {
    this.buffer = this.made = undefined;
    this.parts.length = 0;
    this.from = this.to = 0;
  }

  /** Bytes [from, to) of `buf`, ASCII, read as they are; `noSpaceOrEq`: known to hold neither a space nor `=`. */
  addRun(buf: Buffer, from: number, to: number, noSpaceOrEq = false): void {
    if (this.buffer === undefined && this.parts.length === 0) {
      this.buffer = buf;
      this.from = from;
      this.to = to;
      this.noSpaceOrEq = noSpaceOrEq;
    } else this.addText(buf.toString('latin1', from, to));
  }

  addText(text: string): void {
    if (text.length === 0) return;
    if (this.buffer !== undefined) {
      this.parts.push(this.buffer.toString('latin1', this.from, this.to));
      this.buffer = undefined;
    }
    this.parts.push(text);
  }

  /** Sets whether the piece is verbatim (it is then one run, as a run is what escapes and decoding are not); false when it is empty. */
  finish(verbatim: boolean): boolean {
    if (this.buffer === undefined) {
      this.made = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
      this.parts.length = 0;
    }
    this.verbatim = verbatim && this.buffer !== undefined;
    return this.length > 0;
  }

  get length(): number {
    return this.buffer === undefined ? this.made!.length : this.to - this.from;
  }

  get text(): string {
    this.made ??= this.buffer!.toString('latin1', this.from, this.to);
    return this.made;
  }

  head(n: number): string {
    if (n <= 0) return '';
    if (this.made !== undefined) return this.made.slice(0, n);
    return this.buffer!.toString('latin1', this.from, Math.min(this.to, this.from + n));
  }

  tail(n: number): string {
    if (n <= 0) return '';
    if (this.made !== undefined) return this.made.slice(Math.max(0, this.made.length - n));
    return this.buffer!.toString('latin1', Math.max(this.from, this.to - n), this.to);
  }

  has(char: string): boolean {
    if (this.made !== undefined) return this.made.includes(char);
    if (this.noSpaceOrEq && (char === ' ' || char === '=')) return false;
    const buf = this.buffer!;
    const code = char.charCodeAt(0);
    if (this.to - this.from >= NATIVE_SEARCH) return buf.subarray(this.from, this.to).includes(code);
    for (let i = this.from; i < this.to; i++) if (buf[i] === code) return true;
    return false;
  }
}

/**
 * One string value read from its pieces, up to `max` characters (the rest is not kept): how a reader
 * holds an id, a type or a certificate's text, bounded whatever the answer sends.
 */
export class BoundedText {
  private readonly parts: string[] = [];
  private size = 0;

  constructor(private readonly max: number) {}

  add(piece: TextPiece): void {
    const room = this.max - this.size;
    if (room <= 0) return;
    const part = piece.head(room);
    this.parts.push(part);
    this.size += part.length;
  }

  text(): string {
    return this.parts.join('');
  }
}
