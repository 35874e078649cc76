import {
  type CustomFieldValue,
  customFieldValueSchema,
  dateAsSent,
  type IdentityAttribute,
  identityAttributeSchema,
  isDateField,
  isoTimestampSchema,
  readTimestamp,
} from './record-fields.ts';
import { JSON_TEXT_ATTRIBUTES } from './identity-values.ts';
import { readUntypedAttribute } from './identity-forms.ts';
import { mapFromText } from './map-text.ts';
import { shareNumberTexts, stringifyKeepingNumbers } from './number-text.ts';
import {
  attachStructuredFields,
  customFieldAside,
  markSentAsObject,
  scalarField,
  type StructuredField,
  structuredField,
} from './other-forms.ts';
import { readStatus } from './status.ts';
import { idOfNumberAt, isRecordId, markIdsSentAsNumber } from './record-id.ts';
import { isRecordText, SECOND_ENVELOPE, secondEnvelopeOf, showsRecord, WRAPPED_FIELDS, type Wrapper } from './second-envelope.ts';
import { isPlainObject, kindOf } from './value-kind.ts';
import { z } from './zod.ts';

/**
 * How a candidate record is read: liberally. The real service's answers are not uniform (its first
 * published status answer has no `isArchived`, its archive examples no `blockPassID`,
 * upstream-api-facts.md), so only what the page cannot do without is required: a status (any non-empty
 * text: an unknown one is shown as such) and a refId or a recordId. Every other field is optional, and
 * one that is there in another form than the contract's (a number where text was due, a list where an
 * object was) costs that field alone: it is left out of the record and named in `unread`, and the rest of
 * the record is read. Inside `customFields`, `identities` and `certs` the same holds per entry. A value
 * in another form that still says the same is read into the contract's (other-forms.ts says which came
 * so): a certificate or an address given as the JSON document rather than as its text; `customFields`,
 * `identities` or `certs` sent as text holding the map's JSON, read as that map (map-text.ts); a custom field
 * or an identity attribute holding an object or a list is kept beside the others as its JSON, shown but
 * never taken for text.
 *
 * What `unread` says of a field is its name and the kinds of value expected and found, never the value
(but a date's, when it has a date's shape: dateAsSent, so that the page can show it as sent):
 * a support user may be told of a status-level field that could not be read, and a value in the wrong
 * place could be anything.
 */

/** A record as read: the contract's fields with their types, and whatever else the service sent, as sent. */
export interface CandidateRecord {
  status: string;
  refId?: string;
  recordId?: string;
  isArchived?: boolean;
  blockPassID?: string;
  /** The spec's neutral name for `blockPassID` (upstream-api.seed.md): read as the service's id where it comes (service-id.ts). */
  serviceID?: string;
  submitCount?: number;
  willArchiveAtDate?: string;
  customFields?: Record<string, CustomFieldValue>;
  identities?: Record<string, IdentityAttribute>;
  certs?: Record<string, string>;
  [field: string]: unknown;
}

/** A field the answer holds but that could not be read: `identities.passport`, a whole number expected, text found. */
export interface UnreadField {
  field: string;
  expected: string;
  found: string;
  /** A `…Date` field's value as sent, when it has a date's shape (dateAsSent): shown as sent, never read. */
  sent?: string;
}

export type RecordReading = { ok: true; record: CandidateRecord; unread: UnreadField[] } | { ok: false; path: string[]; message: string };

interface FieldCheck {
  expected: string;
  schema: z.ZodMiniType;
  /** A value of another form that still says the same, turned into the contract's (a certificate given as JSON rather than as its text). `name`: the entry's, in a map. */
  alsoRead?: (value: unknown, name: string, holder: object) => unknown;
  /** A map's entry that is none of its values but is still shown, kept beside the map (other-forms.ts); `entries`: the map as sent. */
  aside?: (name: string, value: unknown, entries: Record<string, unknown>) => StructuredField | undefined;
}

/**
 * `isArchived` as any answer gives it, a record's or a list record's: `true` or `false`, or the text
 * `"true"` or `"false"` that a service writing every value as text sends, which says the same. Undefined
 * for anything else (named unreadable by the caller). One reading, so the queue and the page agree.
 */
export function readArchivedFlag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

const TEXT: FieldCheck = { expected: 'text', schema: z.string() };
/** An id sent as a whole number is read as its digits (record-id.ts); any other number stays unread. */
const ID: FieldCheck = { ...TEXT, alsoRead: (value, name, holder) => idOfNumberAt(holder, name, value) };
/** A timestamp in another of its forms (`+0000`, no seconds, microseconds…) is kept in the contract's (readTimestamp). */
const DATE: FieldCheck = { expected: 'an ISO 8601 timestamp', schema: isoTimestampSchema, alsoRead: readTimestamp };

