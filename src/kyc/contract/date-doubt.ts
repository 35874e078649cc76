/**
 * Status dates the service sends that cannot be right, one reading for the page, the queue (its order and
 * SLA, on the server too) and the batch: a status entered in the future. Such a date is shown as sent,
 * with its doubt said, and never read as an age, an order or a time over the SLA. Deadlines
 * (`willArchiveAtDate`) are meant to lie ahead and are never read here.
 */

/**
 * A date at most this far ahead of the reader's clock is taken for a clock that runs ahead (the server's,
 * or the KYC service's whose dates a webhook carries), not for a moment to come: a status reached a
 * moment ago reads "just now", never "in 4 seconds".
 */
export const CLOCK_SKEW_MS = 5 * 60_000;

export type DateDoubt = 'future';

/** What the page, Copy summary, print and the batch say of a doubtful status date. */
export const DATE_DOUBT_WORDS: Readonly<Record<DateDoubt, string>> = {
  future: 'dated in the future: doubtful',
};

/** What the queue's age column says in place of an age. */
export const DATE_DOUBT_AGE: Readonly<Record<DateDoubt, string>> = {
  future: 'date in the future',
};

/** Why a status date (ms since 1970) cannot be right at `now`; undefined: it can be read as it is. */
export function dateDoubt(at: number, now: number): DateDoubt | undefined {
  if (!Number.isFinite(at)) return undefined;
  if (at - now > CLOCK_SKEW_MS) return 'future';
  return undefined;
}
