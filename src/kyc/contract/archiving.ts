import { isoTimestampSchema } from './record-fields.ts';

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
 * `data.willArchiveAtDate` of an answer, when it holds a timestamp, whatever else the answer holds or
 * lacks: an answer that cannot be shown still says that its lookup started a deletion.
 */
export function willArchiveAtDateOf(answer: unknown): string | undefined {
  const data = isObject(answer) && Object.hasOwn(answer, 'data') ? answer.data : undefined;
  const date = isObject(data) && Object.hasOwn(data, 'willArchiveAtDate') ? data.willArchiveAtDate : undefined;
  return isoTimestampSchema.safeParse(date).success ? (date as string) : undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
