import { type JsonPath, QuietReader, ScanFault, type ScannedBody, scanOf } from './answer-scan.ts';
import { readPiecesInTurns } from './pieces-in-turns.ts';
import { responseTooLarge } from './too-large.ts';
import { type ApiFailure, brokenOff } from '../http/api-failure.ts';
import { JsonIncompleteError, JsonTooDeepError } from './json-tokens.ts';
import type { ScalarKind } from './json-bytes.ts';
import { type KeySearch, KeyWatch } from './key-watch.ts';
import type { TextPiece } from './text-piece.ts';
import { KEY_IN_ANSWER, scanFaultFailure } from './upstream-body.ts';
import { keepNumberText } from '../../kyc/contract/number-text.ts';

/**
 * An answer this server reads whole before it answers (a support user's status level, a page of the
 * applicants list), built into a value from the answer's one scan (answer-scan.ts) as JSON.parse would
 * build it, and checked on the way: the key in the raw bytes, decoded strings and pictures (key-watch.ts),
 * JSON throughout, complete, within limits.maxResponseBytes. A builder keeps what its subclass places and
 * passes over the rest as it arrives, so what it holds is what it keeps; and beside a number JavaScript
 * would write otherwise, the text it came as (number-text.ts), as Node 20's JSON.parse cannot.
 */

type Container = unknown[] | Record<string, unknown>;

/**
 * What a kept container counts against a builder's bound, as if it were this many characters: an empty
 * `{}` or `[]` is two bytes of the answer but an object of the heap, so a value of millions of them
 * (a hostile status-level field, a hostile list page) is refused by the bound instead of kept.
 */
export const CONTAINER_COST = 32;

/** JSON.parse's way of setting a member: an own property, `__proto__` included. */
export function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Where a kept value goes; `sent`, a number's text as the answer wrote it, is kept beside a number
 * (12345678901234567890 reads as 12345678901234567000), so that it is passed on as sent.
 */
export type Place = (value: unknown, sent?: string) => void;

/** A place that sets `object[key]` as setMember does, keeping a number's text as sent. */
export function memberPlace(object: Record<string, unknown>, key: string): Place {
  return (value, sent) => {
    setMember(object, key, value);
    if (typeof value === 'number' && sent !== undefined) keepNumberText(object, key, value, sent);
  };
}

export abstract class ValueBuilder extends QuietReader {
  /**
   * The kept value being built, innermost container last, with the key each object is at; a container
   * opened inside it once it is too large stands as undefined, passed over but still closed in turn.
   */
  private readonly building: Array<{ container: Container | undefined; key?: string }> = [];
  private pieces: string[] | undefined;
  /** Characters the string being kept may still take: its own bound (`ownBound`) and one more. */
  private room = Number.POSITIVE_INFINITY;
  /** Where a kept value starting here goes; undefined where it is not kept. */
  private place: Place | undefined;
  private kept = 0;
  /**
   * It kept more than `maxKept` characters of text and scalars: from then on it keeps nothing more, as
   * its value is refused (a reader left on a scan to its end, as the status part's, would else keep on
   * building what no one reads).
   */
  tooLarge = false;
  /** What the builder itself refuses the answer as, once it has seen why (a repeated envelope member). */
  refused: ApiFailure | undefined;

  constructor(
    protected readonly path: JsonPath,
    private readonly maxKept: number,
  ) {
    super();
  }

  /** What was built, once the body was read whole. */
  abstract value(): unknown;

  /** Where a value starting outside every kept container goes; undefined: it is passed over. */
  protected abstract outside(): Place | undefined;

  /**
   * How many characters of a kept value starting here are held, where the subclass bounds it (a list
   * record's id, status or date): of a longer string only the first bound + 1 are kept, the rest passed
   * over unheld and uncounted, and a longer number is counted as bound + 1 (it is held as a number), so
   * one long field costs its bound, not the builder's whole `maxKept`. Only for a value whose reading
   * refuses any text past the bound whatever follows: what is held then reads as the whole would.
   */
  protected ownBound(): number {
    return Number.POSITIVE_INFINITY;
  }

  /** A container outside every kept one that the subclass opens itself (true), as the status level its root. */
  protected openOutside(_bracket: '{' | '['): boolean {
    return false;
  }

  override open(bracket: '{' | '['): void {
    if (this.building.length === 0 && this.openOutside(bracket)) return;
    const target = this.target();
    if (!target) {
      if (this.building.length > 0) this.building.push({ container: undefined });
      return;
    }
    const container: Container = bracket === '{' ? {} : [];
    this.count(CONTAINER_COST);
    target(container);
    this.building.push({ container });
  }

  /** Once a value is kept, every container opened inside it is too: the innermost open one is the one closing. */
  override close(): void {
    this.building.pop();
  }

  override key(name: string): void {
    const top = this.building.at(-1);
    if (top) top.key = name;
  }

  override startString(): void {
    this.place = this.target();
    if (!this.place) return;
    this.pieces = [];
    this.room = this.ownBound() + 1;
  }

  override text(piece: TextPiece, inKey: boolean): void {
    // Past its own bound, the rest of the string is passed over.
    if (inKey || !this.pieces || this.room <= 0) return;
    const text = piece.length <= this.room ? piece.text : piece.head(this.room);
    this.room -= text.length;
    this.count(text.length);
    // Once too large, the string being kept is dropped, not held to its end.
    if (this.tooLarge) this.pieces = this.place = undefined;
    else this.pieces.push(text);
  }