/** The single-valued fields of the contract. Every `…Date` field is a timestamp (DATE). */
const FIELDS: ReadonlyMap<string, FieldCheck> = new Map([
  ['refId', ID],
  ['recordId', ID],
  ['blockPassID', TEXT],
  ['serviceID', TEXT],
  [
    'isArchived',
    // `"false"`, as a service that writes every value as text sends it, says the same as `false`.
    {
      expected: 'true or false',
      schema: z.boolean(),
      alsoRead: readArchivedFlag,
    },
  ],
  [
    'submitCount',
    // `"2"`, as the list's counts may come (list-record.ts), is the number 2; nothing else given as text is.
    {
      expected: 'a whole number',
      schema: z.int().check(z.nonnegative()),
      alsoRead: (value) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : undefined),
    },
  ],
]);

/** The map-valued fields: an object whose every entry is checked on its own. Maps, not objects: a field named `__proto__` is no field of theirs. */
const MAPS: ReadonlyMap<string, FieldCheck> = new Map<string, FieldCheck>([
  ['customFields', { expected: 'text, a number, true or false, or empty', schema: customFieldValueSchema, aside: customFieldAside }],
  [
    'identities',
    {
      expected: 'an attribute ({type, value})',
      schema: identityAttributeSchema,
      // An address or a phone is documented as text holding a JSON object; one given as the object itself says the same,
      // written back with its numbers as sent (10115.0 stays 10115.0: docs/using.md promises an address's parts as written).
      // A bare string or `{value}` with no type is read as the string attribute it says, marked (identity-forms.ts).
      alsoRead: (value, name) =>
        JSON_TEXT_ATTRIBUTES.has(name) && isPlainObject(value) && typeof value.type === 'string' && isPlainObject(value.value)
          ? markSentAsObject({ ...value, value: stringifyKeepingNumbers(value.value) })
          : readUntypedAttribute(value),
      aside: structuredAttribute,
    },
  ],
  [
    'certs',
    {
      expected: 'a certificate as text',
      schema: z.string(),
      // The contract's certificate is a string holding a JSON document; one given as the document itself is the same document,
      // written back with its numbers as sent: JSON.stringify wrote 12345678901234567890 as 12345678901234567000, 1e21 as 1e+21.
      alsoRead: (value) => (typeof value === 'object' && value !== null ? stringifyKeepingNumbers(value) : undefined),
    },
  ],
]);

/**
 * A top-level field the reading checks (the status, each of FIELDS and MAPS, every `…Date`), each of which
 * the candidate page shows in its place; every other field is kept as sent, and shown as such (other-fields.ts).
 */
export function isContractField(field: string): boolean {
  return field === 'status' || FIELDS.has(field) || MAPS.has(field) || isDateField(field);
}

/** At most this many fields are named as unread: a hostile record cannot make the list the page's size. */
export const MAX_UNREAD_FIELDS = 64;

/** How an entry's name is quoted in `unread`: an attribute's name, cut to a length a reader can take in. */
const MAX_ENTRY_NAME = 64;

export function readCandidateRecord(input: unknown): RecordReading {
  if (!isPlainObject(input)) return { ok: false, path: [], message: `The record must be an object, not ${kindOf(input)}.` };
  const wrapper = secondEnvelopeAt(input);
  if (wrapper) return { ok: false, path: [wrapper], message: SECOND_ENVELOPE };
  const status = Object.hasOwn(input, 'status') ? input.status : undefined;
  if (typeof status !== 'string' || status === '') {
    const message =
      status === undefined || status === null
        ? 'The record has no status.'
        : status === ''
          ? 'The record’s status is empty.'
          : `The record’s status must be text, not ${kindOf(status)}.`;
    return { ok: false, path: ['status'], message };
  }
  const record: Record<string, unknown> = {};
  const unread: UnreadField[] = [];
  const note = (field: string, expected: string, value: unknown, sent?: string) => {
    if (unread.length < MAX_UNREAD_FIELDS) unread.push({ field, expected, found: kindOf(value), ...(sent === undefined ? {} : { sent }) });
  };
  for (const [field, value] of Object.entries(input)) {
    const check = FIELDS.get(field) ?? (isDateField(field) ? DATE : undefined);
    const map = MAPS.get(field);
    if ((check || map) && value === null) continue; // null: not given, as absent.
    if (check) {
      const other = check.schema.safeParse(value).success ? value : check.alsoRead?.(value, field, input);
      if (other !== undefined) define(record, field, other);
      else note(field, check.expected, value, check === DATE ? dateAsSent(value) : undefined);
    } else if (map) {
      // A map sent as text holding its JSON is that map (map-text.ts), as a certificate's document is: identities,
      // custom fields and certificates alike, each entry then read as in the object.
      const entries = isPlainObject(value) ? value : mapFromText(value);
      if (entries) define(record, field, readEntries(field, entries, map, note));
      else note(field, 'an object', value);
    } else {
      define(record, field, field === 'status' ? readStatus(status) : value);
    }
  }
  if (!isId(record.refId) && !isId(record.recordId))
    return { ok: false, path: ['refId'], message: 'The record has neither a refId nor a recordId that can be read.' };
  markIdsSentAsNumber(record, new Set(['refId', 'recordId'].filter((field) => typeof input[field] === 'number' && field in record)));
  // A top-level field's number is shown as sent where its text was kept (other-fields.ts): the copy keeps it.
  shareNumberTexts(input, record);
  return { ok: true, record: record as CandidateRecord, unread };
}

