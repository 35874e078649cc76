import { LOOKUP_KINDS, type LookupKind } from '../../kyc/contract/lookup.ts';
import { answeredOther, type NotAnId } from '../../kyc/contract/answered-id.ts';
import { idOfNumberText } from '../../kyc/contract/record-id.ts';
import { isRecordText, isWrapper, secondEnvelopeOf, WRAPPED_FIELDS, type Wrapper } from '../../kyc/contract/second-envelope.ts';
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

/** A text being read: the record's own field (`data.<field>`), or a wrapped object's (`data.<wrapper>.<field>`). */
interface Reading {
  text: BoundedText;
  field: string;
  wrapper?: Wrapper;
}

const isIdKind = (field: string | undefined): boolean => (LOOKUP_KINDS as readonly (string | undefined)[]).includes(field);

/**
 * Reads the record's id of the kind asked (`data.refId` or `data.recordId`) from the answer's one scan
 * and says whether it is another candidate's (answeredOther): `settled` once that id was read, or `data`
 * closed without it (a record without the id says nothing). Every value the id is given is read, not only
 * the first: a body that names it twice is parsed by the browser with the last one.
 *
 * A `data.data` or `data.record` object whose id of the kind asked is another's holds another candidate's
 * record: `other`, whether the record has an id of its own (then it carries theirs beside its own fields)
 * or not (then it came wrapped). A record with no id of its own (neither kind) whose `data.data` or
 * `data.record` shows a record otherwise (its status or an id: second-envelope.ts, the page's rule) is a
 * record wrapped in a second envelope, told once `data` closes: `wrapped` (refused as not a record, as the
 * page and the status level say it). Until then the answer is held, as one whose id is not yet read is;
 * and so it is while the scan is inside such an object, whose id may be another's (`settled`).
 */
export class AskedIdWatch extends QuietReader {
  /** The id read that is another candidate's (the first such one), cut to MAX_ID_TEXT; or one that is no id (NotAnId). */
  other: string | NotAnId | undefined;
  /** The id of the kind asked was read, or `data` closed without it. */
  private idRead = false;
  /** Where the record came wrapped in a second envelope, its wrapped id not another's (or none): told as `data` closes. */
  wrapped: Wrapper | undefined;
  private reading: Reading | undefined;
  /** The record gave a refId or a recordId of its own (text, not empty, or a whole number): it is that record, whatever it wraps. */
  private ownId = false;
  /** The wrapped objects seen to show a record. */
  private readonly wrappedHolds = new Set<Wrapper>();

  /** Whether what was read so far may pass: the id known, and the scan not inside a `data.data` or `data.record` object. */
  get settled(): boolean {
    const { kinds, keys } = this.path;
    const inWrapper =
      kinds.length >= 3 && kinds[0] === '{' && kinds[1] === '{' && kinds[2] === '{' && keys[0] === 'data' && isWrapper(keys[1]);
    return this.idRead && !inWrapper;
  }

  constructor(
    private readonly path: JsonPath,
    private readonly asked: AskedCandidate,
  ) {
    super();
  }

  override startString(): void {
    // A key's string starts at its object's last key too: text() drops it (inKey) before it ends.
    const { keys } = this.path;
    if (this.path.at(['data', '*']) && isIdKind(keys[1])) this.reading = { text: new BoundedText(MAX_ID_TEXT + 1), field: keys[1]! };
    else if (this.path.at(['data', '*', '*']) && isWrapper(keys[1]) && WRAPPED_FIELDS.includes(keys[2]!))
      this.reading = { text: new BoundedText(MAX_ID_TEXT + 1), field: keys[2]!, wrapper: keys[1] };
  }

  override text(piece: TextPiece, inKey: boolean): void {
    const reading = this.reading;
    if (!reading) return;
    if (inKey) {
      this.reading = undefined;
      return;
    }
    reading.text.add(piece);
  }

  override endString(): void {
    const reading = this.reading;
    this.reading = undefined;
    if (!reading) return;
    const text = reading.text.text();
    if (reading.wrapper) {
      if (isRecordText(text)) this.wrappedHolds.add(reading.wrapper);
      if (reading.field === this.asked.kind) this.other ??= this.otherOf(text);
      return;
    }
    if (isRecordText(text)) this.ownId = true;
    if (reading.field === this.asked.kind) this.compare(text);
  }

  private otherOf(value: string): string | NotAnId | undefined {
    // Past any id's length: no candidate asked for, whatever its start says.
    return value.length > MAX_ID_TEXT ? value.slice(0, MAX_ID_TEXT) : answeredOther(value, this.asked.id);
  }

  /** Text, or a number's JSON text as sent (`12345`, not as JavaScript would write it back). */
  private compare(value: string): void {
    this.other ??= this.otherOf(value);
    this.idRead = true;
  }

  override scalar(kind: ScalarKind, bytes: Buffer, from: number, to: number): void {
    const field = this.path.at(['data', '*']) ? this.path.keys[1] : undefined;
    if (!isIdKind(field)) return;
    const number = kind === 'number' ? bytes.toString('latin1', from, Math.min(to, from + MAX_ID_TEXT + 1)) : undefined;
    // A whole number in plain digits is an id of the record's own, read as its digits (record-id.ts), as text is.
    if (number !== undefined && idOfNumberText(number) !== undefined) this.ownId = true;
    if (field !== this.asked.kind) return;
    // null: no id, as a record without it. A number is compared by its text as sent (before: not compared at all).
    if (number !== undefined) this.compare(number);
    else if (kind !== 'null') this.other ??= { notAnId: 'true or false' };
    this.idRead = true;
  }

  override open(bracket: '{' | '['): void {
    // An object or a list cannot be shown to be the asked candidate's id: refused as not provably theirs.
    if (!this.path.at(['data', this.asked.kind])) return;
    this.other ??= { notAnId: bracket === '{' ? 'an object' : 'a list' };
    this.idRead = true;
  }

  override close(): void {
    // The scan pops its path before its readers see the close: at `data` means `data` itself closed.
    if (!this.path.at(['data'])) return;
    if (this.other === undefined) this.wrapped = secondEnvelopeOf(this.ownId, (wrapper) => this.wrappedHolds.has(wrapper));
    this.idRead = true;
  }
}
