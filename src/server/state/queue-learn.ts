import type { Applicant } from '../../kyc/contract/applicants.ts';
import { dateDoubt } from '../../kyc/contract/date-doubt.ts';
import type { IndexEntry } from './queue-entry.ts';

/**
 * What the queue index writes over what it knew of a candidate (queue-index.ts): from a page of the
 * service's list (`listedEntry`) or a record (`recordEntry`). A status date that cannot be right (in
 * the future, a placeholder: date-doubt.ts) orders nothing: it never hides a real date nor keeps a later
 * one out, and a real date replaces it.
 */

/** What the service's record says of a candidate (a status-level record, or a compliance user's lookup's). */
export interface RecordFacts {
  recordId?: string;
  refId?: string;
  status: string;
  /** The date it entered `status`, when the record has it (ms). */
  since?: number;
  /** Read from a whole record that holds no readable date of its status: none is to come from a lookup. */
  dateless?: true;
  /** When a lookup read the record (ms): kept as the entry's checkedAt when it holds no date to trust. */
  readAt?: number;
  isArchived?: boolean;
  blockPassID?: string;
  serviceID?: string;
  certificate?: string;
  pictures?: boolean;
  /** When a compliance user's lookup showed those two (ms): kept with them. */
  triageAt?: number;
}

const same = (a: IndexEntry | undefined, b: IndexEntry) => a !== undefined && JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
const sorted = (entry: IndexEntry) =>
  Object.fromEntries(
    Object.entries(entry)
      .filter(([, value]) => value !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );

/** The fields a list record gives (ids, archive flag, service id, what it could not read) over what was known. */
function listedFields(known: IndexEntry | undefined, record: Applicant): Partial<IndexEntry> {
  return {
    ...((record.recordId ?? known?.recordId) ? { recordId: record.recordId ?? known?.recordId } : {}),
    ...((record.refId ?? known?.refId) ? { refId: record.refId ?? known?.refId } : {}),
    ...((record.isArchived ?? known?.isArchived) !== undefined ? { isArchived: record.isArchived ?? known?.isArchived } : {}),
    ...((record.blockPassID ?? known?.blockPassID) ? { blockPassID: record.blockPassID ?? known?.blockPassID } : {}),
    ...((record.serviceID ?? known?.serviceID) ? { serviceID: record.serviceID ?? known?.serviceID } : {}),
    ...(record.unreadable ? { unreadable: record.unreadable } : {}),
  };
}

const triageOf = (known: IndexEntry | undefined): Partial<IndexEntry> => ({
  ...(known?.certificate ? { certificate: known.certificate } : {}),
  ...(known?.pictures !== undefined ? { pictures: known.pictures } : {}),
  ...(known?.triageAt !== undefined ? { triageAt: known.triageAt } : {}),
});

/** A status date to order by at `now`: known, and neither in the future nor a placeholder (date-doubt.ts). */
export const realSince = (since: number | undefined, now: number): number | undefined =>
  since !== undefined && Number.isFinite(since) && dateDoubt(since, now) === undefined ? since : undefined;

/**
 * A listed record over what was known. Its own date (the current documentation's records carry it) is
 * the service's word, as a record's is. Without one: the same status keeps what was known (its date
 * too); a new status starts undated (its date belongs to this new time in it, looked up by the crawler),
 * unless what is known was entered after the list was asked (a webhook's newer news). A doubtful date
 * (its own or the known one) compares with none: a real one known of the same status is kept.
 */
export function listedEntry(known: IndexEntry | undefined, record: Applicant, listedAt: number, position: number): IndexEntry | undefined {
  const own = record.since === undefined ? Number.NaN : Date.parse(record.since);
  const knownReal = realSince(known?.since, listedAt);
  const sameStatus = known?.status === record.status;
  let next: IndexEntry;
  if (Number.isFinite(own) && (realSince(own, listedAt) !== undefined || knownReal === undefined || !sameStatus)) {
    if (knownReal !== undefined && (realSince(own, listedAt) === undefined ? knownReal > listedAt : own < knownReal)) return undefined;
    const checked = sameStatus && known?.since === own && known.checkedAt ? { checkedAt: known.checkedAt } : {};
    next = { ...triageOf(known), ...listedFields(known, record), status: record.status, since: own, ...checked };
  } else if (sameStatus) {
    next = { ...known, ...listedFields(known, record), ...(record.unreadable ? {} : { unreadable: undefined }) };
  } else {
    if (knownReal !== undefined && knownReal > listedAt) return undefined;
    next = { ...triageOf(known), ...listedFields(known, record), status: record.status, position };
  }
  return same(known, next) ? undefined : next;
}

/** A record's facts over what was known: the record is the truth, unless the status known was entered later. */
export function recordEntry(known: IndexEntry | undefined, facts: RecordFacts): IndexEntry | undefined {
  const now = facts.readAt ?? Date.now();
  if (isOlder(facts, known, now)) return undefined;
  const keep = <K extends keyof IndexEntry>(field: K, value: IndexEntry[K] | undefined) =>
    (value ?? known?.[field]) === undefined ? {} : { [field]: value ?? known?.[field] };
  const sameStatus = known?.status === facts.status;
  // The record's date, unless it is doubtful and a real one is known of the same status.
  const kept = sameStatus ? known?.since : undefined;
  const since =
    facts.since !== undefined && (realSince(facts.since, now) !== undefined || realSince(kept, now) === undefined) ? facts.since : kept;
  const next: IndexEntry = {
    ...keep('recordId', facts.recordId),
    ...keep('refId', facts.refId),
    status: facts.status,
    ...(since !== undefined ? { since } : { position: known?.position ?? 0 }),
    ...(facts.dateless && since === undefined ? { dateless: true as const } : {}),
    ...checkedOf(known, facts, sameStatus, since),
    ...keep('isArchived', facts.isArchived),
    ...keep('blockPassID', facts.blockPassID),
    ...keep('serviceID', facts.serviceID),
    ...(sameStatus && known?.unreadable ? { unreadable: known.unreadable } : {}),
    ...keep('certificate', facts.certificate),
    ...keep('pictures', facts.pictures),
    ...keep('triageAt', facts.triageAt),
  };
  return same(known, next) ? undefined : next;
}

/**
 * Facts that say less recent things than what is known: the status they give was entered before the
 * known one was. A doubtful date (at `now`) on either side says nothing of which is newer.
 */
export function isOlder(said: Pick<RecordFacts, 'since'>, known: Pick<IndexEntry, 'since'> | undefined, now = Date.now()): boolean {
  const before = realSince(known?.since, now);
  const at = realSince(said.since, now);
  return before !== undefined && at !== undefined && at < before;
}

/** When a lookup last found no date to trust: this one's (`readAt`), else the one known of the same status, while none is trusted. */
function checkedOf(
  known: IndexEntry | undefined,
  facts: RecordFacts,
  sameStatus: boolean,
  since: number | undefined,
): Pick<IndexEntry, 'checkedAt'> {
  const at = facts.readAt ?? (sameStatus ? known?.checkedAt : undefined);
  if (at === undefined || realSince(since, at) !== undefined) return {};
  return { checkedAt: at };
}
