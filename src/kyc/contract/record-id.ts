import { numberTextAt, shareNumberTexts } from './number-text.ts';

/**
 * A record's id (`refId`, `recordId`) sent as a whole number (`"refId": 12345`): read as its digits, the
 * same id as text, nothing guessed; the one rule of the record's reading (record-reading.ts), the server's
 * answer guard (asked-id-watch.ts, on the number's text as it streams) and the status level, as the webhook
 * reader reads a delivery's ids (delivery-fields.ts). Only a safe integer written as plain digits is an id:
 * a fraction (`12345.0`, `12345.5`), an exponent (`1e3`), a negative number, `-0` or one past 2^53 (its
 * digits not read exactly) stays unreadable, named as such, never taken for an id it may not be.
 */

/** Plain digits, no sign, no leading zero, at most 16 of them (2^53 has 16). */
const PLAIN_DIGITS = /^(?:0|[1-9][0-9]{0,15})$/;

/** The id a number's JSON text as sent names (its digits), when that text is a safe integer in plain digits. */
export function idOfNumberText(sent: string): string | undefined {
  return PLAIN_DIGITS.test(sent) && Number.isSafeInteger(Number(sent)) ? sent : undefined;
}

/**
 * The id a number read names: `sent`, its text as sent where the reading kept it (number-text.ts: `1e3`,
 * `12345.0` and `-0` are kept, as JavaScript writes them otherwise), else the digits JavaScript writes.
 */
export function idOfNumber(value: number, sent = String(value)): string | undefined {
  // Object.is: -0 is no id, though it equals 0 and JavaScript writes it "0".
  return !Object.is(value, -0) && Object.is(Number(sent), value) ? idOfNumberText(sent) : undefined;
}

/** `holder[field]`, a number, as an id (its text as sent where kept: numberTextAt); undefined for anything else. */
export function idOfNumberAt(holder: object, field: string, value: unknown): string | undefined {
  if (typeof value !== 'number') return undefined;
  const { digits, rounded } = numberTextAt(holder, field, value);
  return rounded ? undefined : idOfNumber(value, digits);
}

/** An id as a record holds it: text, not empty, or a whole number in plain digits (idOfNumberAt). */
export function isRecordId(holder: object, field: string, value: unknown): boolean {
  return (typeof value === 'string' && value !== '') || idOfNumberAt(holder, field, value) !== undefined;
}

/** The records whose ids came as whole numbers, by field: kept beside the record, as `unread` is. */
const sentAsNumber = new WeakMap<object, ReadonlySet<string>>();

/** Marks the ids of `record` that were read from whole numbers (none: unmarked). */
export function markIdsSentAsNumber(record: object, fields: ReadonlySet<string>): void {
  if (fields.size > 0) sentAsNumber.set(record, fields);
}

/** Whether the record's id at `field` came as a whole number, read as its digits. */
export function idSentAsNumber(record: object | undefined, field: string): boolean {
  return record !== undefined && (sentAsNumber.get(record)?.has(field) ?? false);
}

/** The words said beside such an id on the page. */
export const SENT_AS_NUMBER = 'sent as a number, read as its digits';

/**
 * The record's fields as written back to the page (the status level's answer): an id that came as a whole
 * number goes as that number, as sent, so the page reads it by the same rule and says how it came.
 */
export function withIdsAsSent(record: object, fields: Record<string, unknown>): Record<string, unknown> {
  const marked = sentAsNumber.get(record);
  if (!marked) return fields;
  const out = { ...fields };
  shareNumberTexts(fields, out);
  for (const field of marked) if (typeof out[field] === 'string') out[field] = Number(out[field]);
  return out;
}
