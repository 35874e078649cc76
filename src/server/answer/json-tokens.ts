import { type TextDecoding, textDecoding } from './answer-charset.ts';
import { ESCAPES, HEX, hasControl, isPlainAscii, SCALAR_BYTE, SCALAR_END, scalarKind, type TokenSink, WS } from './json-bytes.ts';
import { PLAIN_NO_SPACE_OR_EQ, StringRuns, UNCHECKED } from './string-runs.ts';
import { PieceBuilder } from './text-piece.ts';

/**
 * A streaming JSON tokenizer over an answer's bytes, the one read of it, handing its tokens to a TokenSink
 * (answer-scan.ts fans them out). Keys whole, scalars as their bytes, strings in pieces: runs found and checked
 * in one pass (string-runs.ts), one piece per network chunk (text-piece.ts: ASCII kept as bytes, read as Latin-1
 * when asked; anything else decoded); no object per token. Memory: the open levels (MAX_DEPTH), a key, an escape
 * or number cut by a chunk's end, a string in a declared charset until decided (answer-charset.ts). It accepts
 * what the browser's `JSON.parse` of the decoded body accepts (a leading byte order mark too; bytes not UTF-8
 * read as U+FFFD) and refuses the rest, with one limit of its own: nesting deeper than MAX_DEPTH.
 */

export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
}

/** The body ended before its one JSON value did. */
export class JsonIncompleteError extends JsonSyntaxError {
  override name = 'JsonIncompleteError';
}

/** Nested deeper than MAX_DEPTH: valid JSON, refused here (a record is a few levels deep). */
export class JsonTooDeepError extends JsonSyntaxError {
  override name = 'JsonTooDeepError';
}

/** Arrays and objects open at once, at most. Each costs memory here and in RecordSplitter until it closes. */
export const MAX_DEPTH = 1000;

const QUOTE = 0x22;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** What the tokenizer expects next, outside a string or a scalar. */
type Expect = 'value' | 'firstValue' | 'key' | 'firstKey' | 'colon' | 'after' | 'done';

interface OpenString {
  key: boolean;
  /** A key's pieces, joined at its end (a value's are handed on as they come). */
  pieces: string[];
  /** Made at the string's first byte over 0x7f: UTF-8's, or the declared charset's (answer-charset.ts). */
  decoder?: TextDecoding;
  /** The decoder may hold the first bytes of a character not yet complete, or the string's text (answer-charset.ts). */
  pending: boolean;
  /** The piece being read has had an escape or a UTF-8 decode: it is not the bytes as they are. */
  decoded: boolean;
}

export class JsonTokenizer {
  private readonly stack: Array<'{' | '['> = [];
  private expect: Expect = 'value';
  private str: OpenString | undefined;
  /** A number or literal read so far, when a chunk ended in it. */
  private scalarText: string | undefined;
  /** The bytes of an escape cut by a chunk's end, put before the next chunk. */
  private carry: Buffer | undefined;
  /** The body's first bytes, until it is known whether they are a byte order mark. */
  private start: Buffer | undefined = Buffer.alloc(0);
  /** Where each run of a string's bytes ends. */
  private readonly runs = new StringRuns();
  /** The one piece handed on for every piece of every string. */
  private readonly piece = new PieceBuilder();

  /** `charset`: the one the answer declares, when it is not UTF-8 (answer-charset.ts's declaredCharset). */
  constructor(
    private readonly sink: TokenSink,
    private readonly charset?: string,
  ) {}

  /**
   * Reads a chunk, emitting its tokens; throws JsonSyntaxError at the first byte that is not JSON. `read`:
   * this read of the chunk, when another scan of the same bytes shares its window (byte-scan.ts).
   */
  write(chunk: Buffer, read: object = {}): void {
    let buf = this.start ? this.skipBom(chunk) : chunk;
    if (!buf) return;
    if (this.carry) {
      buf = Buffer.concat([this.carry, buf]);
      this.carry = undefined;
    }
    this.runs.chunk(buf === chunk ? read : {});
    for (let i = 0; i >= 0 && i < buf.length; ) {
      if (this.str) i = this.stringBytes(buf, i);
      else if (this.scalarText !== undefined) i = this.scalarBytes(buf, i);
      else i = this.structural(buf, i);
    }
  }

