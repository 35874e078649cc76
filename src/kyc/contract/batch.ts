import { z } from './zod.ts';
import { API_ERROR_CODES } from './api.ts';
import { LOOKUP_KINDS } from './lookup.ts';
import { type CandidateRecord, isStatusDateField, statusLevelUnread } from './schema.ts';
import { statusDateFields } from './status.ts';

/**
 * Batch status lookup (`POST /api/batch`): the browser sends the ids once, the server answers with one
 * JSON line per event (NDJSON), a row for each id as soon as its lookup finishes.
 */

import { MAX_BATCH_IDS } from './batch-limit.ts';

export { MAX_BATCH_IDS };

export const batchRequestSchema = z.object({
  kind: z.enum(LOOKUP_KINDS),
  ids: z.array(z.string()).check(z.minLength(1, 'the list of ids is empty'), z.maxLength(MAX_BATCH_IDS, `at most ${MAX_BATCH_IDS} ids`)),
});
export type BatchRequest = z.infer<typeof batchRequestSchema>;

/**
 * For compliance users and leads, what the queue index knows of a found row's candidate for triage, as
 * the queue shows it them (no request of its own): the worst outcome of its certificates and whether it
 * has pictures, learnt from a compliance user's lookup (`asOf`: when the index learnt them; absent when
 * it learnt them before it kept the time). `known: false`: the index has nothing of them yet.
 */
export const batchTriageSchema = z.object({
  known: z.boolean(),
  certificate: z.optional(z.string()),
  pictures: z.optional(z.boolean()),
  asOf: z.optional(z.string()),
});
export type BatchTriage = z.infer<typeof batchTriageSchema>;

/** What a batch shows of a candidate, for every role: status level, never identity data (and `triage`, above, for compliance users and leads). */
export const batchFoundSchema = z.object({
  type: z.literal('row'),
  /** The id's place in the request (rows arrive in the order they finish). */
  index: z.int(),
  ok: z.literal(true),
  status: z.string(),
  /** When the current status was reached, if the record says. */
  statusDate: z.optional(z.string()),
  submitCount: z.optional(z.int()),
  /** The service archived the candidate: its identity data is gone (absent: the answer did not say). */
  isArchived: z.optional(z.boolean()),
  refId: z.nullish(z.string()),
  recordId: z.nullish(z.string()),
  /** Found as the other kind: an id not known as the batch's kind, tried once as the other its form allows (batchTriesAs). */
  foundBy: z.optional(z.enum(LOOKUP_KINDS)),
  /** The status-level fields the answer held but that could not be read (`isArchived`, `approvedDate`): named, not left blank as if absent. */
  unread: z.optional(z.array(z.string())),
  /** Compliance users and leads only: never sent to a support user, whom the queue shows no certificate either. */
  triage: z.optional(batchTriageSchema),
});

export const batchFailedSchema = z.object({
  type: z.literal('row'),
  index: z.int(),
  ok: z.literal(false),
  code: z.enum(API_ERROR_CODES),
  message: z.string(),
  /** The service's wait, when the row failed for its 429 (`upstream_rate_limited`): the page offers Retry once it is over. */
  retryAfterSeconds: z.optional(z.number()),
});

/**
 * Failures that say the service could not be reached (or did not answer at all in time): after a few
 * in a row a batch stops, and Retry looks these rows up again with the ones not looked up.
 */
export const UNREACHABLE_CODES: ReadonlySet<string> = new Set(['upstream_unreachable', 'upstream_timeout']);

/** The batch pauses: the KYC service asked to wait (its 429 with Retry-After). */
export const batchWaitSchema = z.object({ type: z.literal('wait'), seconds: z.number() });

/**
 * The batch stopped early: this many lookups in a row failed because the service could not be reached,
 * or the service answered this many 429s in a row for as long as its longest wait (`upstream_rate_limited`),
 * so nothing more was started; the ids without a row were not looked up. Then `done`.
 */
export const batchStoppedSchema = z.object({
  type: z.literal('stopped'),
  code: z.enum(API_ERROR_CODES),
  /** The last of those failures, as its row says it. */
  message: z.string(),
  inARow: z.int(),
  notLookedUp: z.int(),
});

/** The end of the answer: rows found and rows failed (with a stop, the ids not looked up are in neither). */
export const batchDoneSchema = z.object({ type: z.literal('done'), found: z.int(), failed: z.int() });

export const batchEventSchema = z.union([batchFoundSchema, batchFailedSchema, batchWaitSchema, batchStoppedSchema, batchDoneSchema]);
export type BatchEvent = z.infer<typeof batchEventSchema>;
export type BatchRow = z.infer<typeof batchFoundSchema> | z.infer<typeof batchFailedSchema>;

/** The date of the record's current status: the latest of its dates under either name (statusDateFields: `onHoldDate`, `on_holdDate`). */
export function currentStatusDate(record: CandidateRecord): string | undefined {
  let latest: string | undefined;
  for (const field of statusDateFields(record.status)) {
    const value = Object.hasOwn(record, field) ? record[field] : undefined;
    if (!isStatusDateField(field) || typeof value !== 'string') continue;
    if (latest === undefined || Date.parse(value) > Date.parse(latest)) latest = value;
  }
  return latest;
}

/** The status-level row of a found candidate. */
export function batchRowOf(index: number, record: CandidateRecord): z.infer<typeof batchFoundSchema> {
  const statusDate = currentStatusDate(record);
  const unread = statusLevelUnread(record).map(({ field }) => field);
  return {
    type: 'row',
    index,
    ok: true,
    status: record.status,
    ...(statusDate ? { statusDate } : {}),
    ...(record.submitCount !== undefined ? { submitCount: record.submitCount } : {}),
    ...(typeof record.isArchived === 'boolean' ? { isArchived: record.isArchived } : {}),
    refId: record.refId ?? null,
    recordId: record.recordId ?? null,
    ...(unread.length > 0 ? { unread } : {}),
  };
}
