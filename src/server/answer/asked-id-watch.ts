import { answeredOther, type LookupKind } from '../../kyc/contract/lookup.ts';
import { type JsonPath, QuietReader } from './answer-scan.ts';
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
  /** The id read that is another candidate's (the first such one), cut to MAX_ID_TEXT. */
  other: string | undefined;
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
    const value = reading.text();
    // Past any id's length: no candidate asked for, whatever its start says.
    const other = value.length > MAX_ID_TEXT ? value.slice(0, MAX_ID_TEXT) : answeredOther(value, this.asked.id);
    this.other ??= other;
    this.settled = true;
  }

  override scalar(): void {
    // Not text (a number, null): no id to compare, as a record without it.
    if (this.path.at(['data', this.asked.kind])) this.settled = true;
  }

  override close(): void {
    // The scan pops its path before its readers see the close: at `data` means `data` itself closed.
    if (this.path.at(['data'])) this.settled = true;
  }
}
