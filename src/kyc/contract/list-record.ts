import { readUntypedAttribute } from './identity-forms.ts';
import { type Applicant, type Skipped, statusDateFields } from './applicants.ts';
import { candidateName } from './candidate-name.ts';
import type { IdlessRecord } from './idless.ts';
import { checkId, MAX_ID_LENGTH } from './lookup.ts';
import { readArchivedFlag } from './record-reading.ts';
import { serviceIdFields } from './service-id.ts';
import { type IdentityAttribute, identityAttributeSchema, readTimestamp } from './schema.ts';
import { MAX_STATUS_LENGTH, readStatus } from './status.ts';

/**
 * One record of the service's list, read for what it carries. Published list records differ: the older
 * notes have `{status, isArchived, _id, blockPassID, refId}`, early ones no `isArchived`, the current
 * documentation whole records without `_id` (some integrations read a `recordId`). Only `status` and
 * one id can be relied on, so only they are required: every other field is optional, and one of the
 * wrong type is named on that field (`unreadable`) rather than refusing the record, let alone the page.
 */

/**
 * A record that cannot be a row: why; and for one with a status but no id (`NO_ID`), or only ids no lookup
 * takes (the first one's field and why, never its value), what the queue still counts of it (idless.ts):
 * its status, its date, whether it carries a blockPassID, and whether its ids were refused.
 */
export type ListRecordRead = { ok: true; applicant: Applicant } | { ok: false; reason: string; idless?: IdlessRecord };

export const NO_ID = 'no refId, recordId or _id';

export interface ListReading {
  /** The reader may see names (compliance): a whole record's name is passed on. Otherwise identities are not read at all. */
  names: boolean;
}

/** The ids a list record may carry, the recordId first under either name. */
const ID_FIELDS = ['recordId', '_id', 'refId'] as const;

export function readListRecord(value: unknown, reading: ListReading): ListRecordRead {
  if (!isObject(value)) return { ok: false, reason: 'not an object' };
  const status = typeof value.status === 'string' ? readStatus(value.status) : value.status;
  if (status === undefined || status === null || status === '') return { ok: false, reason: 'no status' };
  if (typeof status !== 'string') return { ok: false, reason: 'a status that is not text' };
  // No service sends one: the queue index would not keep it, so it is counted here rather than lost there.
  if (status.length > MAX_STATUS_LENGTH) return { ok: false, reason: `a status longer than ${MAX_STATUS_LENGTH} characters` };
  const unreadable: Record<string, string> = {};
  const { ids, refused } = readIds(value, unreadable);
  const recordId = ids.recordId ?? ids._id;
  // Read as the candidate page reads it: `"false"` is false here too.
  const isArchived = readArchivedFlag(
    optional(value, 'isArchived', unreadable, 'expected true or false', (v) => readArchivedFlag(v) !== undefined),
  );
  const blockPassID = optional(value, 'blockPassID', unreadable, `expected a string of at most ${MAX_ID_LENGTH} characters`, isShortText);
  // The spec's name for it (service-id.ts): read as the candidate page reads it, each kept under its own name.
  const serviceID = optional(value, 'serviceID', unreadable, `expected a string of at most ${MAX_ID_LENGTH} characters`, isShortText);
  const since = sinceOf(value, status, unreadable);
  if (recordId === undefined && ids.refId === undefined) {
    // Ids no lookup takes open nothing either: counted as if it had none, so that its tab's count holds it.
    const badId = refused !== undefined;
    const idless = {
      status,
      blockPassID: typeof blockPassID === 'string',
      ...(since === undefined ? {} : { since }),
      ...(badId ? { badId } : {}),
    };
    return { ok: false, reason: refused ?? NO_ID, idless };
  }
  const name = reading.names ? nameOf(value.identities, unreadable) : undefined;
  const applicant: Applicant = {
    status,
    ...(typeof isArchived === 'boolean' ? { isArchived } : {}),
    ...(recordId === undefined ? {} : { recordId }),
    ...(ids.refId === undefined ? {} : { refId: ids.refId }),
    ...serviceIdFields({
      ...(typeof blockPassID === 'string' ? { blockPassID } : {}),
      ...(typeof serviceID === 'string' ? { serviceID } : {}),
    }),
    ...(since === undefined ? {} : { since }),
    ...(name === undefined ? {} : { name }),
    ...(Object.keys(unreadable).length > 0 ? { unreadable } : {}),
  };
  return { ok: true, applicant };
}

