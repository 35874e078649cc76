import { readTimestamp } from './record-fields.ts';

/**
 * "Archive after extract": a key setting of the service that deletes a candidate's identity data a set
 * time after any full-level lookup (the docs recommend 10 s); the answer then carries `willArchiveAtDate`.
 * Ordinary retention schedules are months away, so a date this close to the lookup can only come from
 * such a key.
 */
export const ARCHIVES_ON_EXTRACT_WITHIN_MS = 24 * 60 * 60 * 1000;

/**
 * A date before the lookup was not set by it (another key's lookup may have scheduled it), but the
 * service's clock may run behind this server's by a little.
 */
export const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** The setting that lets full lookups go on with such a key: its environment's entry in CONFIG_FILE. */
export const ARCHIVES_ON_EXTRACT_SETTING = '"archiveOnExtract": "accept"';

/** The deletion time when `willArchiveAtDate` is less than 24 h after the lookup (and not before it); otherwise undefined. */
export function archivesOnExtract(willArchiveAtDate: unknown, lookupAtMs: number): Date | undefined {
  if (typeof willArchiveAtDate !== 'string') return undefined;
  const at = Date.parse(willArchiveAtDate);
  if (Number.isNaN(at)) return undefined;
  const after = at - lookupAtMs;
  return after > -CLOCK_SKEW_MS && after < ARCHIVES_ON_EXTRACT_WITHIN_MS ? new Date(at) : undefined;
}

/**
 * Whether `willArchiveAtDate` says the key archives, its date unknown: the field is there (not absent, not
 * null) but holds no timestamp the contract reads (readTimestamp): a number (`1764549409000`, milliseconds
 * perhaps, never guessed), text that is no date (`"soon"`), an object, a list, true or false. Only a key that
 * archives after extract sends the field at all (upstream-api-facts.md), and a date that cannot be read
 * cannot show that the deletion is far off or was another key's: it is taken for this key's, now.
 */
export function archivesWithoutDate(willArchiveAtDate: unknown): boolean {
  return willArchiveAtDate !== undefined && willArchiveAtDate !== null && readTimestamp(willArchiveAtDate) === undefined;
}

/** Two full lookups of one candidate this far apart or more can tell a key whose delay is a day or more (movedWithLookup). */
export const MOVED_APART_MS = 30_000;

/** How closely the date must follow the lookups: the service dates the deletion from when it read the request, not when it was sent. */
export const MOVED_TOLERANCE_MS = 10_000;

/** A full answer's deletion date and when its lookup was sent. */
export interface ArchiveSighting {
  dateMs: number;
  lookupAtMs: number;
}

/**
 * A key whose "archive after extract" delay is a day or more: one answer cannot tell its date from one
 * another key's lookup set, but two full lookups of the same candidate can. With such a key the date
 * moves later by the time between the lookups (each schedules the deletion anew, lookup time + X); a date
 * another key set stays where it is. At least MOVED_APART_MS apart, so that when each request was read
 * (MOVED_TOLERANCE_MS) does not decide it.
 */
export function movedWithLookup(previous: ArchiveSighting, next: ArchiveSighting): boolean {
  const apart = next.lookupAtMs - previous.lookupAtMs;
  const moved = next.dateMs - previous.dateMs;
  return apart >= MOVED_APART_MS && moved > 0 && Math.abs(moved - apart) <= MOVED_TOLERANCE_MS;
}

/**
 * `data.willArchiveAtDate` of an answer, when it holds a timestamp (in the contract's form: readTimestamp),
 * whatever else the answer holds or lacks: an answer that cannot be shown still says that its lookup
 * started a deletion.
 */
export function willArchiveAtDateOf(answer: unknown): string | undefined {
  const data = isObject(answer) && Object.hasOwn(answer, 'data') ? answer.data : undefined;
  const date = isObject(data) && Object.hasOwn(data, 'willArchiveAtDate') ? data.willArchiveAtDate : undefined;
  return readTimestamp(date);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
