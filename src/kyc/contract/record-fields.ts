import { z } from './zod.ts';

/**
 * The schemas of the record's single fields, apart from the record's reading (record-reading.ts), which
 * checks each of them on its own so that one field the service sent in another form costs that field,
 * not the record.
 */

/** The longest timestamp kept: `2026-01-01T00:00:00.000+05:30`. */
export const MAX_TIMESTAMP_LENGTH = 29;

/**
 * A `...Date` field as kept: ISO 8601 timestamp. The service sends UTC with milliseconds; offsets are
 * tolerated, and so is a coarser precision, but no finer one and nothing longer: a field of any length
 * could otherwise carry other data under a date's name. The other forms of a timestamp are read into this
 * one (readTimestamp).
 */
export const isoTimestampSchema = z.pipe(
  // The length first: zod's datetime pattern run over a 10 MB "date" of digits threw a RangeError (its
  // backtracking stack), out of the record's reading, where this refuses it unread.
  z.string().check(z.maxLength(MAX_TIMESTAMP_LENGTH, `at most ${MAX_TIMESTAMP_LENGTH} characters`)),
  z.iso.datetime({ offset: true }).check(z.regex(/^[^.]*(?:\.\d{1,3})?(?:Z|[+-][\d:]+)$/, 'at most millisecond precision')),
);

/** The longest timestamp read: `2026-01-01T00:00:00.123456789+05:30`. Anything longer is refused unread, however long. */
export const MAX_TIMESTAMP_INPUT_LENGTH = 35;

/**
 * The other ways ISO 8601 (and RFC 3339) write one instant: a lower-case `t` or `z`, a space for the
 * `T`, no seconds, an offset without its colon (`+0000`, `-0530`), a fraction finer than milliseconds
 * (up to nanoseconds). Each names its instant exactly. Not read: a time without a zone (a local time,
 * hours off depending on where it was written), a date alone, an offset of hours alone.
 */
const TIMESTAMP_FORMS = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-]\d{2}):?(\d{2}))$/;

/**
 * The timestamp as kept (isoTimestampSchema), read from any of its forms: `2024-03-01 10:00:00.123456+0000`
 * is `2024-03-01T10:00:00.123+00:00`, the fraction cut to milliseconds, never rounded into the next second.
 * Undefined for anything else, a day that does not exist (February 30) included. Whatever parses the
 * value later (Date.parse, the timeline's order, the queue's `since`) gets this form.
 */
export function readTimestamp(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_TIMESTAMP_INPUT_LENGTH) return undefined;
  const form = TIMESTAMP_FORMS.exec(value);
  if (!form) return undefined;
  const [, day, minutes, seconds = '00', fraction, utc, offsetHours, offsetMinutes] = form;
  const millis = fraction === undefined ? '' : `.${fraction.slice(0, 3)}`;
  const timestamp = `${day}T${minutes}:${seconds}${millis}${utc ? 'Z' : `${offsetHours}:${offsetMinutes}`}`;
  return isoTimestampSchema.safeParse(timestamp).success ? timestamp : undefined;
}

/** Text that can only be a date or a time as written somewhere: digits and a date's punctuation, a digit among them. */
const DATE_SHAPED = /^(?=[^\d]*\d)[\dTtZz:.,/+\- ]+$/;

/**
 * A `…Date` value that could not be read (readTimestamp), as sent, when it can be shown as such: a
 * number (`1736500000000`, milliseconds perhaps, never guessed), or text of digits and a date's
 * punctuation (`2026-01-12 09:30:00`, a time without a zone), at most MAX_TIMESTAMP_INPUT_LENGTH
 * characters. Nothing else: a date field holding a name or any other text could be any data.
 */
export function dateAsSent(value: unknown): string | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value : undefined;
  return text !== undefined && text.length <= MAX_TIMESTAMP_INPUT_LENGTH && DATE_SHAPED.test(text) ? text : undefined;
}

export const identityAttributeSchema = z.object({
  type: z.string(),
  value: z.string(),
});
export type IdentityAttribute = z.infer<typeof identityAttributeSchema>;

export const customFieldValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type CustomFieldValue = z.infer<typeof customFieldValueSchema>;

/** A `…Date` field: a timestamp, whatever its name. */
export function isDateField(field: string): boolean {
  return field.endsWith('Date');
}

/**
 * A field that may date a status: every `…Date` field but `willArchiveAtDate` (a date to come). Which of
 * them does is status-dates.ts's (statusOfDate): `lastLoginDate` dates none, and is no step of the history.
 */
export function isStatusDateField(field: string): boolean {
  return isDateField(field) && field !== 'willArchiveAtDate';
}
