import { isStatusLevelField, keptAtStatusLevel, ownStatusDateFields, readsAsStatusDate } from '../../kyc/contract/schema.ts';
import { shareNumberTexts } from '../../kyc/contract/number-text.ts';
import type { JsonPath } from './answer-scan.ts';
import { memberPlace, type Place, setMember, ValueBuilder } from './answer-value.ts';
import { repeatedMember } from '../http/http-reply.ts';
import { EnvelopeKeys, errorMemberPlace, openedEnvelopePlace } from './envelope-members.ts';
import { formOnly, isIdField, MAX_CUSTOM_FIELDS_TEXT, supportFieldsKept, WRAPPED_FIELDS, WRAPPERS } from './status-level-value.ts';
import { BoundedText, type TextPiece } from './text-piece.ts';

/**
 * A support user's record read without holding the body, from the answer's one scan (answer-scan.ts,
 * answer-value.ts): only the envelope's `status`, the status-level fields of `data` and, in an
 * environment with support fields, those custom fields (`fields`) are built into values; everything else
 * (identities, pictures, certificates, other custom fields) is passed over as it arrives, so a 15 MB
 * record costs a few kilobytes here, however many are read at once. A support field is kept when it
 * holds text, a number, true/false or null: one that holds an object or a list is kept by its form alone
 * (`{}`, `[]`), its content passed over unread (never shown: it could hold anything, identity data included).
 * `customFields` sent as text is held to MAX_CUSTOM_FIELDS_TEXT characters and one more, and read as the
 * JSON of an object when it is one within that bound, for the same support fields alone (supportFieldsKept);
 * longer text, or text that is no such JSON, is kept by its form alone (`''`), said unread. The whole body is
 * still read as JSON: a body that is not JSON is refused, and so is one that gives the envelope's `status`
 * or `data` twice (envelope-members.ts). The value, unless refused (as too large, which a record never is:
 * see MAX_DATE_CANDIDATES), equals `statusLevelValue(JSON.parse(body), fields)` (status-level-value.ts).
 */

export { statusLevelValue } from './status-level-value.ts';

/** What a status-level record may hold in kept text and values at most: it is a few hundred bytes. */
const MAX_KEPT = 64 * 1024;

/** A field that may be the date of the record's own status, not known until the record is read whole (`status` may come after it). */
const mayBeOwnDate = (field: string) => field.endsWith('Date') && !isStatusLevelField(field);

/**
 * The most `…Date` fields of `data` kept while its status is not read yet, one of which may be that
 * status's date: a record has a handful (its status dates), and each kept one costs a member of the
 * object however short its value. One more refuses the status level as more than a record holds (it
 * cannot be told which of them the status will name).
 */
export const MAX_DATE_CANDIDATES = 64;

export class StatusLevelReader extends ValueBuilder {
  private root: Record<string, unknown> | undefined;
  private data: Record<string, unknown> | undefined;
  private custom: Record<string, unknown> | undefined;
  /**
   * `data.customFields` being read as text (with `fields`): at most MAX_CUSTOM_FIELDS_TEXT characters and
   * one more held, apart from the kept values' bound (MAX_KEPT), which counts only what is kept of it.
   */
  private customText: BoundedText | undefined;
  /** `data.data` or `data.record` opened as an object: its status and ids kept (wrappedOf). */
  private wrapped: Record<string, unknown> | undefined;
  /**
   * The `…Date` fields of `data` kept beside the status-level ones, which may be the date of its status:
   * before the status is read, up to MAX_DATE_CANDIDATES of them; once it is, only that status's own.
   */
  private ownDateCandidates = new Set<string>();
  /** `data.status` was read: a `…Date` field after it is kept only when it is that status's date (`ownDates`: either spelling). */
  private statusRead = false;
  private ownDates: readonly string[] = [];
  /** `…Date` fields of `data` not kept as not the date of the status read before them. */
  private datesPassedOver = 0;
  /** The envelope's `status` and `data` as read: one given twice refuses the answer. */
  private readonly envelopeKeys: EnvelopeKeys;

  /** `fields`: the environment's support fields, kept from `data.customFields` (undefined: none). */
  constructor(
    path: JsonPath,
    private readonly fields?: readonly string[],
  ) {
    super(path, MAX_KEPT);
    this.envelopeKeys = new EnvelopeKeys(path);
  }

  override key(name: string): void {
    super.key(name);
    this.envelopeKeys.key(name);
    const repeated = this.envelopeKeys.repeated;
    if (repeated) this.refused ??= repeatedMember(repeated);
  }

  /** How many `…Date` fields beyond the status-level ones are kept now, and how many were passed over. */
  get dates(): { kept: number; passedOver: number } {
    return { kept: this.ownDateCandidates.size, passedOver: this.datesPassedOver };
  }