  /** At the end of the body: throws JsonSyntaxError unless exactly one whole value was read. */
  end(): void {
    if (this.scalarText !== undefined && !this.str) this.scalarEnd();
    if (this.expect !== 'done' || this.str || this.carry) throw new JsonIncompleteError('the JSON text is incomplete');
  }

  /** The chunk without a byte order mark the body opens with; undefined while the first bytes could still be one. */
  private skipBom(chunk: Buffer): Buffer | undefined {
    const head = Buffer.concat([this.start!, chunk]);
    if (head.length < BOM.length && BOM.subarray(0, head.length).equals(head)) {
      this.start = head;
      return undefined;
    }
    this.start = undefined;
    return head.subarray(0, BOM.length).equals(BOM) ? head.subarray(BOM.length) : head;
  }

  /** Outside strings and scalars: one byte of structure (or whitespace) at `i`; the index after it. */
  private structural(buf: Buffer, i: number): number {
    const c = buf[i]!;
    if (WS[c]) return i + 1;
    switch (this.expect) {
      case 'done':
        throw new JsonSyntaxError('more after the JSON value');
      case 'colon':
        if (c !== 0x3a) throw new JsonSyntaxError('a key without a colon');
        this.expect = 'value';
        return i + 1;
      case 'after':
        this.afterValue(c);
        return i + 1;
      case 'key':
      case 'firstKey':
        if (c === 0x7d && this.expect === 'firstKey') this.close('}');
        else if (c === QUOTE) this.str = { key: true, pieces: [], pending: false, decoded: false };
        else throw new JsonSyntaxError('a key that is not a string');
        return i + 1;
      default:
        return this.valueStart(buf, i);
    }
  }

  private afterValue(c: number): void {
    const top = this.stack.at(-1);
    if (c === 0x2c) this.expect = top === '{' ? 'key' : 'value';
    else if (c === 0x7d && top === '{') this.close('}');
    else if (c === 0x5d && top === '[') this.close(']');
    else throw new JsonSyntaxError('an unexpected character after a value');
  }

  private valueStart(buf: Buffer, i: number): number {
    const c = buf[i]!;
    if (c === 0x5d && this.expect === 'firstValue') this.close(']');
    else if (c === QUOTE) {
      this.str = { key: false, pieces: [], pending: false, decoded: false };
      this.sink.startString();
    } else if (c === 0x7b || c === 0x5b) {
      if (this.stack.length >= MAX_DEPTH) throw new JsonTooDeepError(`nested deeper than ${MAX_DEPTH} levels`);
      const bracket = c === 0x7b ? '{' : '[';
      this.stack.push(bracket);
      this.sink.open(bracket);
      this.expect = c === 0x7b ? 'firstKey' : 'firstValue';
    } else return this.scalarBytes(buf, i);
    return i + 1;
  }

  /**
   * A number or literal from `i` to its end. Whole in this chunk, it is handed on as these bytes; cut by the
   * chunk's end, what was read is kept (however long) for the next. A byte no scalar holds is refused at once.
   */
  private scalarBytes(buf: Buffer, i: number): number {
    let j = i;
    while (j < buf.length && !SCALAR_END[buf[j]!]) {
      if (!SCALAR_BYTE[buf[j]!]) throw new JsonSyntaxError('a value that is not JSON');
      j++;
    }
    if (this.scalarText === undefined && j < buf.length) {
      this.scalar(buf, i, j);
      return j;
    }
    this.scalarText = (this.scalarText ?? '') + buf.toString('latin1', i, j);
    if (j < buf.length) this.scalarEnd();
    return j;
  }

  /** The scalar kept across chunks, now whole. */
  private scalarEnd(): void {
    const bytes = Buffer.from(this.scalarText!, 'latin1');
    this.scalarText = undefined;
    this.scalar(bytes, 0, bytes.length);
  }

  private scalar(buf: Buffer, from: number, to: number): void {
    const kind = scalarKind(buf, from, to);
    if (!kind) throw new JsonSyntaxError('a value that is not JSON');
    this.sink.scalar(kind, buf, from, to);
    this.valueDone();
  }

  private valueDone(): void {
    this.expect = this.stack.length === 0 ? 'done' : 'after';
  }

