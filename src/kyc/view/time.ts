import { CLOCK_SKEW_MS } from '../contract/date-doubt.ts';

/**
 * Times for every page: absolute ones with their zone, and the one rule for relative ones
 * (`formatRelative`), which every "… ago" and "in …" of a page comes from.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * An elapsed time, not a date: "14 s", "3 min", "2 h 5 min", "3 days", "1 day 4 h" (two units at most,
 * rounded down). For the time between two steps and the archive countdown; how long ago a date was is
 * `formatRelative`'s.
 */
export function formatDuration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < MINUTE) return `${Math.floor(abs / SECOND)} s`;
  if (abs < HOUR) return `${Math.floor(abs / MINUTE)} min`;
  if (abs < DAY) {
    const hours = Math.floor(abs / HOUR);
    const minutes = Math.floor((abs % HOUR) / MINUTE);
    return minutes ? `${hours} h ${minutes} min` : `${hours} h`;
  }
  const days = Math.floor(abs / DAY);
  const hours = Math.floor((abs % DAY) / HOUR);
  const dayText = `${days} ${days === 1 ? 'day' : 'days'}`;
  return hours && days < 7 ? `${dayText} ${hours} h` : dayText;
}

/**
 * How long a candidate has waited, short enough for a table column: "3 d 4 h", "5 h 12 min", "12 min",
 * "under 1 min" (two units at most, rounded down; a date ahead of the clock is "under 1 min").
 */
