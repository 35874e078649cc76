import { declaredCharset } from './answer-charset.ts';
import type http from 'node:http';
import { PassThrough } from 'node:stream';
import zlib from 'node:zlib';
import { brokenOff } from '../http/api-failure.ts';
import { AnswerScan, type JsonPath, QuietReader, type ScannedBody } from './answer-scan.ts';
import type { ScalarKind } from './json-bytes.ts';
import { readPiecesInTurns } from './pieces-in-turns.ts';
import type { TextPiece } from './text-piece.ts';

/**
 * What a full-level answer's body showed of `willArchiveAtDate`: its value (text), or the kind of a value
 * that is no text or too long to be a date (NotADate); `null` when the body was read to its end without it
 * (or with it null); `undefined` when it was not read to its end (cut, or an encoding Node cannot read).
 */
export type Scan = string | NotADate | null | undefined;

/** `willArchiveAtDate` holding no date: its kind only (never its value: it goes to the log's warning). */
export interface NotADate {
  notADate: 'a number' | 'true or false' | 'an object' | 'a list' | 'text too long for a date' | 'empty text';
}

/** Where the service puts it: the record is the envelope's `data`. */
const FIELD_PATH = ['data', 'willArchiveAtDate'] as const;
/** A date is short: a longer value is not one, and is not held (nor is a list page's, list-page-reader.ts). */
export const MAX_ARCHIVE_DATE = 64;

/**
 * `data.willArchiveAtDate` at exactly that path, as the one scan reads it: a custom field of that name,
 * an escaped one inside a string, or whitespace around the colon neither hides the field nor stands in for it.
 * The field is one of the record's own: once the record (`data`, an object) has ended without it, it is
 * known absent from the record (`onAbsent`), however much of the body is still to come.
 */
class ArchiveField extends QuietReader {
  private value: string | undefined;
  private seen = false;
  private left = false;

  constructor(
    private readonly path: JsonPath,
    private readonly onFound: (value: string | NotADate) => void,
    private readonly onAbsent: () => void,
  ) {
    super();
  }

  override close(bracket: '}' | ']'): void {
    // The scan has left the record: the envelope's object is the one level still open, at its key `data`.
    const recordEnded = bracket === '}' && this.path.depth === 1 && this.path.kinds[0] === '{' && this.path.keys[0] === 'data';
    // Said once; a field found after it (a second `data`) is still reported.
    if (recordEnded && !this.seen && !this.left) {
      this.left = true;
      this.onAbsent();
    }
  }

  override startString(): void {
    if (!this.seen && this.path.at(FIELD_PATH)) this.value = '';
  }

  // Any value but null is the field (issue: a number or an object was missed, and the key not flagged).
  override open(bracket: '{' | '['): void {
    if (!this.seen && this.path.at(FIELD_PATH)) this.found({ notADate: bracket === '{' ? 'an object' : 'a list' });
  }

  override scalar(kind: ScalarKind): void {
    if (kind === 'null' || this.seen || !this.path.at(FIELD_PATH)) return;
    this.found({ notADate: kind === 'number' ? 'a number' : 'true or false' });
  }

  private found(value: string | NotADate): void {
    this.seen = true;
    this.onFound(value);
  }

  override text(piece: TextPiece, inKey: boolean): void {
    if (this.value !== undefined && !inKey) this.value = (this.value + piece.head(MAX_ARCHIVE_DATE + 1)).slice(0, MAX_ARCHIVE_DATE + 1);
  }

  override endString(): void {
    const value = this.value;
    this.value = undefined;
    if (value === undefined) return;
    if (value.length === 0) this.found({ notADate: 'empty text' });
    else this.found(value.length > MAX_ARCHIVE_DATE ? { notADate: 'text too long for a date' } : value);
  }
}

/**
 * Watches a streamed full record for `data.willArchiveAtDate` as it passes, through the answer's one scan
 * (`scan`, fed here from the body's bytes), without holding the body (a full record weighs megabytes);
 * `onDone` is called once: as soon as it is seen, or when the body ends, breaks off or is seen not to be
 * JSON without it. `onAbsent`, before it, once the record has ended without the field, the body not
 * yet (what may follow the record is read on all the same: `null` says the body was whole).
 * A compressed body is inflated alongside and scanned apart (its readers refuse it).
 */