  private close(bracket: '}' | ']'): void {
    this.stack.pop();
    this.sink.close(bracket);
    this.valueDone();
  }

  /**
   * A string's bytes from `i`: runs between escapes, each escape, up to its closing quote or the chunk's
   * end; what was read is handed on as one piece. The index after what was read, or -1 when an escape
   * cut by the chunk's end was carried to the next.
   */
  private stringBytes(buf: Buffer, i: number): number {
    const piece = this.piece;
    piece.clear();
    for (let at = i; ; ) {
      const found = this.runs.find(buf, at);
      const end = Math.floor(found / 4);
      if (end > at) this.run(buf, at, end, found % 4);
      if (end === buf.length) return this.handOn(end);
      if (buf[end] === QUOTE) {
        piece.addText(this.flush());
        this.handOn(end);
        this.endString();
        return end + 1;
      }
      const escaped = this.escape(buf, end);
      if (escaped === undefined) {
        this.carry = Buffer.from(buf.subarray(end));
        return this.handOn(-1);
      }
      piece.addText(escaped);
      at = end + (buf[end + 1] === 0x75 ? 6 : 2);
    }
  }

  /** String bytes [from, to), none of them `"` or `\`, added to the piece; `known`: what string-runs.ts found of them. */
  private run(buf: Buffer, from: number, to: number, known: number): void {
    // One pass for a run not known plain; a run it refuses holds a control byte or, if not, a byte over 0x7f.
    const ascii = known !== UNCHECKED || isPlainAscii(buf, from, to);
    if (!ascii && hasControl(buf, from, to)) throw new JsonSyntaxError('a control character in a string');
    const s = this.str!;
    // ASCII with no character pending in the decoder: Latin-1 reads the same text, without a UTF-8 decode.
    if (ascii && !s.pending) return void this.piece.addRun(buf, from, to, known === PLAIN_NO_SPACE_OR_EQ);
    s.decoded = true;
    s.decoder ??= textDecoding(this.charset);
    this.piece.addText(s.decoder.write(buf.subarray(from, to)));
    s.pending = (!ascii && buf[to - 1]! >= 0x80) || s.decoder.holding === true;
  }

  /** What the decoder holds of a character cut short by an escape or the closing quote (U+FFFD, as the browser reads it). */
  private flush(): string {
    const s = this.str!;
    if (!s.pending) return '';
    s.pending = false;
    s.decoded = true;
    return s.decoder!.end();
  }

  /** The text of the escape at `at` (a backslash), or undefined when its bytes are not all in this chunk. */
  private escape(buf: Buffer, at: number): string | undefined {
    if (at + 1 >= buf.length) return undefined;
    const letter = buf[at + 1]!;
    if (letter !== 0x75) {
      const char = ESCAPES[letter];
      if (char === undefined) throw new JsonSyntaxError('an unknown escape in a string');
      return this.escaped(char);
    }
    if (at + 6 > buf.length) return undefined;
    let code = 0;
    for (let k = at + 2; k < at + 6; k++) {
      const digit = HEX[buf[k]!]!;
      if (digit < 0) throw new JsonSyntaxError('a \\u escape without four hex digits');
      code = code * 16 + digit;
    }
    return this.escaped(String.fromCharCode(code));
  }

  /** An escape's text after what the decoder holds, or among it while the string's charset is not decided (answer-charset.ts). */
  private escaped(char: string): string {
    const decoder = this.str!.decoder;
    this.str!.decoded = true;
    return decoder?.holding && decoder.text ? decoder.text(char) : this.flush() + char;
  }

  /** Hands on what was read of the string; returns `next`. */
  private handOn(next: number): number {
    const s = this.str!;
    if (this.piece.finish(!s.decoded)) {
      if (s.key) s.pieces.push(this.piece.text);
      this.sink.text(this.piece, s.key);
    }
    s.decoded = false;
    return next;
  }

  private endString(): void {
    const s = this.str!;
    this.str = undefined;
    if (s.key) {
      this.sink.key(s.pieces.length === 1 ? s.pieces[0]! : s.pieces.join(''));
      this.expect = 'colon';
    } else {
      this.sink.endString();
      this.valueDone();
    }
  }
}
