/**
 * The key searched for in one identity value as the browser would decode it (key-watch.ts), piece by
 * piece, without decoding what need not be. A picture is megabytes of plain base64 letters; a key in its
 * decoded bytes stands in its letters as one of three runs (one per alignment of the key to the groups of
 * three bytes), and a plain piece is its raw bytes as they are, so the runs are among the needles of the
 * answer's one raw-bytes search (key-watch.ts's KeySearch, needle-set.ts), at no decoding cost, and a
 * plain piece is only counted here. A piece that is not plain (a `data:` head, whitespace, padding, an
 * escape) turns the value over to decoding the forgiving way (`LooseBase64`), taking over from the last
 * whole group of four letters, so a key cut between the two ways is still found. A run found anywhere
 * else in the answer, or out of alignment, is counted as found: a safe error (the answer is refused), and
 * by chance about one in 64^10.
 */

/** The letters a key's bytes alone decide, after a lead of 0, 1 or 2 bytes: the first 0, 2 or 3 letters mix in the lead's bits. */
const DECIDED_FROM = [0, 2, 3] as const;

/** The runs of letters that stand for these bytes in any base64 text that holds them. */
export function base64Runs(bytes: Buffer): string[] {
  return DECIDED_FROM.map((from, lead) =>
    Buffer.concat([Buffer.alloc(lead), bytes])
      .toString('base64')
      .slice(from, Math.floor(((lead + bytes.length) * 8) / 6)),
  );
}

import type { TextPiece } from './text-piece.ts';

/** A piece of plain base64 letters as far as a search needs: no space (the browser skips it), no padding. */
const isPlain = (piece: TextPiece) => piece.verbatim && !piece.has(' ') && !piece.has('=');

export class PictureKeySearch {
  private decoder: LooseBase64 | undefined;
  /** The last `keep` letters read as text, to search across a seam and to take over from when decoding. */
  private tail = '';
  private count = 0;
  private readonly keep: number;

  /** `longest`: the longest key, in bytes; `search`: the decoded bytes' search, given in order. */
  constructor(
    longest: number,
    private readonly search: (bytes: Buffer) => void,
  ) {
    // Enough whole groups of four for the longest key at any alignment, plus three letters to align.
    this.keep = (Math.ceil(longest / 3) + 2) * 4;
  }

  /**
   * The value's next piece. A verbatim one is the answer's raw bytes as they are (no escape), searched
   * there for the runs: while the value is plain, only its last letters are read as text.
   */
  push(piece: TextPiece): void {
    if (!this.decoder && (this.count > 0 || !'data:'.startsWith(piece.head(5))) && isPlain(piece)) {
      this.tail = (this.tail + piece.tail(this.keep)).slice(-this.keep);
      this.count += piece.length;
      return;
    }
    this.decode(piece.text);
  }

  /** The value's next piece as text, decoded the forgiving way from here on. */
  decode(piece: string): void {
    if (!this.decoder) {
      this.decoder = new LooseBase64(this.count === 0);
      // The letters before are read from the last whole group of four: the value's own groups, as it has no head.
      const start = (4 - ((this.count - this.tail.length) % 4)) % 4;
      if (this.count > 0) this.search(this.decoder.push(this.tail.slice(start)));
      this.tail = '';
    }
    this.search(this.decoder.push(piece));
  }

  end(): void {
    if (this.decoder) this.search(this.decoder.end());
  }
}

/** The length of the `data:…,` the value opens with (0: none), or undefined while it cannot be told yet. */
function dataPrefix(text: string): number | undefined {
  if (text.length < 5) return 'data:'.startsWith(text) ? undefined : 0;
  if (!text.startsWith('data:')) return 0;
  const comma = text.indexOf(',');
  if (comma >= 0 && comma < MAX_PREFIX) return comma + 1;
  return text.length < MAX_PREFIX ? undefined : 0;
}
const NOT_BASE64 = /[^A-Za-z0-9+/]/g;
/** A `data:` URL's head is at most this long: past it, the value is read as it is. */
const MAX_PREFIX = 256;

/**
 * An identity value decoded as the browser's `atob` would read it, as it comes: canonical base64 decoded
 * at once (Node's decoder), anything else first reduced to the base64 letters (the browser skips
 * whitespace; a value it would refuse is decoded anyway, as the safer guess).
 */
class LooseBase64 {
  private carry = '';

  /** `first`: the value's text from its start, which may open with a `data:` head. */
  constructor(private first = true) {}

  push(piece: string): Buffer {
    let text = this.carry + piece;
    if (this.first) {
      const prefix = dataPrefix(text);
      if (prefix === undefined) {
        this.carry = text;
        return Buffer.alloc(0);
      }
      this.first = false;
      text = text.slice(prefix);
    }
    const whole = text.length - (text.length % 4);
    const bytes = Buffer.from(text.slice(0, whole), 'base64');
    if (bytes.length === (whole / 4) * 3) {
      this.carry = text.slice(whole);
      return bytes;
    }
    const letters = text.replace(NOT_BASE64, '');
    const aligned = letters.length - (letters.length % 4);
    this.carry = letters.slice(aligned);
    return Buffer.from(letters.slice(0, aligned), 'base64');
  }

  end(): Buffer {
    const rest = this.carry.replace(NOT_BASE64, '');
    this.carry = '';
    return Buffer.from(rest, 'base64');
  }
}
