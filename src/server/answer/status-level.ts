import type { ScannedBody } from './answer-scan.ts';
import {
  type CandidateRecord,
  type CustomFieldValue,
  candidateEnvelopeSchema,
  statusLevelEnvelope,
  statusLevelOf,
  statusLevelUnread,
} from '../../kyc/contract/schema.ts';
import { attachUnreadFields, MAX_UNREAD_FIELDS, type UnreadField, unreadFieldsOf } from '../../kyc/contract/record-reading.ts';
import { kindOf } from '../../kyc/contract/value-kind.ts';
import { numberTextAt, shareNumberTexts } from '../../kyc/contract/number-text.ts';
import { LOOKUP_KINDS, type LookupKind } from '../../kyc/contract/lookup.ts';
import { answeredOther, type NotAnId } from '../../kyc/contract/answered-id.ts';
import { type ShapeIssue, shapeWords } from '../../kyc/contract/shape-words.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { NO_RECORD } from '../http/http-reply.ts';
import { causeOfValue, notARecord, type ServiceSettings } from './not-a-record.ts';
import { readStatusLevelStreamed } from './status-level-read.ts';
import type { KeySearch } from './key-watch.ts';

/**
 * `willArchiveAtDate` is kept in `record` too (a `…Date` field): the archiving guard reads it. `answered`:
 * the record's ids as the answer sent them, for the other-candidate guard (answeredOtherOf), which the
 * record cannot serve: it drops an id that is no text as unreadable.
 */
export type Reduced = { ok: true; record: CandidateRecord; body: string; answered: AnsweredIds } | { ok: false; failure: ApiFailure };

/** Each id as sent: text, a number's JSON text as sent (`12345`, `1e3`), or the form of any other value (`{}`, `[]`, true/false). */
export type AnsweredIds = Partial<Record<LookupKind, unknown>>;

/**
 * The id of the kind asked that a status-level answer gave, when it is not provably the asked candidate's:
 * the full level's one rule (answeredOther, which the streamed watch applies to the same text), so a
 * support user's lookup, a batch's row and the queue's lookups refuse what a compliance user's does.
 */
export function answeredOtherOf(reduced: { answered: AnsweredIds }, kind: LookupKind, asked: string): string | NotAnId | undefined {
  return answeredOther(reduced.answered[kind], asked);
}

/** The ids of `data` as the reduction kept them (status-level-stream.ts: an object or a list by its form alone), a number as its text as sent. */
function answeredIdsOf(json: unknown): AnsweredIds {
  const data = (json as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null) return {};
  const ids: AnsweredIds = {};
  for (const kind of LOOKUP_KINDS) {
    const value = Object.hasOwn(data, kind) ? (data as Record<string, unknown>)[kind] : undefined;
    ids[kind] = typeof value === 'number' ? numberTextAt(data, kind, value).digits : value;
  }
  return ids;
}

/**
 * For support users: the body is read through the answer's one scan and reduced to the status-level
 * fields as it comes (status-level-stream.ts), then checked against the contract and kept to the allowlist
 * (the contract's), and with `fields` (the environment's support fields) to those custom fields. Whatever
 * cannot be checked is refused, never passed on.
 */
export async function reduceToStatusLevel(upstreamRes: ScannedBody, reading: StatusReading, fields?: readonly string[]): Promise<Reduced> {
  const streamed = await readStatusLevelStreamed(upstreamRes, reading.maxResponseBytes, reading.keys, fields, reading.settings);
  if (!streamed.ok) return streamed;
  // The service's error envelope with a success status: the error it states, never a record.
  if (isErrorEnvelope(streamed.value)) return { ok: false, failure: reading.stated(streamed.value) };
  return reduceValue(streamed.value, fields, reading.settings);
}

/** How an answer is read to status level: its bound, the keys never passed on, and the error an error envelope states (upstream-failures.ts). */
export interface StatusReading {
  maxResponseBytes: number;
  keys: KeySearch;
  stated: (envelope: unknown) => ApiFailure;
  /** The environment's settings an answer that is no record names (not-a-record.ts); undefined where not known. */
  settings?: ServiceSettings | undefined;
}

/** `{"status":"error",…}`: the service's error envelope, whatever status line it came with. */
const isErrorEnvelope = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && (value as { status?: unknown }).status === 'error';

