import { declaredCharset } from './answer-charset.ts';
import type { ScalarKind, TokenSink } from './json-bytes.ts';
import type { TextPiece } from './text-piece.ts';
import { JsonSyntaxError, JsonTokenizer } from './json-tokens.ts';
import type { UpstreamBody } from './upstream-body.ts';

/**
 * The one read of an answer: its bytes go through one tokenizer (json-tokens.ts), once, and every reader
 * of the answer gets the same tokens: the archive watch (`data.willArchiveAtDate`), the key watch (raw
 * bytes, decoded strings, decoded pictures), and the answer's own reader (parts, or the status level).
 * A reader never throws: it notes its own verdict and its owner looks at it. What the scan holds is the
 * tokenizer's (the open levels, bounded by MAX_DEPTH) and the path below.
 */

/**
 * One reader of the answer's tokens. `bytes` sees each chunk before its tokens, with the chunk's one read
 * (a scan of it in WebAssembly shares the tokenizer's copy: byte-scan.ts); `end` follows the last.
 */
export interface AnswerReader extends TokenSink {
  bytes?(chunk: Buffer, read: object): void;
  end?(): void;
}

/** Where the tokenizer is: each open container, and in an object the key of the value being read. */
export class JsonPath {
  readonly kinds: Array<'{' | '['> = [];
  readonly keys: Array<string | undefined> = [];

  get depth(): number {
    return this.kinds.length;
  }

  /** Whether the value being read sits at exactly these keys, each level an object (`*`: any key). */
  at(keys: readonly string[]): boolean {
    if (this.kinds.length !== keys.length) return false;
    for (let i = 0; i < keys.length; i++) {
      if (this.kinds[i] !== '{' || (keys[i] !== '*' && this.keys[i] !== keys[i])) return false;
    }
    return true;
  }
}

/**
 * A reader of the answer failed (threw) while it was read: the answer is refused as this server's fault,
 * in words that say so (SCAN_FAULT), and the fault (`cause`) logged where its request is known, by its type
 * and frames only (logUnexpected). A JsonSyntaxError, so that every reader of the scan's `failure` stops.
 */
export class ScanFault extends JsonSyntaxError {
  override name = 'ScanFault';
  constructor(fault: unknown) {
    super('a reader of the answer failed', { cause: fault });
  }
}

export class AnswerScan implements TokenSink {
  readonly path = new JsonPath();
  private readers: AnswerReader[] = [];
  private readonly tokenizer: JsonTokenizer;
  private started = false;
  /** Set once the body is seen not to be JSON (or incomplete at its end): nothing more is read. */
  failure: JsonSyntaxError | undefined;
  /** The body ended as one whole JSON value. */
  ended = false;

  /** `charset`: the one the answer declares, when it is not UTF-8 (answer-charset.ts's declaredCharset). */
  constructor(charset?: string) {
    this.tokenizer = new JsonTokenizer(this, charset);
  }

  /** A reader sees every token from the first byte: it must be added before it. */
  add(reader: AnswerReader): void {
    if (this.started) throw new Error('a reader added after the answer began to be read would miss its start');
    this.readers.push(reader);
  }

  /** A reader that needs no more tokens (its answer was refused, or its browser left). */
  remove(reader: AnswerReader): void {
    this.readers = this.readers.filter((other) => other !== reader);
  }

  /** Reads a chunk; false once the body is seen not to be JSON (or a reader failed: ScanFault). */
  write(chunk: Buffer): boolean {
    this.started = true;
    if (this.failure) return false;
    const read = {};
    return this.guarded(() => {
      for (const reader of this.readers) reader.bytes?.(chunk, read);
      this.tokenizer.write(chunk, read);
    });
  }

  /** At the body's end; false when it was not one whole JSON value (or a reader failed at it). */
  end(): boolean {
    this.started = true;
    if (this.failure || !this.guarded(() => this.tokenizer.end())) return false;
    this.ended = true;
    return this.guarded(() => {
      for (const reader of this.readers) reader.end?.();
    });
  }

  /**
   * A reader's own fault (a bug, or a value it could not take: a stack run out) stops the reading as a
   * failure of the answer (ScanFault), never as a throw: the scan is fed from a socket's events, where a
   * throw took the whole process down, for every user.
   */
  private guarded(read: () => void): boolean {
    try {
      read();
      return true;
    } catch (error) {
      this.failure = error instanceof JsonSyntaxError ? error : new ScanFault(error);
      return false;
    }
  }

  open(bracket: '{' | '['): void {
    for (const reader of this.readers) reader.open(bracket);
    this.path.kinds.push(bracket);
    this.path.keys.push(undefined);
  }

  close(bracket: '}' | ']'): void {
    this.path.kinds.pop();
    this.path.keys.pop();
    for (const reader of this.readers) reader.close(bracket);
  }

  key(name: string): void {
    this.path.keys[this.path.keys.length - 1] = name;
    for (const reader of this.readers) reader.key(name);
  }

  startString(): void {
    for (const reader of this.readers) reader.startString();
  }

  text(piece: TextPiece, inKey: boolean): void {
    for (const reader of this.readers) reader.text(piece, inKey);
  }

  endString(): void {
    for (const reader of this.readers) reader.endString();
  }

  scalar(kind: ScalarKind, bytes: Buffer, from: number, to: number): void {
    for (const reader of this.readers) reader.scalar(kind, bytes, from, to);
  }
}

/** A reader that ignores every token: readers extend it and keep what they need. */
export class QuietReader implements AnswerReader {
  bytes(_chunk: Buffer, _read: object): void {}
  end(): void {}
  open(_bracket: '{' | '['): void {}
  close(_bracket: '}' | ']'): void {}
  key(_name: string): void {}
  startString(): void {}
  text(_piece: TextPiece, _inKey: boolean): void {}
  endString(): void {}
  scalar(_kind: ScalarKind, _bytes: Buffer, _from: number, _to: number): void {}
}

/** A body whose scan is fed where it is received (archive-watch.ts), before its readers get the bytes. */
export type ScannedBody = UpstreamBody & { scan?: AnswerScan };

/**
 * The scan of a body: the one already fed upstream of this reader (`fed`), or a new one, which the reader
 * then feeds itself with each chunk and the end. Either way the body is tokenized once.
 */
export function scanOf(body: ScannedBody): { scan: AnswerScan; fed: boolean } {
  return body.scan ? { scan: body.scan, fed: true } : { scan: new AnswerScan(declaredCharset(body.headers?.['content-type'])), fed: false };
}
