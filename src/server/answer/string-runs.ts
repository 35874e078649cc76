import { plainRunEnd } from './byte-scan.ts';

/**
 * Where the tokenizer's (json-tokens.ts) runs of string bytes end, and what is known of them: a run is
 * the bytes of a string between its escapes, up to the next `"` or `\` or the chunk's end. Found by one
 * pass of WebAssembly (byte-scan.ts) when the run is plain ASCII, as nearly every one is (a picture's
 * letters), which then needs no other check; a run with a control byte or a byte over 0x7f in it (or
 * any run, without WebAssembly) ends where Buffer#indexOf finds the next `"` or `\`, and is checked by
 * the tokenizer.
 */

/** What is known of a run's bytes: nothing yet (the tokenizer checks them), plain ASCII, plain ASCII without a space or `=`. */
export const UNCHECKED = 0;
export const PLAIN = 1;
export const PLAIN_NO_SPACE_OR_EQ = 2;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export class StringRuns {
  /** The next `"` and `\` in the current chunk at or after where they were looked for (its length: none). */
  private quoteAt = -1;
  private slashAt = -1;
  /** This read of this chunk, for the run scan's window (byte-scan.ts). */
  private read: object = {};

  /** At each chunk's start (which may be a buffer read before, with other bytes in it), with its read. */
  chunk(read: object): void {
    this.quoteAt = this.slashAt = -1;
    this.read = read;
  }

  /** The end of the run that starts at `at`, times four, plus what is known of it (UNCHECKED, PLAIN, PLAIN_NO_SPACE_OR_EQ). */
  find(buf: Buffer, at: number): number {
    const found = plainRunEnd(this.read, buf, at);
    if (found !== undefined) {
      const stop = Math.floor(found / 2);
      if (stop === buf.length || buf[stop] === QUOTE || buf[stop] === BACKSLASH)
        return stop * 4 + (found % 2 === 0 ? PLAIN_NO_SPACE_OR_EQ : PLAIN);
    }
    if (this.quoteAt < at) this.quoteAt = indexOr(buf, QUOTE, at);
    if (this.slashAt < at) this.slashAt = indexOr(buf, BACKSLASH, at);
    return Math.min(this.quoteAt, this.slashAt) * 4 + UNCHECKED;
  }
}

function indexOr(buf: Buffer, byte: number, from: number): number {
  const at = buf.indexOf(byte, from);
  return at < 0 ? buf.length : at;
}
