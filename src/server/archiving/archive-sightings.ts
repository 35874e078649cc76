import { type ArchiveSighting, movedWithLookup } from '../../kyc/contract/archiving.ts';

/** The candidates whose last full answer in this process carried a deletion date: at most this many, the oldest let go first. */
const MAX_SIGHTINGS = 2000;

/**
 * Each candidate's last full answer with a deletion date, in this process: the next full lookup of them
 * tells whether the date moves with the lookups (movedWithLookup), when it is too far ahead to tell alone.
 */
export function createSightings() {
  const last = new Map<string, ArchiveSighting>();
  return {
    /** The date, when it moved with the lookups since this candidate's last sighting; the sighting is kept either way. */
    moved(candidate: string | undefined, willArchiveAtDate: unknown, lookupAtMs: number): Date | undefined {
      const dateMs = typeof willArchiveAtDate === 'string' ? Date.parse(willArchiveAtDate) : Number.NaN;
      if (candidate === undefined || Number.isNaN(dateMs)) return undefined;
      const previous = last.get(candidate);
      const next = { dateMs, lookupAtMs };
      // Kept newest last: a lookup that came back late does not take the place of a later one.
      if (!previous || previous.lookupAtMs <= lookupAtMs) {
        last.delete(candidate);
        last.set(candidate, next);
        if (last.size > MAX_SIGHTINGS) last.delete(last.keys().next().value!);
      }
      return previous && movedWithLookup(previous, next) ? new Date(dateMs) : undefined;
    },
  };
}