  /** The reduced envelope once the body was read whole (undefined when it was not an object). */
  value(): unknown {
    const { root, data } = this;
    if (!root || !data) return root;
    const ownDates = ownStatusDateFields(data.status);
    const others = [...this.ownDateCandidates].filter((field) => !ownDates.includes(field) && !keptAtStatusLevel({}, field, data[field]));
    if (others.length === 0) return root;
    // A copy without the other candidates (at most MAX_DATE_CANDIDATES): the status part asks early, its status may not be read yet.
    const kept: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(data)) if (!others.includes(field)) setMember(kept, field, value);
    // An id's number as sent goes with the copy (the guard compares its text).
    shareNumberTexts(data, kept);
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(root)) setMember(out, key, key === 'data' && value === data ? kept : value);
    return out;
  }

  /**
   * The root object, and `data` when it is an object (a later `data`, as JSON.parse keeps the last,
   * replaces it). False for any other value at the top, which is opened as any other.
   */
  protected override openOutside(bracket: '{' | '['): boolean {
    // The envelope itself, and an `extra` object, as the error members' reader opens them.
    const opened = openedEnvelopePlace(this.path, bracket, this.root);
    if (opened) {
      this.root = opened.root;
      return true;
    }
    if (this.root && this.path.at(['data'])) {
      this.data = bracket === '{' ? {} : undefined;
      this.custom = undefined;
      this.wrapped = undefined;
      this.ownDateCandidates.clear();
      this.statusRead = false;
      this.ownDates = [];
      this.datesPassedOver = 0;
      // A list is no record: kept as an empty list (its entries unread), to be said as a list (not-a-record.ts).
      setMember(this.root, 'data', this.data ?? []);
      if (this.data && this.fields) this.keepCustom({});
      return true;
    }
    // An id sent as an object or a list: its form alone is kept (containerForm), none of its content read.
    if (this.data && this.path.at(['data', '*']) && isIdField(this.path.keys[1]!)) {
      setMember(this.data, this.path.keys[1]!, bracket === '{' ? {} : []);
      return true;
    }
    if (this.data && this.path.at(['data', '*']) && WRAPPERS.includes(this.path.keys[1]!)) {
      // A later member of the same name replaces it, as JSON.parse keeps the last.
      this.wrapped = bracket === '{' ? {} : undefined;
      if (this.wrapped) setMember(this.data, this.path.keys[1]!, this.wrapped);
      else Reflect.deleteProperty(this.data, this.path.keys[1]!);
      return true;
    }
    if (!(this.data && this.fields)) return false;
    if (this.path.at(['data', 'customFields'])) {
      this.keepCustom(bracket === '{' ? undefined : []);
      return true;
    }
    // A support field holding an object or a list: its form alone is kept, its content passed over unread,
    // so that it is named unread (status-level.ts); a later value of the same name replaces it, as JSON.parse keeps the last.
    if (this.custom && this.isSupportField()) {
      setMember(this.custom, this.path.keys[2]!, bracket === '{' ? {} : []);
      return true;
    }
    return false;
  }

  /**
   * `data.customFields` opened as an object (`form` undefined: its support fields are kept from it), or
   * another value in its place: the support fields read from its text (endString), or its form alone
   * (formOnly: `[]`, `''`), none of its content read.
   */
  private keepCustom(form: unknown): void {
    this.custom = form === undefined ? {} : undefined;
    setMember(this.data!, 'customFields', this.custom ?? form);
  }

  /**
   * A number in `customFields`' place counts one character, whatever its length: only its kind is said of
   * it (formOnly). Text there never reaches the builder's own strings: it is held as customText.
   */
  protected override ownBound(): number {
    return this.fields && this.path.at(['data', 'customFields']) ? 0 : Number.POSITIVE_INFINITY;
  }

  /** Text in `customFields`' place is held apart, up to MAX_CUSTOM_FIELDS_TEXT characters and one more (the rest passed over). */
  override startString(): void {
    if (this.data && this.fields && !this.tooLarge && this.path.at(['data', 'customFields'])) {
      this.customText = new BoundedText(MAX_CUSTOM_FIELDS_TEXT + 1);
      return;
    }
    super.startString();
  }

  override text(piece: TextPiece, inKey: boolean): void {
    if (this.customText && !inKey) this.customText.add(piece);
    else super.text(piece, inKey);
  }

  /**
   * `customFields`' text read whole (or its bound and one more character): its support fields kept as an
   * object's are (supportFieldsKept; text past the bound by its form alone), counted against MAX_KEPT by
   * the JSON of what is kept, as a support field's text in the object is counted. A later `customFields`
   * replaces it, as JSON.parse keeps the last.
   */
  override endString(): void {
    const customText = this.customText;
    if (!customText) {
      super.endString();
      return;
    }
    this.customText = undefined;
    const kept = supportFieldsKept(customText.text(), this.fields!);
    this.count(JSON.stringify(kept).length);
    if (!this.tooLarge) this.keepCustom(kept);
  }

  private isSupportField(): boolean {
    return this.path.at(['data', 'customFields', '*']) && this.fields!.includes(this.path.keys[2]!);
  }

  /** Where a value starting outside every kept one goes: `status`, a status-level field of `data`; undefined when it is passed over. */
  protected outside(): Place | undefined {
    const root = this.root;
    const errorMember = root && errorMemberPlace(this.path, root);
    if (errorMember) return errorMember;
    // A `data` that is no object (a text, perhaps encrypted; a number) is kept as an empty text, said to be no record
    // (status-level.ts) as the full answer says it; null stays null: said to hold no record (NO_RECORD).
    if (root && this.path.at(['data'])) return (value) => setMember(root, 'data', formOnly(value));
    const data = this.data;
    const wrapped = this.wrapped;
    if (
      wrapped &&
      this.path.at(['data', '*', '*']) &&
      data?.[this.path.keys[1]!] === wrapped &&
      WRAPPED_FIELDS.includes(this.path.keys[2]!)
    )
      return memberPlace(wrapped, this.path.keys[2]!);
    // A `data.data` or `data.record` that is no object holds no record: a later one replaces an earlier, as JSON.parse keeps the last.
    if (data && this.path.at(['data', '*']) && WRAPPERS.includes(this.path.keys[1]!))
      return () => Reflect.deleteProperty(data, this.path.keys[1]!);
    const kept = data && this.path.at(['data', '*']) ? this.dataField(data, this.path.keys[1]!) : undefined;
    if (kept) return kept;
    if (data && this.fields && this.path.at(['data', 'customFields']))
      return (value) => this.keepCustom(value === null ? {} : formOnly(value));
    const custom = this.custom;
    // A number as sent (number-text.ts): an account number 12345678901234567890 must not reach the page rounded.
    if (custom && this.isSupportField()) return memberPlace(custom, this.path.keys[2]!);
    return undefined;
  }

  /** Where a field of `data` goes: a status-level field, or a `…Date` field that may be its status's date. */
  private dataField(data: Record<string, unknown>, field: string): ((value: unknown) => void) | undefined {
    if (field === 'status') {
      return (value) => {
        setMember(data, field, value);
        this.statusKnown(data);
      };
    }
    // An id's number keeps its text as sent: the guard compares it so (answeredOther), 1e3 not being the id 1000.
    if (isIdField(field)) return memberPlace(data, field);
    if (isStatusLevelField(field)) return (value) => setMember(data, field, value);
    if (!mayBeOwnDate(field)) return undefined;
    const candidates = this.ownDateCandidates;
    if (this.statusRead && !this.ownDates.includes(field)) {
      // A date named as a status's (`escalatedDate`) is kept when it holds a timestamp, whatever the status.
      if (readsAsStatusDate(field)) return this.namedDate(data, field);
      this.datesPassedOver++;
      return undefined;
    }
    if (!candidates.has(field)) {
      if (candidates.size >= MAX_DATE_CANDIDATES) {
        this.tooLarge = true;
        return undefined;
      }
      candidates.add(field);
      // Its name too: a kept member's name is held as its value is.
      this.count(field.length);
    }
    return (value) => setMember(data, field, value);
  }

  /** A date kept by its name (`escalatedDate`) when it holds a timestamp; a later one of the same name that does not takes it out, as JSON.parse keeps the last. */
  private namedDate(data: Record<string, unknown>, field: string): (value: unknown) => void {
    this.count(field.length);
    return (value) => {
      if (keptAtStatusLevel({}, field, value)) setMember(data, field, value);
      else Reflect.deleteProperty(data, field);
    };
  }

  /**
   * `data.status` read: of the `…Date` fields kept so far, only its own date stays. A second status naming
   * another date after some were passed over is refused: the one it names may have been among them.
   */
  private statusKnown(data: Record<string, unknown>): void {
    const ownDates = ownStatusDateFields(data.status);
    const mayHavePassed = ownDates.some((field) => mayBeOwnDate(field) && !this.ownDateCandidates.has(field));
    if (this.statusRead && this.datesPassedOver > 0 && mayHavePassed) this.tooLarge = true;
    this.statusRead = true;
    this.ownDates = ownDates;
    for (const field of this.ownDateCandidates) {
      if (ownDates.includes(field) || keptAtStatusLevel({}, field, data[field])) continue;
      Reflect.deleteProperty(data, field);
      this.ownDateCandidates.delete(field);
      this.datesPassedOver++;
    }
  }
}
