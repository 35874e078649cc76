import { LOOKUP_KINDS } from '../../kyc/contract/lookup.ts';
import { shareNumberTexts } from '../../kyc/contract/number-text.ts';
import { keptAtStatusLevel } from '../../kyc/contract/schema.ts';
import { WRAPPERS as CONTRACT_WRAPPERS, WRAPPED_FIELDS } from '../../kyc/contract/second-envelope.ts';
import { setMember } from './answer-value.ts';
import { mapFromTextKeepingNumbers } from './map-text-numbers.ts';
import { ENVELOPE_ERROR_MEMBERS } from './envelope-members.ts';

/**
 * The status level of an answer already parsed, as the streamed reader (status-level-stream.ts) reduces
 * it as it comes, and the forms both keep of a value whose content is never read at status level.
 */

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The envelope reduced as the streamed reader (StatusLevelReader) reduces it: `status`, and the status-level fields of an object
 * `data` (a `data` that is no object, an empty text); with `fields`, also `data.customFields` holding those of them, an object or a list by its form alone
 * (empty when the record has none; read from text holding the JSON of an object; its form alone otherwise: supportFieldsKept).
 */
export function statusLevelValue(json: unknown, fields?: readonly string[]): unknown {
  if (!isObject(json)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(json)) {
    if (key === 'status' || ENVELOPE_ERROR_MEMBERS.includes(key)) setMember(out, key, value);
    else if (key === 'extra') {
      if (isObject(value) && Object.hasOwn(value, 'retryAfter')) setMember(out, key, { retryAfter: value.retryAfter });
      else Reflect.deleteProperty(out, key);
    } else if (key === 'error') {
      if (isObject(value) && Object.hasOwn(value, 'message')) setMember(out, key, { message: value.message });
      else Reflect.deleteProperty(out, key);
    } else if (key === 'data') {
      if (isObject(value)) setMember(out, key, statusLevelData(value, fields));
      // No object, kept as what it is, not its content (a text empty, a list empty, any other scalar itself):
      // said as not a record (not-a-record.ts); null stays null, said to hold no record.
      else setMember(out, key, formOnly(value));
    }
  }
  return out;
}

/** `refId`, `recordId`: the fields the other-candidate guard reads (status-level.ts, answeredOtherOf). */
export const isIdField = (field: string) => (LOOKUP_KINDS as readonly string[]).includes(field);

/**
 * An id or a support field sent as an object or a list: its form alone (`{}`, `[]`), never what it holds:
 * all the other-candidate guard needs of an id, and all `unread` says of a support field (status-level.ts).
 */
export const containerForm = (value: unknown): unknown => (Array.isArray(value) ? [] : isObject(value) ? {} : value);

/**
 * `data.data` or `data.record` holding an object: a record perhaps wrapped in a second envelope, kept by
 * what says it holds one (its status and ids, nothing else), so that the status level says it as the
 * page does (record-reading.ts, by the rule of second-envelope.ts), not as a record with no status.
 */
export const WRAPPERS: readonly string[] = CONTRACT_WRAPPERS;
export { WRAPPED_FIELDS };

function wrappedOf(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, inner] of Object.entries(value)) if (WRAPPED_FIELDS.includes(field)) setMember(out, field, inner);
  return out;
}

function statusLevelData(data: Record<string, unknown>, fields: readonly string[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(data)) {
    if (keptAtStatusLevel(data, field, value)) setMember(out, field, isIdField(field) ? containerForm(value) : value);
    else if (WRAPPERS.includes(field) && isObject(value)) setMember(out, field, wrappedOf(value));
    else if (WRAPPERS.includes(field)) Reflect.deleteProperty(out, field);
  }
  if (!fields) return out;
  const given = Object.hasOwn(data, 'customFields') ? data.customFields : undefined;
  setMember(out, 'customFields', supportFieldsKept(given, fields));
  return out;
}

/**
 * The most characters of `customFields` sent as text (the JSON of an object, as the real service sometimes
 * sends it: upstream-api-facts.md) that are read for its support fields: a record's custom fields are a
 * few short values, far below it. A longer text is not read: its form alone is kept (formOnly), said to
 * be unread, as before such text was read at all; the streamed reader holds at most this many characters
 * and one more of it (status-level-stream.ts), however long the text, so a hostile text of 100 MB costs a
 * mebibyte held while its string is read, and nothing parsed.
 */
export const MAX_CUSTOM_FIELDS_TEXT = 1024 * 1024;

/**
 * `customFields` as a support user's answer keeps it, from what the service sent (`given`): of an object,
 * or of text holding the JSON of one (read by the full level's one rule, map-text.ts, its numbers' text
 * kept as sent: map-text-numbers.ts; when it is at most MAX_CUSTOM_FIELDS_TEXT characters), the support fields (`fields`) alone, one holding an object or a
 * list by its form (containerForm), no other member ever; none (`{}`) when absent or null; any other value
 * (a list, a number, text that holds no JSON object or is longer than the bound) by its form alone
 * (formOnly), so that it is said sent but unread. A number's text as sent goes with a support field read
 * from text (number-text.ts), as the object's does (memberPlace).
 */
export function supportFieldsKept(given: unknown, fields: readonly string[]): unknown {
  if (given === undefined || given === null) return {};
  const map = isObject(given)
    ? given
    : typeof given === 'string' && given.length <= MAX_CUSTOM_FIELDS_TEXT
      ? mapFromTextKeepingNumbers(given)
      : undefined;
  if (!map) return formOnly(given);
  const custom: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(map)) {
    if (fields.includes(field)) setMember(custom, field, containerForm(value));
  }
  shareNumberTexts(map, custom);
  return custom;
}

/**
 * `customFields` in another form than an object or the JSON text of one within MAX_CUSTOM_FIELDS_TEXT
 * (text that holds no JSON object, or too long; a list; a number), and `data` that is no object: only its
 * form is kept, never what it holds, so that the answer can say the custom fields were sent but could not
 * be read (status-level.ts), not that nothing was recorded. A number or true/false is kept as it is (its
 * kind is all that is said of it: `unread`).
 */
export function formOnly(value: unknown): unknown {
  return typeof value === 'string' ? '' : Array.isArray(value) ? [] : value;
}
