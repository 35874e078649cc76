import type { Applicant } from '../../kyc/contract/applicants.ts';

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

/** The records with their dates, where the index knows them. */
export function withSince(records: readonly Applicant[], since: ReadonlyMap<string, string>): Applicant[] {
  return records.map((record) => {
    const date = record.recordId ? since.get(record.recordId) : undefined;
    return date === undefined ? record : { ...record, since: date };
  });
}