function readEntries(
  field: string,
  entries: Record<string, unknown>,
  check: FieldCheck,
  note: (field: string, expected: string, value: unknown) => void,
): Record<string, unknown> {
  const read: Record<string, unknown> = {};
  const aside: StructuredField[] = [];
  for (const [name, value] of Object.entries(entries)) {
    const other = check.schema.safeParse(value).success ? value : check.alsoRead?.(value, name, entries);
    const kept = other === undefined ? check.aside?.(name, value, entries) : undefined;
    if (other !== undefined) define(read, name, other);
    else if (kept) aside.push(kept);
    else note(`${field}.${name.length > MAX_ENTRY_NAME ? `${name.slice(0, MAX_ENTRY_NAME)}…` : name}`, check.expected, value);
  }
  attachStructuredFields(read, aside);
  // A custom field's number is shown as sent where its text was kept (number-text.ts): the copy keeps it.
  shareNumberTexts(entries, read);
  return read;
}

/**
 * An identity attribute whose value is an object or a list (`{"type": "string", "value": {…}}`, or one
 * with no `type`), or that is itself a list or an object with neither `type` nor `value`
 * (`"given_name": ["Ada", "Augusta"]`): kept beside the attributes as its JSON, by the custom fields'
 * rule (structuredField). So is one whose value is a number, true or false, or null
 * (`"dob": {"type": "string", "value": 19151210}`: scalarField), shown as sent, never read as a date:
 * refusing it would hide what the service sent and mislead no less. Any other attribute of another form
 * (no value, an attribute that is itself a number or text, a `type` that is no text) is still named unread.
 */
function structuredAttribute(name: string, value: unknown): StructuredField | undefined {
  if (!isPlainObject(value) || !(Object.hasOwn(value, 'type') || Object.hasOwn(value, 'value'))) return structuredField(name, value);
  const type = Object.hasOwn(value, 'type') ? value.type : undefined;
  if (type !== undefined && typeof type !== 'string') return undefined;
  const kept = Object.hasOwn(value, 'value') ? (structuredField(name, value.value) ?? scalarField(name, value)) : undefined;
  return kept && type !== undefined ? { ...kept, type } : kept;
}

const isId = isRecordText;
export { SECOND_ENVELOPE };

/**
 * `{"data":{"status":"success","data":{record}}}`, `{"data":{"record":{…}}}`, `{"data":{"data":{…}}}`: the
 * record one level down, said as that, not as a record with no id or no status (second-envelope.ts, the
 * rule the server's answer guard reads the answer by too). Refused, not unwrapped: the server's answer
 * guard (the asked id), its parts reader (the pictures) and its status level read the record at `data`,
 * and a page that read it one level down would show what none of them checked.
 */
function secondEnvelopeAt(input: Record<string, unknown>): Wrapper | undefined {
  const holds = (wrapper: Wrapper) => {
    const inner = Object.hasOwn(input, wrapper) ? input[wrapper] : undefined;
    return isPlainObject(inner) && WRAPPED_FIELDS.some((field) => Object.hasOwn(inner, field) && showsRecord(field, inner[field]));
  };
  return secondEnvelopeOf(isRecordId(input, 'refId', input.refId) || isRecordId(input, 'recordId', input.recordId), holds);
}

/** An own property, whatever its name (`__proto__` included): never the object's prototype. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

const unreadByRecord = new WeakMap<object, readonly UnreadField[]>();

/** The fields the record's answer held but that could not be read (none for a record read whole). */
export function unreadFieldsOf(record: CandidateRecord): readonly UnreadField[] {
  return unreadByRecord.get(record) ?? [];
}

/** Keeps `unread` beside the record (not in it: it is not the service's data), as picture parts are kept. */
export function attachUnreadFields(record: CandidateRecord, unread: readonly UnreadField[]): void {
  if (unread.length > 0) unreadByRecord.set(record, unread);
  else unreadByRecord.delete(record);
}

/** The unread list as the server passes it on with a status-level record (bounded, as read). */
export const unreadFieldsSchema = z
  .array(
    z.object({
      field: z.string().check(z.maxLength(MAX_ENTRY_NAME + 40)),
      expected: z.string().check(z.maxLength(80)),
      found: z.string().check(z.maxLength(40)),
    }),
  )
  .check(z.maxLength(MAX_UNREAD_FIELDS));
