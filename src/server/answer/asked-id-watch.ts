import { answeredOther, type LookupKind, type NotAnId } from '../../kyc/contract/lookup.ts';
import { type JsonPath, QuietReader } from './answer-scan.ts';
import type { ScalarKind } from './json-bytes.ts';
import { BoundedText, type TextPiece } from './text-piece.ts';

/** The candidate a lookup asked for: the answer's record must not be another's. */
export interface AskedCandidate {
  kind: LookupKind;
  id: string;
}

/**
 * More of an id's text than any id holds (256 characters, and the spaces around it are few): an id read
 * past it is taken for another candidate's, as no valid id fills it.
 */
const MAX_ID_TEXT = 4096;

/**
 * Reads the record's id of the kind asked (`data.refId` or `data.recordId`) from the answer's one scan
 * and says whether it is another candidate's (answeredOther): `settled` once that id was read, or `data`
 * closed without it (a record without the id says nothing). Every value the id is given is read, not only
 * the first: a body that names it twice is parsed by the browser with the last one.
 */
export class AskedIdWatch extends QuietReader {
  /** The id read that is another candidate's (the first such one), cut to MAX_ID_TEXT; or one that is no id (NotAnId). */
  other: string | NotAnId | undefined;
  settled = false;
  private reading: BoundedText | undefined;

  constructor(
    private readonly path: JsonPath,
    private readonly asked: AskedCandidate,
  ) {
    super();
  }

  override startString(): void {
    // A key's string starts at its object's last key too: text() drops it (inKey) before it ends.
    if (this.path.at(['data', this.asked.kind])) this.reading = new BoundedText(MAX_ID_TEXT + 1);
  }

  override text(piece: TextPiece, inKey: boolean): void {
    const reading = this.reading;
    if (!reading) return;
    if (inKey) {
      this.reading = undefined;
      return;
    }
    reading.add(piece);
  }

  override endString(): void {
    const reading = this.reading;
    this.reading = undefined;
    if (!reading) return;
    this.compare(reading.text());
  }

  /** Text, or a number's JSON text as sent (`12345`, not as JavaScript would write it back). */
  private compare(value: string): void {
    // Past any id's length: no candidate asked for, whatever its start says.
    const other = value.length > MAX_ID_TEXT ? value.slice(0, MAX_ID_TEXT) : answeredOther(value, this.asked.id);
    this.other ??= other;
    this.settled = true;
  }

  override scalar(kind: ScalarKind, bytes: Buffer, from: number, to: number): void {
    if (!this.path.at(['data', this.asked.kind])) return;
    // null: no id, as a record without it. A number is compared by its text as sent (before: not compared at all).
    if (kind === 'number') this.compare(bytes.toString('latin1', from, Math.min(to, from + MAX_ID_TEXT + 1)));
    else if (kind !== 'null') this.other ??= { notAnId: 'true or false' };
    this.settled = true;
  }

  override open(bracket: '{' | '['): void {
    // An object or a list cannot be shown to be the asked candidate's id: refused as not provably theirs.
    if (!this.path.at(['data', this.asked.kind])) return;
    this.other ??= { notAnId: bracket === '{' ? 'an object' : 'a list' };
    this.settled = true;
  }

  override close(): void {
    // The scan pops its path before its readers see the close: at `data` means `data` itself closed.
    if (this.path.at(['data'])) this.settled = true;
  }
}