export function formatAge(ms: number): string {
  if (!(ms >= MINUTE)) return 'under 1 min';
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min`;
  if (ms < DAY) {
    const minutes = Math.floor((ms % HOUR) / MINUTE);
    return minutes ? `${Math.floor(ms / HOUR)} h ${minutes} min` : `${Math.floor(ms / HOUR)} h`;
  }
  const hours = Math.floor((ms % DAY) / HOUR);
  return hours ? `${Math.floor(ms / DAY)} d ${hours} h` : `${Math.floor(ms / DAY)} d`;
}

/** Which clock absolute times are shown in: the reader's own zone, or UTC. */
export type ZoneMode = 'local' | 'utc';

export interface ZoneOptions {
  zone?: ZoneMode;
  /** The reader's zone (IANA name) in local mode; the runtime's own when not given. */
  timeZone?: string;
  locale?: string;
}

/** Zone names as the reader's locale abbreviates them ("SGT", "CET"), or an offset from UTC ("UTC+8"), never "GMT+8". */
function zoneText(text: string): string {
  return text.replace(/^GMT(?=$|[+-])/, 'UTC');
}

/**
 * Intl's formatters, made once per locale and options: making one costs far more than using it (a page's
 * first render of a candidate made dozens, about 50 ms of a cold page's render), and a page formats the
 * same few kinds of date again and again. The kinds are few (locale, zone, seconds), so the cache stays small.
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

/**
 * The runtime's own zone, as a key: a formatter made without a zone keeps the one of its making, and the
 * runtime's can change (the reader travels; a test sets TZ). Its offsets and names in January and July
 * tell zones apart for this purpose, at a small fraction of a formatter's cost.
 */
const runtimeZone = () => `${new Date(0).toTimeString()}|${new Date(15_638_400_000).toTimeString()}`;

/** The formatter kept under `key`, made by `make` the first time. */
function kept<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let format = cache.get(key);
  if (format === undefined) {
    format = make();
    cache.set(key, format);
  }
  return format;
}

function dateFormat(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify([locale ?? null, options, options.timeZone === undefined ? runtimeZone() : null]);
  return kept(dateFormats, key, () => new Intl.DateTimeFormat(locale, options));
}

function relativeFormat(locale: string | undefined, numeric: 'auto' | 'always'): Intl.RelativeTimeFormat {
  return kept(relativeFormats, `${locale ?? ''}|${numeric}`, () => new Intl.RelativeTimeFormat(locale, { numeric }));
}

/** The locale writes a 12-hour clock ("2:12:49 PM"), whose hour takes no leading zero; a 24-hour one keeps it ("09:05"). */
const twelveHour = (locale: string | undefined) =>
  /^h1[12]$/.test(dateFormat(locale, { hour: 'numeric' }).resolvedOptions().hourCycle ?? '');

function dateTimeParts(date: Date, options: ZoneOptions, seconds: boolean, dated = true): Intl.DateTimeFormatPart[] {
  return dateFormat(options.locale, {
    ...(dated ? { year: 'numeric', month: 'short', day: 'numeric' } : {}),
    // The time alone (a wait's end) as people write it: "2:12:49 PM", not "02:12:49 PM".
    hour: !dated && twelveHour(options.locale) ? 'numeric' : '2-digit',
    minute: '2-digit',
    ...(seconds ? { second: '2-digit' } : {}),
    timeZone: options.zone === 'utc' ? 'UTC' : options.timeZone,
    timeZoneName: 'short',
  }).formatToParts(date);
}

/** Date and time with the zone, always: "24 Oct 2026, 01:50 UTC", "24 Oct 2026, 09:50 SGT". */
export function formatDateTime(date: Date, options: ZoneOptions & { seconds?: boolean } = {}): string {
  return dateTimeParts(date, options, options.seconds ?? false)
    .map((part) => (part.type === 'timeZoneName' ? zoneText(part.value) : part.value))
    .join('');
}

/** The time alone, with the zone: "14:03:12 UTC", "2:03:12 PM UTC", for a moment of today (a wait's end, TimeStamp's `clock`). */
export function formatClock(date: Date, options: ZoneOptions & { seconds?: boolean } = {}): string {
  return dateTimeParts(date, options, options.seconds ?? false, false)
    .map((part) => (part.type === 'timeZoneName' ? zoneText(part.value) : part.value))
    .join('');
}

function zoneOf(options: ZoneOptions): string | undefined {
  return options.zone === 'utc' ? 'UTC' : options.timeZone;
}

/** The moment's calendar date in the zone, as a count of days since 1970-01-01. */
function calendarDay(date: Date, timeZone: string | undefined): number {
  const parts = dateFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(date);
  const part = (type: 'year' | 'month' | 'day') => Number(parts.find((p) => p.type === type)!.value);
  return utcDay(part('year'), part('month'), part('day')) / DAY;
}

/**
 * Midnight UTC of a calendar date, in ms, for any year: `Date.UTC` reads a year from 0 to 99 as 1900 to 1999,
 * so a date of the year 50 was counted 27,943 days ago, as 1950 (and a birth date in it said not to exist).
 */
export function utcDay(year: number, month: number, day: number): number {
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime();
}

/**
 * A moment soon (a wait's end): its time alone while it falls on today in the zone shown, its date too on
 * another day. A full date for a wait of a minute was more to read than the wait.
 */
export function formatSoon(date: Date, options: ZoneOptions & { seconds?: boolean } = {}): string {
  return (calendarDaysBetween(date, new Date(), options) === 0 ? formatClock : formatDateTime)(date, options);
}

/**
 * How many calendar days `now` is after `date` (negative when `date` is later), counted in the zone the
 * page shows: 23:50 yesterday is 1 day before 00:10 today, 20 minutes apart; a day with a daylight saving
 * change counts once, whether it had 23 hours or 25.
 */
export function calendarDaysBetween(date: Date, now: Date, options: ZoneOptions = {}): number {
  const timeZone = zoneOf(options);
  return calendarDay(now, timeZone) - calendarDay(date, timeZone);
}

/** A date at most this far ahead of the reader's clock is taken for a clock that runs ahead (date-doubt.ts). */
export { CLOCK_SKEW_MS };

export interface RelativeOptions extends ZoneOptions {
  /** The date is meant to lie ahead (a deadline, such as the archive date): no clock skew is assumed, "in 3 minutes" stays. */
  future?: boolean;
}

/**
 * How long ago (or how far ahead) a date is, the one rule of every page: on another calendar day (in the
 * zone the page shows) it is a count of calendar days, whatever the span ("yesterday", "3 days ago", "399
 * days ago", "tomorrow", "in 20 days"), so that a date reads alike on the summary strip, the timeline, the
 * freshness line, Copy summary and paper; on the same day, hours, then minutes, then seconds, rounded
 * down ("2 hours ago"). Under a second ago, and up to CLOCK_SKEW_MS ahead unless the date is a deadline
 * (`future`), it is "just now".
 */
export function formatRelative(date: Date, now: Date, options: RelativeOptions = {}): string {
  const diff = date.getTime() - now.getTime();
  if (diff > -SECOND && (diff < SECOND || (diff <= CLOCK_SKEW_MS && !options.future))) return 'just now';
  const days = calendarDaysBetween(date, now, options);
  if (days !== 0) return relativeFormat(options.locale, 'auto').format(-days, 'day');
  const abs = Math.abs(diff);
  const [unit, size]: [Intl.RelativeTimeFormatUnit, number] =
    abs < MINUTE ? ['second', SECOND] : abs < HOUR ? ['minute', MINUTE] : ['hour', HOUR];
  return relativeFormat(options.locale, 'always').format(Math.sign(diff) * Math.floor(abs / size), unit);
}
