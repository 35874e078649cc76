import { z } from './zod.ts';

/**
 * The schemas of the record's single fields, apart from the record's reading (record-reading.ts), which
 * checks each of them on its own so that one field the service sent in another form costs that field,
 * not the record.
 */

/** The longest timestamp accepted: `2026-01-01T00:00:00.000+05:30`. */
export const MAX_TIMESTAMP_LENGTH = 29;

/**
 * A `...Date` field: ISO 8601 timestamp. The service sends UTC with milliseconds; offsets are tolerated,
 * and so is a coarser precision, but no finer one and nothing longer: a field of any length could
 * otherwise carry other data under a date's name.
 */
export const isoTimestampSchema = z.iso
  .datetime({ offset: true })
  .check(
    z.maxLength(MAX_TIMESTAMP_LENGTH, `at most ${MAX_TIMESTAMP_LENGTH} characters`),
    z.regex(/^[^.]*(?:\.\d{1,3})?(?:Z|[+-][\d:]+)$/, 'at most millisecond precision'),
  );

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
 * A field that dates a status: every `…Date` field but `willArchiveAtDate` (a date to come). Open, as
 * statuses are: one the service adds brings its `<status>Date`. A support user gets only the documented
 * ones (schema.ts's STATUS_DATE_FIELDS).
 */
export function isStatusDateField(field: string): boolean {
  return isDateField(field) && field !== 'willArchiveAtDate';
}