/**
 * The ids as strings, and the first one the lookup would refuse, by its field and why. An id of the wrong
 * type, or one the lookup would refuse (longer than 256 characters, a control character...), is named,
 * and read as absent: the record stays while another of its ids can open it (a refId no lookup can take
 * beside a good `_id`); with none that can, it cannot be a row.
 */
function readIds(
  value: Record<string, unknown>,
  unreadable: Record<string, string>,
): { ids: Partial<Record<(typeof ID_FIELDS)[number], string>>; refused?: string } {
  const ids: Partial<Record<(typeof ID_FIELDS)[number], string>> = {};
  let refused: string | undefined;
  for (const field of ID_FIELDS) {
    const id = value[field];
    if (id === undefined || id === null || id === '') continue;
    if (typeof id !== 'string') {
      unreadable[field] = 'expected a string';
      continue;
    }
    const checked = checkId(id);
    if (checked.ok) {
      ids[field] = id;
      continue;
    }
    // The lookup's message names "the id"; here it names the field, and never repeats the value.
    const why = checked.message.startsWith('The id ') ? checked.message.slice(7, -1) : 'is not a valid id';
    unreadable[field] = `${why}: not an id a lookup can take`;
    refused ??= `${field} ${why}`;
  }
  return { ids, ...(refused === undefined ? {} : { refused }) };
}

/** A field's value when present and of its type; present but not: named in `unreadable`, and undefined. */
function optional(
  value: Record<string, unknown>,
  field: string,
  unreadable: Record<string, string>,
  expected: string,
  fits: (field: unknown) => boolean,
): unknown {
  const found = Object.hasOwn(value, field) ? value[field] : undefined;
  if (found === undefined || found === null) return undefined;
  if (fits(found)) return found;
  unreadable[field] = expected;
  return undefined;
}

const isShortText = (value: unknown) => typeof value === 'string' && value !== '' && [...value].length <= MAX_ID_LENGTH;

/**
 * The date the record entered its status, in the contract's form (readTimestamp), under either of its
 * names (`onHoldDate`, `on_holdDate`): the latest when both are there. One that is not a timestamp is named.
 */
function sinceOf(value: Record<string, unknown>, status: string, unreadable: Record<string, string>): string | undefined {
  let since: string | undefined;
  for (const field of statusDateFields(status)) {
    const found = optional(value, field, unreadable, 'expected an ISO 8601 timestamp', (date) => readTimestamp(date) !== undefined);
    const date = readTimestamp(found);
    if (date !== undefined && (since === undefined || Date.parse(date) > Date.parse(since))) since = date;
  }
  return since;
}

/** The attributes naming a candidate: the two parts of the name, and where they come from (the order of the parts). */
const NAME_ATTRIBUTES = ['given_name', 'family_name', 'address', 'phone'] as const;

/** The name a whole record holds, as the candidate page writes it; a part of the wrong shape is named, and left out. */
function nameOf(identities: unknown, unreadable: Record<string, string>): string | undefined {
  if (identities === undefined || identities === null) return undefined;
  if (!isObject(identities)) {
    unreadable.identities = 'expected an object';
    return undefined;
  }
  const read: Record<string, IdentityAttribute> = {};
  for (const attribute of NAME_ATTRIBUTES) {
    const found = Object.hasOwn(identities, attribute) ? identities[attribute] : undefined;
    if (found === undefined || found === null) continue;
    const parsed = identityAttributeSchema.safeParse(found);
    // A bare string or `{value}` without a type names the candidate on the page too (identity-forms.ts): so does it here.
    const untyped = parsed.success ? undefined : readUntypedAttribute(found);
    if (parsed.success) read[attribute] = parsed.data;
    else if (untyped) read[attribute] = untyped;
    else if (attribute === 'given_name' || attribute === 'family_name') unreadable[`identities.${attribute}`] = 'expected {type, value}';
  }
  return candidateName({ identities: read });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The records of several answers left out, together: counted, each reason once, in the order first met. */
export function withSkipped(total: Skipped | undefined, reasons: readonly string[]): Skipped | undefined {
  if (reasons.length === 0) return total;
  const count = (total?.count ?? 0) + reasons.length;
  return { count, reasons: [...new Set([...(total?.reasons ?? []), ...reasons])] };
}

/** Two tallies of records left out as one. */
export function joinSkipped(a: Skipped | undefined, b: Skipped | undefined): Skipped | undefined {
  if (!a || !b) return a ?? b;
  return { count: a.count + b.count, reasons: [...new Set([...a.reasons, ...b.reasons])] };
}
