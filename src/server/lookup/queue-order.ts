import type { Applicant } from '../../kyc/contract/applicants.ts';
import { queueKeysOf } from '../state/queue-index.ts';

/**
 * The queue's order: the records whose date is known, oldest first (equal dates keep the service's
 * order), then the others in the service's order. Pure, so that a page is a slice of one order.
 */
export function orderByAge<T extends Pick<Applicant, 'since'>>(records: readonly T[]): T[] {
  const known = records
    .map((record, position) => ({ record, position, at: record.since === undefined ? Number.NaN : Date.parse(record.since) }))
    .filter((entry) => Number.isFinite(entry.at));
  known.sort((a, b) => a.at - b.at || a.position - b.position);
  const unknown = records.filter((record) => record.since === undefined || !Number.isFinite(Date.parse(record.since)));
  return [...known.map((entry) => entry.record), ...unknown];
}

/** How many records have waited longer than `slaHours` at `now` (only known dates count). */
export function overSlaCount(records: readonly Pick<Applicant, 'since'>[], slaHours: number, now: number): number {
  const limit = slaHours * 3_600_000;
  return records.filter((record) => record.since !== undefined && now - Date.parse(record.since) > limit).length;
}

/** The records with their dates: a record's own first, else the index's (`since`, by the record's first key). */
export function withSince(records: readonly Applicant[], since: ReadonlyMap<string, string>): Applicant[] {
  return records.map((record) => {
    if (record.since !== undefined) return record;
    const [key] = queueKeysOf(record);
    const date = key === undefined ? undefined : since.get(key);
    return date === undefined ? record : { ...record, since: date };
  });
}

/**
 * Each candidate once, in the first place it was listed: a list read over several asks may show one
 * twice (the list moved between two reads), once by recordId and refId and once by one of them only (the
 * records of one page carry `_id`, another's not). Two records sharing either id are one candidate; two
 * records of which one has only a recordId and the other only a refId cannot be told to be one.
 */
export function distinct<T extends Pick<Applicant, 'recordId' | 'refId'>>(records: readonly T[]): T[] {
  const seen = new Set<string>();
  return records.filter((record) => {
    const keys = queueKeysOf(record);
    const again = keys.some((key) => seen.has(key));
    for (const key of keys) seen.add(key);
    return !again;
  });
}
