/**
 * Status dates the service sends that cannot be right, one reading for the page, the queue (its order and
 * SLA, on the server too) and the batch: a status entered in the future, or at or near the epoch (a
 * placeholder: `1970-01-01T00:00:00.000Z`, long before any KYC record). Such a date is shown as sent,
 * with its doubt said, and never read as an age, an order or a time over the SLA. Deadlines
 * (`willArchiveAtDate`) are meant to lie ahead and are never read here.
 */

/**
 * A date at most this far ahead of the reader's clock is taken for a clock that runs ahead (the server's,
 * or the KYC service's whose dates a webhook carries), not for a moment to come: a status reached a
 * moment ago reads "just now", never "in 4 seconds".
 */
export const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Before this, a date is no KYC record's (the service and its records are of this century): a `0` or a
 * `1970-01-01` written where a date was missing, or `1900-01-01`.
 */
export const PLACEHOLDER_BEFORE = Date.UTC(2000, 0, 1);

export type DateDoubt = 'future' | 'placeholder';

/** What the page, Copy summary, print and the batch say of a doubtful status date. */
export const DATE_DOUBT_WORDS: Readonly<Record<DateDoubt, string>> = {
  future: 'dated in the future: doubtful',
  placeholder: 'probably a placeholder, not a real date',
};

/** What the queue's age column says in place of an age. */
export const DATE_DOUBT_AGE: Readonly<Record<DateDoubt, string>> = {
  future: 'date in the future',
  placeholder: 'probably a placeholder',
};

/** Why a status date (ms since 1970) cannot be right at `now`; undefined: it can be read as it is. */
export function dateDoubt(at: number, now: number): DateDoubt | undefined {
  if (!Number.isFinite(at)) return undefined;
  if (at < PLACEHOLDER_BEFORE) return 'placeholder';
  if (at - now > CLOCK_SKEW_MS) return 'future';
  return undefined;
}

/** Dates (ms) below this are not in the future at `now` (a sorted set's bound: the queue's real dates). */
export const realDateBefore = (now: number): number => now + CLOCK_SKEW_MS + 1;