export function watchWillArchiveAt(
  upstreamRes: http.IncomingMessage,
  onDone: (scan: Scan) => void,
  shared?: AnswerScan,
  onAbsent: () => void = () => {},
  handOn: HandOn = { chunk: () => true, end: () => {} },
): void {
  let done = false;
  const finish = (scan: Scan) => {
    if (done) return;
    done = true;
    onDone(scan);
  };
  const decoder = decoderFor(upstreamRes.headers['content-encoding']);
  if (decoder === null) return void finish(undefined);
  const scan = decoder || !shared ? new AnswerScan(declaredCharset(upstreamRes.headers['content-type'])) : shared;
  scan.add(new ArchiveField(scan.path, finish, () => (done ? undefined : onAbsent())));
  const read = (chunk: Buffer) => {
    if (!scan.write(chunk)) finish(undefined);
  };
  const ended = () => finish(scan.end() ? null : undefined);
  // Without the field only once every byte passed the scan: a body left unread is not known to lack it.
  let sourceEnded = false;
  upstreamRes.once('end', () => {
    sourceEnded = true;
    decoder?.end();
  });
  upstreamRes.once('close', () => {
    if (sourceEnded) return;
    decoder?.destroy();
    finish(undefined);
  });
  if (!decoder) {
    // Scanned in pieces, in turns shared with every answer being read (pieces-in-turns.ts).
    const end = () => {
      ended();
      handOn.end();
    };
    return void readPiecesInTurns(upstreamRes, { piece: read, chunk: handOn.chunk, end });
  }
  decoder.on('data', (chunk: Buffer) => {
    if (!done) read(chunk);
  });
  decoder.once('end', ended);
  decoder.on('error', () => finish(undefined));
  upstreamRes.on('data', (chunk: Buffer) => {
    if (!done) decoder.write(chunk);
    if (!handOn.chunk(chunk)) upstreamRes.pause();
  });
  upstreamRes.once('end', handOn.end);
}

/**
 * Where the body's chunks go once the scan has read them (the answer's copy, readToTheEnd): `chunk` false
 * pauses the body (backpressure); `end` once the body ended and every chunk was handed on.
 */
interface HandOn {
  chunk(chunk: Buffer): boolean;
  end(): void;
}

/**
 * A full-level answer is read to its end for `willArchiveAtDate`, whoever else stops reading it: the
 * service scheduled the deletion when it answered, read or not. The answer's readers get a copy (returned)
 * that they may destroy (a refused answer), and that ends when the browser leaves (`until`); the service's
 * body is then read on and dropped until the field is seen or the body ends, never past `maxBytes`, and
 * no longer than the service's idle timeout allows (upstream-client.ts). `onDone` and `onAbsent` as watchWillArchiveAt's.
 */
export function readToTheEnd(
  source: http.IncomingMessage,
  options: { maxBytes: number; until?: http.ServerResponse; onDone: (scan: Scan) => void; onAbsent?: () => void },
): ScannedBody {
  // The one scan of the body, fed here before the copy gets each chunk: the copy's readers add theirs to it.
  // A compressed body is scanned inflated, apart: its readers refuse it.
  const charset = declaredCharset(source.headers['content-type']);
  const scan = encodingOf(source.headers['content-encoding']) === '' ? new AnswerScan(charset) : undefined;
  const copy = Object.assign(new PassThrough(), { headers: source.headers, statusCode: source.statusCode, complete: false, scan });
  // Its readers listen when they care; a copy nobody reads any more must not throw.
  copy.on('error', () => {});
  let known = false;
  let received = 0;
  // Each chunk is handed to the copy once the scan has read it (in pieces, in turns), and the end after the last.
  const chunk = (read: Buffer) => {
    received += read.length;
    if (!copy.destroyed) return copy.write(read);
    if (received > options.maxBytes) source.destroy();
    return true;
  };
  const onDone = (seen: Scan) => {
    known = true;
    if (copy.destroyed) source.destroy();
    options.onDone(seen);
  };
  watchWillArchiveAt(source, onDone, scan, options.onAbsent, { chunk, end: () => copy.end() });
  copy.on('drain', () => source.resume());
  source.once('end', () => {
    copy.complete = true;
  });
  // Why the body ended early, when it says (the whole answer's deadline): the copy's readers answer that.
  source.once('close', () => {
    if (!copy.complete) copy.destroy(brokenOff(source.errored));
  });
  // Nobody reads the copy any more: the body is read on (and dropped) until the field is known.
  copy.once('close', () => {
    if (known || received > options.maxBytes) source.destroy();
    else source.resume();
  });
  const until = options.until;
  if (until) {
    const leave = () => {
      if (!until.writableFinished) copy.destroy(new Error('the browser went away'));
    };
    if (until.closed) leave();
    else until.once('close', leave);
  }
  return copy;
}

/** The content coding, '' for none. */
function encodingOf(header: string | string[] | undefined): string {
  const encoding = (Array.isArray(header) ? header.join(',') : (header ?? '')).trim().toLowerCase();
  return encoding === 'identity' ? '' : encoding;
}

/** undefined: not encoded; null: an encoding this server cannot read. */
function decoderFor(header: string | string[] | undefined): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined | null {
  const encoding = encodingOf(header);
  if (encoding === '') return undefined;
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.createGunzip();
  if (encoding === 'deflate') return zlib.createInflate();
  if (encoding === 'br') return zlib.createBrotliDecompress();
  return null;
}
