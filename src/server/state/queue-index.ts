import { type Applicant, statusDateField } from '../../kyc/contract/applicants.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import { STATUS_DATE_FIELDS } from '../../kyc/contract/schema.ts';
import type { QueueFacts, QueueIndexStore } from './queue-index-store.ts';

/**
 * The queue index (issue 23): per environment, recordId -> status and status dates, so that a queue can
 * be ordered by age across the whole list although the list operation gives no dates. Learnt from the
 * list (the status), from status-level lookups (queue-filler.ts: the dates) and from webhook deliveries
 * (both). No personal data: ids, statuses and dates only.
 */

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

export interface QueueIndex {
  /** Reads the facts of a list's records, records the statuses it shows, and answers each record's date. */
  learnList(environment: string, records: readonly Applicant[]): Promise<Map<string, string>>;
  /**
   * A record's facts (a status-level lookup): the whole truth, they replace what was known, unless what
   * was known is newer (its status's date is later than theirs): an answer that raced a later one, or a
   * replayed delivery's, changes nothing.
   */
  record(environment: string, facts: ReadonlyMap<string, QueueFacts>): Promise<void>;
  readonly store: QueueIndexStore;
}

export function createQueueIndex(store: QueueIndexStore): QueueIndex {
  return {
    store,
    async learnList(environment, records) {
      const ids = records.flatMap((record) => (record.recordId ? [record.recordId] : []));
      const known = await store.read(environment, ids);
      const changed = new Map<string, QueueFacts>();
      const since = new Map<string, string>();
      for (const record of records) {
        if (!record.recordId) continue;
        const facts = known.get(record.recordId);
        const learnt = learnStatus(facts, record.status);
        if (learnt) changed.set(record.recordId, learnt);
        const date = sinceOf(learnt ?? facts, record.status);
        if (date) since.set(record.recordId, date);
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
