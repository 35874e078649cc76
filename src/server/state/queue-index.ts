import { type Applicant, statusDateField } from '../../kyc/contract/applicants.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import { STATUS_DATE_FIELDS } from '../../kyc/contract/schema.ts';
import type { QueueFacts, QueueIndexStore } from './queue-index-store.ts';

/**
 * The queue index (issue 23): per environment, a candidate's key -> status and status dates, so that a
 * queue can be ordered by age across the whole list although the older list records give no dates.
 * Learnt from the list (the status, and a whole record's own date), from status-level lookups
 * (queue-filler.ts: the dates) and from webhook deliveries (both). No personal data: ids, statuses and
 * dates only.
 */

/**
 * A candidate's key in the index: `recordId:<id>` or `refId:<id>`, the kind said, since the current
 * documentation's list records have no recordId and one id may be either. A record with both ids is
 * written under both keys, so that a later list that gives only one of them finds its date.
 */
export type QueueKey = `${LookupKind}:${string}`;

export const queueKey = (kind: LookupKind, id: string): QueueKey => `${kind}:${id}`;

/** A record's keys, its recordId's first (the service's own id); none without an id. */
export function queueKeysOf(ids: { recordId?: string | null | undefined; refId?: string | null | undefined }): QueueKey[] {
  return [...(ids.recordId ? [queueKey('recordId', ids.recordId)] : []), ...(ids.refId ? [queueKey('refId', ids.refId)] : [])];
}

/** The kind and id of a key (undefined: not a key). */
export function parseQueueKey(key: string): { kind: LookupKind; id: string } | undefined {
  const colon = key.indexOf(':');
  const kind = key.slice(0, colon);
  if (colon < 1 || (kind !== 'recordId' && kind !== 'refId')) return undefined;
  return { kind, id: key.slice(colon + 1) };
}

/** The date since which the candidate has `status`, when the index knows it for that status. */
export function sinceOf(facts: QueueFacts | undefined, status: string): string | undefined {
  if (!facts || facts.status !== status) return undefined;
  const date = facts.dates[statusDateField(status)];
  return date !== undefined && Number.isFinite(Date.parse(date)) ? date : undefined;
}

/** A status-level record's facts: its status and every status date it has. */
export function factsOfRecord(record: CandidateRecord): QueueFacts {
  const dates: Record<string, string> = {};
  for (const field of STATUS_DATE_FIELDS) {
    const value = record[field];
    if (typeof value === 'string') dates[field] = value;
  }
  return { status: record.status, dates };
}

/**
 * What the list says of a candidate, over what was known: the same status keeps its dates; a new one
 * keeps the others but not the date of the status it just entered, which belongs to an earlier time in
 * it (a resubmission starts a new wait).
 */
export function learnStatus(known: QueueFacts | undefined, status: string): QueueFacts | undefined {
  if (known?.status === status) return undefined;
  const dates = { ...known?.dates };
  delete dates[statusDateField(status)];
  return { status, dates };
}

/** A listed record's facts: its status over what was known (learnStatus), and its own date where it has one. */
function listedFacts(known: QueueFacts | undefined, record: Applicant): QueueFacts {
  const facts = learnStatus(known, record.status) ?? known!;
  if (record.since === undefined) return facts;
  return { status: record.status, dates: { ...facts.dates, [statusDateField(record.status)]: record.since } };
}

const sameFacts = (a: QueueFacts | undefined, b: QueueFacts) => a !== undefined && JSON.stringify(a) === JSON.stringify(b);

export interface QueueIndex {
  /**
   * Reads the facts of a list's records, records the statuses (and own dates) it shows, and answers each
   * record's date by its first key (queueKeysOf).
   */
  learnList(environment: string, records: readonly Applicant[]): Promise<Map<QueueKey, string>>;
  /**
   * A record's facts (a status-level lookup): the whole truth, they replace what was known, unless what
   * was known is newer (its status's date is later than theirs): an answer that raced a later one, or a
   * replayed delivery's, changes nothing.
   */
  record(environment: string, facts: ReadonlyMap<QueueKey, QueueFacts>): Promise<void>;
  readonly store: QueueIndexStore;
}

export function createQueueIndex(store: QueueIndexStore): QueueIndex {
  return {
    store,
    async learnList(environment, records) {
      const known = await store.read(environment, [...new Set(records.flatMap((record) => queueKeysOf(record)))]);
      const changed = new Map<QueueKey, QueueFacts>();
      const since = new Map<QueueKey, string>();
      for (const record of records) {
        const keys = queueKeysOf(record);
        if (keys.length === 0) continue;
        // What is known under the recordId, else under the refId: the same candidate either way.
        const before = keys.map((key) => known.get(key)).find((facts) => facts !== undefined);
        const facts = listedFacts(before, record);
        for (const key of keys) if (!sameFacts(known.get(key), facts)) changed.set(key, facts);
        const date = sinceOf(facts, record.status);
        if (date) since.set(keys[0]!, date);
      }
      await store.write(environment, changed);
      return since;
    },
    async record(environment, facts) {
      const known = await store.read(environment, [...facts.keys()]);
      const newer = new Map([...facts].filter(([id, said]) => !isOlder(said, known.get(id))));
      await store.write(environment, newer);
    },
  };
}

/** The date the facts' status was entered, as a time (NaN when not known). */
const enteredAt = (facts: QueueFacts): number => Date.parse(facts.dates[statusDateField(facts.status)] ?? '');

/** Facts that say less recent things than what is known: the status they give was entered before the known one was. */
export function isOlder(said: QueueFacts, known: QueueFacts | undefined): boolean {
  return known !== undefined && enteredAt(said) < enteredAt(known);
}