/** The support fields a record holds, in the order configured: each kept only as a plain value (text, number, true/false, null). */
function supportFieldsOf(record: CandidateRecord, fields: readonly string[]): Record<string, CustomFieldValue> {
  const given = record.customFields ?? {};
  const kept = Object.fromEntries(fields.filter((field) => Object.hasOwn(given, field)).map((field) => [field, given[field]!]));
  // A number's text as sent, kept as it was read (status-level-stream.ts), goes with the copy, written as sent (statusLevelEnvelope).
  shareNumberTexts(given, kept);
  return kept;
}

/**
 * A record of another shape (no status, no id): what was wrong, its first issue as the full answer's page
 * names it (shape-words.ts: the tool's words, kinds never values, never a schema's). `not_a_record`, not `upstream_error`: asking again
 * gets the same record, so the page must not say that it usually passes.
 */
function shapeFailure(issues: readonly ShapeIssue[], input: unknown): ApiFailure {
  return new ApiFailure(
    'not_a_record',
    "The KYC service's answer does not have the expected shape, so it could not be reduced to status level. " +
      `What was wrong: ${issues.length > 0 ? shapeWords(issues.slice(0, 1), input) : 'not a candidate record.'} ` +
      "Asking again gets the same answer until the service's record changes: tell whoever runs Candidate Lookup.",
  );
}

function reduceValue(json: unknown, fields: readonly string[] | undefined, settings: ServiceSettings | undefined): Reduced {
  const parsed = candidateEnvelopeSchema.safeParse(json);
  if (!parsed.success && (json as { data?: unknown }).data === null) return { ok: false, failure: NO_RECORD };
  // Another status, a list or a text where the record should be: said as that (not-a-record.ts), never as the schema's words.
  const cause = parsed.success ? undefined : causeOfValue(json);
  if (cause) return { ok: false, failure: notARecord(cause, settings) };
  if (!parsed.success) return { ok: false, failure: shapeFailure(parsed.error.issues, json) };
  const record = statusLevelOf(parsed.data.data);
  const unread = [
    ...statusLevelUnread(parsed.data.data),
    ...(fields ? [...customFieldsUnread(parsed.data.data), ...supportFieldsUnread(json, fields)] : []),
  ].slice(0, MAX_UNREAD_FIELDS);
  // What could not be read goes with the reduced record too: a batch row names it (batchRowOf).
  attachUnreadFields(record, unread);
  // Present (if empty) whenever they were fetched: the page tells "none recorded" from "not fetched".
  if (fields) record.customFields = supportFieldsOf(parsed.data.data, fields);
  return { ok: true, record, body: statusLevelEnvelope(parsed.data.data, record, unread), answered: answeredIdsOf(json) };
}

/**
 * `customFields` sent in another form than an object (text, a list): named in `unread` by its kind, never
 * its content (the reader kept its form alone: status-level-stream.ts), so that the support user's card
 * says the service recorded fields that could not be read here, not "Nothing recorded".
 */
function customFieldsUnread(record: CandidateRecord): UnreadField[] {
  return unreadFieldsOf(record)
    .filter((entry) => entry.field === 'customFields')
    .map(({ sent: _sent, ...entry }) => entry);
}

/** What `unread` says a support field should have held. */
const SUPPORT_FIELD_EXPECTED = 'text, a number, true or false, or empty';

/**
 * Each support field sent as an object or a list: named in `unread` by its kind, never its content (the
 * reader kept its form alone: status-level-stream.ts), so that the card says it was recorded but could
 * not be read here, not "Not recorded". Its name is the environment's, cut as the record's reading cuts one.
 */
function supportFieldsUnread(json: unknown, fields: readonly string[]): UnreadField[] {
  const data = (json as { data?: unknown }).data;
  const given = typeof data === 'object' && data !== null ? (data as { customFields?: unknown }).customFields : undefined;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) return [];
  return fields
    .filter((field) => Object.hasOwn(given, field) && typeof (given as Record<string, unknown>)[field] === 'object')
    .filter((field) => (given as Record<string, unknown>)[field] !== null)
    .map((field) => ({
      field: `customFields.${field.length > 64 ? `${field.slice(0, 64)}…` : field}`,
      expected: SUPPORT_FIELD_EXPECTED,
      found: kindOf((given as Record<string, unknown>)[field]),
    }));
}
