import { KNOWN_STATUSES } from './status.ts';
import { z } from './zod.ts';

/**
 * The upstream contract (KYC Connect single-candidate lookups), shared by the viewer that parses
 * responses and the sandbox that produces them, so the two cannot drift apart.
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

const customFieldValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type CustomFieldValue = z.infer<typeof customFieldValueSchema>;

/** A `…Date` field: a timestamp, whatever its name (checked below). */
export function isDateField(field: string): boolean {
  return field.endsWith('Date');
}

/**
 * A field that dates a status: every `…Date` field but `willArchiveAtDate` (a date to come). Open, as
 * statuses are: one the service adds brings its `<status>Date`. A support user gets only the documented
 * ones (STATUS_DATE_FIELDS, below).
 */
export function isStatusDateField(field: string): boolean {
  return isDateField(field) && field !== 'willArchiveAtDate';
}

export const candidateRecordSchema = z
  .looseObject({
    status: z.string().check(z.minLength(1, 'the status is empty')),
    refId: z.nullish(z.string()),
    recordId: z.nullish(z.string()),
    isArchived: z.boolean(),
    blockPassID: z.string(),
    submitCount: z.optional(z.int().check(z.nonnegative())),
    willArchiveAtDate: z.optional(isoTimestampSchema),
    customFields: z.optional(z.record(z.string(), customFieldValueSchema)),
    identities: z.optional(z.record(z.string(), identityAttributeSchema)),
    certs: z.optional(z.record(z.string(), z.string())),
  })
  .check(
    z.superRefine((record, ctx) => {
      // Status dates are open-ended (`waitingDate`, `rejectedDate`, ...): every one must be a timestamp.
      for (const [key, value] of Object.entries(record)) {
        if (!isDateField(key)) continue;
        if (typeof value !== 'string' || !isoTimestampSchema.safeParse(value).success) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `${key} must be an ISO 8601 timestamp, got ${describeValue(value)}`,
            input: value,
          });
        }
      }
    }),
  );
export type CandidateRecord = z.infer<typeof candidateRecordSchema>;

export const candidateEnvelopeSchema = z.object({
  status: z.literal('success'),
  data: candidateRecordSchema,
});

/** The error body the real service is expected to send, and the sandbox sends. */
export const upstreamErrorSchema = z.object({
  status: z.literal('error'),
  code: z.int(),
  message: z.string(),
});
export type UpstreamError = z.infer<typeof upstreamErrorSchema>;

/**
 * The status level: what a key with the "status and metadata only" scope receives, and all a support
 * user is shown: the status, the ids, the archive flag, the submission count, and every `<status>Date`.
 * An allowlist: a field the service adds later stays out until it is listed here.
 */
export const STATUS_LEVEL_FIELDS = [
  'status',
  'refId',
  'recordId',
  'isArchived',
  'blockPassID',
  'submitCount',
  'willArchiveAtDate',
] as const;

/**
 * The status dates by name, not by pattern: `<status>Date` for each documented status
 * (`review_requested` -> `reviewRequestedDate`). A field that merely ends in `Date`, such as `dobDate`,
 * is not a status date.
 */
export const STATUS_DATE_FIELDS = KNOWN_STATUSES.map(
  (status) => `${status.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())}Date`,
);

export function isStatusLevelField(field: string): boolean {
  return (STATUS_LEVEL_FIELDS as readonly string[]).includes(field) || STATUS_DATE_FIELDS.includes(field);
}

/** The record reduced to its status-level fields. */
export function statusLevelOf(record: CandidateRecord): CandidateRecord {
  return Object.fromEntries(Object.entries(record).filter(([field]) => isStatusLevelField(field))) as CandidateRecord;
}

/** The record holds nothing beyond the status level (so identity data, custom fields and certificates are absent). */
export function isStatusLevel(record: CandidateRecord): boolean {
  return Object.keys(record).every(isStatusLevelField);
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null) return 'null';
  return typeof value;
}
