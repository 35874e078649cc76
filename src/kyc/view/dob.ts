import { utcDay } from './time.ts';
/**
 * Date of birth: documented as MM/DD/YYYY; services also send ISO dates (YYYY-MM-DD) and ISO timestamps
 * whose date part is the birth date. Anything else (DD.MM.YYYY, two-digit years, 1990/04/23 …) cannot be
 * read without guessing, and is shown raw; a dotted date whose first number is past 12 (`15.06.1987`) can
 * only be day first, and that date is said beside it, as for a slash date that only reads day first.
 */
export interface DateOfBirth {
  year: number;
  month: number;
  day: number;
}

const US_DATE = /^(?<month>\d{1,2})\/(?<day>\d{1,2})\/(?<year>\d{4})$/;
const DOTTED_DATE = /^(?<day>\d{1,2})\.(?<month>\d{1,2})\.(?<year>\d{4})$/;
/**
 * A date, or a timestamp whose date part is taken as written: a birth date is a calendar date, and the
 * time and offset a service adds (usually midnight UTC) must not shift it by a day in any zone.
 */
const ISO_DATE = /^(?<year>\d{4})-(?<month>\d{2})-(?<day>\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * A reading: the date, and for a slash date that reads both ways (`03/04/1987`) the date read day first
 * too, since the format is not formally stated; or why it cannot be read, with the day-first date when a
 * slash date only reads that way (`25/06/1987`: not a date read month first, but one day first).
 */
export type DobReading = { ok: true; dob: DateOfBirth; dayFirst?: DateOfBirth } | { ok: false; problem: string; dayFirst?: DateOfBirth };

/** Reads a date of birth, or says why it cannot: a form it does not read, or a date that does not exist. */
export function readDob(raw: string): DobReading {
  const text = raw.trim();
  const slash = US_DATE.exec(text)?.groups;
  const groups = slash ?? ISO_DATE.exec(text)?.groups;
  if (!groups) return { ok: false, problem: NOT_READ, ...dottedDayFirst(text) };
  const [year, month, day] = [Number(groups.year), Number(groups.month), Number(groups.day)];
  const dob = dateOf(year, month, day);
  const swapped = slash && month !== day ? dateOf(year, day, month) : undefined;
  const dayFirst = swapped ? { dayFirst: swapped } : {};
  if (dob) return { ok: true, dob, ...dayFirst };
  return { ok: false, problem: swapped ? 'not a date read month first (MM/DD/YYYY)' : 'not a date that exists', ...dayFirst };
}

const NOT_READ = 'not in a form this page reads (MM/DD/YYYY or YYYY-MM-DD)';

/**
 * A dotted date that can only be read day first (its first number past 12, the date existing): that date,
 * said beside the raw text, never taken as read (UX review: `15.06.1987` was shown with no date at all).
 * One whose numbers read both ways (`05.06.1987`) says nothing: either would be a guess.
 */
function dottedDayFirst(text: string): { dayFirst?: DateOfBirth } {
  const dotted = DOTTED_DATE.exec(text)?.groups;
  if (!dotted || Number(dotted.day) <= 12) return {};
  const dayFirst = dateOf(Number(dotted.year), Number(dotted.month), Number(dotted.day));
  return dayFirst ? { dayFirst } : {};
}

/** The date, when it exists. */
function dateOf(year: number, month: number, day: number): DateOfBirth | undefined {
  const date = new Date(utcDay(year, month, day));
  const exists = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return exists ? { year, month, day } : undefined;
}

/** Age in whole years on `today` (local calendar date). */
export function ageOn(dob: DateOfBirth, today: Date): number {
  const hadBirthday = today.getMonth() + 1 > dob.month || (today.getMonth() + 1 === dob.month && today.getDate() >= dob.day);
  return today.getFullYear() - dob.year - (hadBirthday ? 0 : 1);
}

/** A localised long date, computed in UTC so no time zone can shift the day. */
export function formatDob(dob: DateOfBirth, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(dob.year, dob.month - 1, dob.day)),
  );
}
