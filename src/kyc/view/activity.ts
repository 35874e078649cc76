import type { AuditRow } from '../contract/audit-search.ts';
import { calendarDaysBetween, type ZoneMode } from './time.ts';

/** A candidate's Activity read for "has someone already looked at this today?". */

export interface TodaysLookers {
  /** Others who looked this candidate up today (in the zone the page shows), each with their latest time, latest first. */
  others: Array<{ user: string; at: Date }>;
  /** The reader looked too. */
  you: boolean;
}

/** Who looked this candidate up today: lookups and batch lookups, whoever's, the reader apart. */
export function todaysLookers(rows: readonly AuditRow[], you: string | undefined, now: Date, zone: ZoneMode): TodaysLookers {
  const latest = new Map<string, Date>();
  let mine = false;
  for (const row of rows) {
    if ((row.action !== 'lookup' && row.action !== 'batch') || !row.user || row.status === null || row.status >= 400) continue;
    const at = new Date(row.time);
    if (calendarDaysBetween(at, now, { zone }) !== 0) continue;
    if (row.user === you) mine = true;
    else if (!latest.has(row.user) || latest.get(row.user)! < at) latest.set(row.user, at);
  }
  const others = [...latest].map(([user, at]) => ({ user, at })).sort((a, b) => b.at.getTime() - a.at.getTime());
  return { others, you: mine };
}
