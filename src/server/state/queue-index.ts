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
  /** A record's facts (a status-level lookup): the whole truth, they replace what was known. */
  record(environment: string, facts: ReadonlyMap<string, QueueFacts>): Promise<void>;
  /** A delivery's facts: its status (learnStatus's rule) and the dates it carries, over what was known. */
  learn(environment: string, facts: ReadonlyMap<string, QueueFacts>): Promise<void>;
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
    record: (environment, facts) => store.write(environment, facts),
    async learn(environment, facts) {
      const known = await store.read(environment, [...facts.keys()]);
      const merged = new Map<string, QueueFacts>();
      for (const [id, said] of facts) {
        const before = known.get(id);
        const status = learnStatus(before, said.status) ?? before!;
        merged.set(id, { status: said.status, dates: { ...status.dates, ...said.dates } });
      }
      await store.write(environment, merged);
    },
  };
}
