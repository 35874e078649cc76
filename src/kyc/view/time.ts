/** Durations and relative times for the status timeline. */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "14 s", "3 min", "2 h 5 min", "3 days", "1 day 4 h": two units at most, rounded down. */
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
 * Each unit with the count at which the next larger one takes over. The unit is chosen from the rounded
 * count, so that two moments a few minutes apart read alike ("30 days ago" twice, never "last month"
 * beside "30 days ago"), and counts are always numbers ("1 day ago", not "yesterday").
 */
const LADDER: Array<[Intl.RelativeTimeFormatUnit, number, number]> = [
  ['second', SECOND, 60],
  ['minute', MINUTE, 60],
  ['hour', HOUR, 24],
  ['day', DAY, 60],
  ['month', 30.4375 * DAY, 12],
  ['year', 365.25 * DAY, Infinity],
];

/** "3 days ago", "in 20 days", "now". */
export function formatRelative(date: Date, now: Date, locale?: string): string {
  const diff = date.getTime() - now.getTime();
  if (Math.abs(diff) < SECOND) return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(0, 'second');
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'always' });
  for (const [unit, size, next] of LADDER) {
    const count = Math.round(Math.abs(diff) / size);
    if (count < next) return format.format(Math.sign(diff) * count, unit);
  }
  return format.format(Math.round(diff / LADDER.at(-1)![1]), 'year');
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

function dateTimeParts(date: Date, options: ZoneOptions, seconds: boolean): Intl.DateTimeFormatPart[] {
  return new Intl.DateTimeFormat(options.locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
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

/** The zone label alone, as formatDateTime shows it for this moment. */
export function zoneLabel(date: Date, options: ZoneOptions = {}): string {
  const part = dateTimeParts(date, options, false).find((p) => p.type === 'timeZoneName');
  return zoneText(part?.value ?? 'UTC');
}