  override endString(): void {
    if (this.pieces && this.place) this.place(this.pieces.join(''));
    this.pieces = this.place = undefined;
  }

  override scalar(kind: ScalarKind, bytes: Buffer, from: number, to: number): void {
    const target = this.target();
    if (!target) return;
    const counted = Math.min(to - from, this.ownBound() + 1);
    this.count(counted);
    if (kind !== 'number') {
      target(kind === 'null' ? null : kind === 'true');
      return;
    }
    const sent = bytes.toString('latin1', from, to);
    // Its text is held beside it only where it was counted whole: a number past its own bound is refused anyway.
    target(Number(sent), counted === to - from ? sent : undefined);
  }

  /** Where a value starting here goes: inside a kept value, or where the subclass keeps it. */
  private target(): Place | undefined {
    if (this.tooLarge) return undefined;
    const top = this.building.at(-1);
    if (!top) return this.outside();
    const { container } = top;
    if (!container) return undefined;
    if (!Array.isArray(container)) return memberPlace(container, top.key!);
    return (value, sent) => {
      if (typeof value === 'number' && sent !== undefined) keepNumberText(container, String(container.length), value, sent);
      container.push(value);
    };
  }

  protected count(size: number): void {
    this.kept += size;
    if (this.kept > this.maxKept) this.tooLarge = true;
  }
}

export type ValueRead = { ok: true; value: unknown } | { ok: false; failure: ApiFailure };

/** What a body is refused as when it is not JSON, ends early, or a builder keeps more than it may. */
export interface ValueFailures {
  notJson: ApiFailure;
  incomplete: ApiFailure;
  tooLarge?: ApiFailure;
  /** JSON nested deeper than MAX_DEPTH (json-tokens.ts): said as such, not as "not JSON". */
  tooDeep?: ApiFailure;
  /**
   * A body that is not JSON or ended early, said from its first bytes (`head`) when they show what it is
   * instead (empty, a web page: not-a-record.ts); undefined leaves `notJson` or `incomplete`.
   */
  unopened?: (head: Buffer, ended: boolean) => ApiFailure | undefined;
}

/** How much of a body's start is kept for ValueFailures.unopened. */
const HEAD_BYTES = 256;

/** The body read to its end through its scan (fed here unless it is fed where it is received), built as it comes. */
export function readValue(
  body: ScannedBody,
  limits: { maxResponseBytes: number; keys: KeySearch },
  builder: (path: JsonPath) => ValueBuilder,
  failures: ValueFailures,
): Promise<ValueRead> {
  return new Promise((resolve) => {
    const { scan, fed } = scanOf(body);
    const reader = builder(scan.path);
    const keyWatch = new KeyWatch(limits.keys, scan.path, { raw: true });
    scan.add(reader);
    scan.add(keyWatch);
    let settled = false;
    const settle = (result: ValueRead) => {
      if (settled) return;
      settled = true;
      scan.remove(reader);
      scan.remove(keyWatch);
      if (!result.ok) body.destroy();
      resolve(result);
    };
    /** What the scan has shown so far refuses the answer. */
    const refusal = (): ApiFailure | undefined => {
      if (keyWatch.found) return KEY_IN_ANSWER;
      if (scan.failure instanceof ScanFault) return scanFaultFailure(scan.failure.cause);
      if (scan.failure instanceof JsonTooDeepError) return failures.tooDeep ?? failures.notJson;
      if (scan.failure) return scan.failure instanceof JsonIncompleteError ? failures.incomplete : failures.notJson;
      return reader.refused ?? (reader.tooLarge ? failures.tooLarge : undefined);
    };
    let received = 0;
    let head = Buffer.alloc(0);
    /** A failure of the JSON itself, said from the body's start when that shows what it is instead. */
    const named = (failure: ApiFailure | undefined, ended: boolean) =>
      failure === failures.notJson || failure === failures.incomplete ? (failures.unopened?.(head, ended) ?? failure) : failure;
    /** A piece of the body (a chunk, where the scan is fed upstream), counted against the bound before it is scanned. */
    const read = (piece: Buffer) => {
      if (settled) return;
      received += piece.length;
      if (received > limits.maxResponseBytes) return settle({ ok: false, failure: responseTooLarge(limits.maxResponseBytes) });
      if (head.length < HEAD_BYTES) head = Buffer.concat([head, piece.subarray(0, HEAD_BYTES - head.length)]);
      if (!fed) scan.write(piece);
      const refused = named(refusal(), false);
      if (refused) settle({ ok: false, failure: refused });
    };
    const ended = () => {
      if (!fed) scan.end();
      const refused = named(refusal() ?? (scan.ended ? undefined : failures.incomplete), true);
      settle(refused ? { ok: false, failure: refused } : { ok: true, value: reader.value() });
    };
    // A page or record of small tokens costs ten times a picture's bytes: scanned here, the body is read in
    // pieces, in the turns every answer being read shares (pieces-in-turns.ts); fed upstream, it already was.
    if (fed) {
      body.on('data', read);
      body.once('end', ended);
    } else readPiecesInTurns(body, { piece: read, chunk: () => true, end: ended });
    // 'aborted' comes before 'error' and says nothing: what the body was cut with is already its `errored`.
    const breakOff = (error?: unknown) => settle({ ok: false, failure: brokenOff(error ?? body.errored) });
    body.once('error', breakOff);
    body.once('aborted', breakOff);
    body.once('close', () => {
      if (!body.complete) breakOff();
    });
  });
}
