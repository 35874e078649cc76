import { isSuccessWord } from './success-status.ts';
import {
  type CandidateRecord,
  attachUnreadFields,
  readCandidateRecord,
  type UnreadField,
  unreadFieldsOf,
  unreadFieldsSchema,
} from './record-reading.ts';
import { stringifyKeepingNumbers } from './number-text.ts';
import { withIdsAsSent } from './record-id.ts';
import { readTimestamp } from './record-fields.ts';
import { ownStatusDateFields, readsAsStatusDate } from './status-dates.ts';
import { KNOWN_STATUSES, statusDateFields } from './status.ts';
import { z } from './zod.ts';

/**
 * The upstream contract (KYC Connect single-candidate lookups), shared by the viewer that parses
 * responses and the sandbox that produces them, so the two cannot drift apart. A record is read
 * liberally (record-reading.ts): a status and an id are required, every other field is optional, and a
 * field in another form than the contract's is named, not fatal.
 */

export {
  type CustomFieldValue,
  type IdentityAttribute,
  identityAttributeSchema,
  isoTimestampSchema,
  isStatusDateField,
  MAX_TIMESTAMP_LENGTH,
  readTimestamp,
} from './record-fields.ts';
export type { CandidateRecord, UnreadField } from './record-reading.ts';
export { ownStatusDateFields, PERSONAL_DATES, readsAsStatusDate, statusOfDate } from './status-dates.ts';
export { unreadFieldsOf } from './record-reading.ts';

/** The record of an answer, read liberally: fails only without a status or an id; what it could not read is `unreadFieldsOf(record)`. */
export const candidateRecordSchema = z.pipe(
  z.unknown(),
  z.transform((input, ctx): CandidateRecord => {
    const reading = readCandidateRecord(input);
    if (!reading.ok) {
      ctx.issues.push({ code: 'custom', message: reading.message, input, path: reading.path });
      return z.NEVER;
    }
    attachUnreadFields(reading.record, reading.unread);
    return reading.record;
  }),
);

/**
 * The answer's envelope. `unread` is this server's, beside a status-level record it reduced: the
 * status-level fields the service's record held but that could not be read (the reduced record has
 * only what could), so that a support user's page names them too.
 */
export const candidateEnvelopeSchema = z.pipe(
  z.object({
    // Absent is read too (`{"data":{…}}`, which the answer guard lets through), and "SUCCESS" or "ok" (success-status.ts): only another status is refused.
    status: z.optional(z.string().check(z.refine(isSuccessWord, 'The answer gives another status than "success".'))),
    data: candidateRecordSchema,
    unread: z.optional(unreadFieldsSchema),
  }),
  z.transform((envelope) => {
    if (envelope.unread?.length) attachUnreadFields(envelope.data, [...unreadFieldsOf(envelope.data), ...envelope.unread]);
    return envelope;
  }),
);

/** The error body the real service is expected to send, and the sandbox sends. */
export const upstreamErrorSchema = z.object({
  status: z.literal('error'),
  code: z.int(),
  message: z.string(),
});
export type UpstreamError = z.infer<typeof upstreamErrorSchema>;

/**
 * The status level: what a key with the "status and metadata only" scope receives, and all a support
 * user is shown: the status, the ids (the service's under either name), the archive flag, the submission count, and every status date
 * (isStatusLevelFieldOf: the documented ones listed here, the record's own, and those named as a status).
 * An allowlist: a field the service adds later stays out until it is listed here.
 */
export const STATUS_LEVEL_FIELDS = [
  'status',
  'refId',
  'recordId',
  'isArchived',
  'blockPassID',
  // The spec's name for the same id (upstream-api.seed.md): no more personal than blockPassID.
  'serviceID',
  'submitCount',
  'willArchiveAtDate',
] as const;

/**
 * The status dates by name, not by pattern: `<status>Date` for each documented status
 * (`review_requested` -> `reviewRequestedDate`, and `review_requestedDate` as the status is written, as the timeline reads it). A field that merely ends in `Date`, such as `dobDate`,
 * is not a status date.
 */
export const STATUS_DATE_FIELDS = KNOWN_STATUSES.flatMap(statusDateFields);

export function isStatusLevelField(field: string): boolean {
  return (STATUS_LEVEL_FIELDS as readonly string[]).includes(field) || STATUS_DATE_FIELDS.includes(field);
}

/**
 * A field of this record that its status level keeps by its name: the allowlist's, its own status's date,
 * and any other whose name reads as a status's (`escalatedDate`, `resubmittedDate`: status-dates.ts), so
 * a support user sees the steps after a rejection a compliance user sees. Never a person's date.
 */
export function isStatusLevelFieldOf(record: { status?: unknown }, field: string): boolean {
  return isStatusLevelField(field) || ownStatusDateFields(record.status).includes(field) || readsAsStatusDate(field);
}

/**
 * A field the status level keeps with this value. A date kept only for its name reading as a status's
 * (`escalatedDate`) is kept when it holds a timestamp (readTimestamp): nothing else says it is a status's.
 */
export function keptAtStatusLevel(record: { status?: unknown }, field: string, value: unknown): boolean {
  if (isStatusLevelField(field) || ownStatusDateFields(record.status).includes(field)) return true;
  return readsAsStatusDate(field) && readTimestamp(value) !== undefined;
}

/** The record reduced to its status-level fields. */
export function statusLevelOf(record: CandidateRecord): CandidateRecord {
  return Object.fromEntries(Object.entries(record).filter(([field, value]) => keptAtStatusLevel(record, field, value))) as CandidateRecord;
}

/**
 * The status-level fields of the record's answer that could not be read: what a status-level answer names
 * in `unread`, by name and kinds, never with the value as sent (`sent`): a support user is told a date
 * could not be read, and its text, whatever it holds, stays on this server.
 */
export function statusLevelUnread(record: CandidateRecord): UnreadField[] {
  return unreadFieldsOf(record)
    .filter((unread) => isStatusLevelFieldOf(record, unread.field))
    .map(({ sent: _sent, ...unread }) => unread);
}

/**
 * The status-level answer this server sends: the reduced record, and what of its status level could not be
 * read. A support field's number is written as the service sent it where its text was kept (number-text.ts),
 * and so is an id that came as a whole number (record-id.ts): the page reads it as the record's reading did.
 */
export function statusLevelEnvelope(record: CandidateRecord, reduced = statusLevelOf(record), unread = statusLevelUnread(record)): string {
  const data = withIdsAsSent(record, reduced);
  return stringifyKeepingNumbers({ status: 'success', data, ...(unread.length > 0 ? { unread } : {}) });
}

/** The record holds nothing beyond the status level (so identity data, custom fields and certificates are absent). */
export function isStatusLevel(record: CandidateRecord): boolean {
  return Object.keys(record).every((field) => isStatusLevelFieldOf(record, field));
}
