import type { ZoneMode } from '../../kyc/view/time.ts';
import { instantOf } from './audit-draft.ts';

/**
 * The audit page's quick ranges (Today, Yesterday, Last 7 days, Last 30 days) as From and Before hold
 * them: whole days in the zone the page shows, from a midnight to a midnight, `to` exclusive as the
 * search reads Before. The days are counted on the calendar, never as 24 hours: a day of a clock change
 * is 23 or 25 hours long, and "Today" still runs from this midnight to the next (instantOf reads a
 * midnight the clock skipped as the day's first instant).
 */
export const AUDIT_RANGES = [
  { name: 'today', label: 'Today', days: 1, back: 0 },
  { name: 'yesterday', label: 'Yesterday', days: 1, back: 1 },
  { name: 'last7', label: 'Last 7 days', days: 7, back: 0 },
  { name: 'last30', label: 'Last 30 days', days: 30, back: 0 },
] as const;

export type AuditRangeName = (typeof AUDIT_RANGES)[number]['name'];

/** The calendar day `offset` days from `day` (a UTC date standing for a day of the calendar), as `YYYY-MM-DD`. */
function dayString(day: Date, offset: number): string {
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + offset)).toISOString().slice(0, 10);
}

/**
 * From and Before of a quick range, as a `datetime-local` input holds them, for the day `now` is in
 * `zone` (the reader's, or UTC while the page shows UTC times). The last N days end with today.
 */
export function rangeOf(name: AuditRangeName, now: Date, zone: ZoneMode): { from: string; to: string } {
  const range = AUDIT_RANGES.find((known) => known.name === name)!;
  const today = zone === 'utc' ? now : new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()));
  const last = 1 - range.back;
  return { from: `${dayString(today, last - range.days)}T00:00:00`, to: `${dayString(today, last)}T00:00:00` };
}

/**
 * Which quick range From and Before hold now, if one: it is shown selected, and another time typed in
 * either field unselects it. Read as instants: a browser writes `00:00` for `00:00:00`.
 */
export function rangeNameOf(from: string, to: string, now: Date, zone: ZoneMode): AuditRangeName | undefined {
  const [start, end] = [instantOf(from, zone), instantOf(to, zone)];
  if (!start || !end) return undefined;
  return AUDIT_RANGES.find(({ name }) => {
    const range = rangeOf(name, now, zone);
    return instantOf(range.from, zone) === start && instantOf(range.to, zone) === end;
  })?.name;
}
