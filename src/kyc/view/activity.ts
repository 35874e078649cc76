import type { ActivityAnswer, AuditRow } from '../contract/audit-search.ts';
import { calendarDaysBetween, type ZoneMode } from './time.ts';

/** A candidate's Activity read for "has someone already looked at this today?". */

export interface TodaysLookers {
  /** Others who looked this candidate up today (in the zone the page shows), each with their latest time, latest first. */
  others: Array<{ user: string; at: Date }>;
  /** The reader looked too. */
  you: boolean;
  /**
   * Others who only saw them in the queue today (a page of it that showed their row, at either level), latest
   * first: they did not open the candidate, but the list below shows their lines, so the first line counts them.
   */
  inQueue: string[];
  /**
   * Others whose lookups of today were all cut short after they began (a `cut` line of the same request),
   * latest first: part of the record may have reached them, never all of it, so they are not counted as
   * having looked, nor left out; said apart ("1 answer cut short").
   */
  cutShort: string[];
}

/** A line of today's, of someone's, that answered: a refusal or a failure showed nothing. */
function shownToday(row: AuditRow, now: Date, zone: ZoneMode): boolean {
  if (!row.user || row.status === null || row.status >= 400) return false;
  return calendarDaysBetween(new Date(row.time), now, { zone }) === 0;
}

/**
 * A cut line of today's whose lookup's line is not listed: the lookup asked for another candidate, and
 * its answer sent part of this one's record before it was cut (other_candidate; the search found it by
 * the id that record gave). Part of this candidate reached that user: cut short, as their own lookup's.
 */
function cutAloneToday(row: AuditRow, lookups: ReadonlySet<string | null>, now: Date, zone: ZoneMode): boolean {
  if (row.action !== 'cut' || !row.user || lookups.has(row.requestId)) return false;
  return calendarDaysBetween(new Date(row.time), now, { zone }) === 0;
}

/**
 * Who looked this candidate up today: lookups and batch lookups, whoever's, the reader apart; who saw them
 * in the queue; and whose answers were all cut short. A lookup's line says 200 before its first byte: the
 * `cut` line its request may have after it (same requestId) says the answer never arrived whole.
 */
export function todaysLookers(rows: readonly AuditRow[], you: string | undefined, now: Date, zone: ZoneMode): TodaysLookers {
  const latest = new Map<string, Date>();
  const queue = new Map<string, Date>();
  const cut = new Map<string, Date>();
  const cutRequests = new Set(rows.flatMap((row) => (row.action === 'cut' && row.requestId ? [row.requestId] : [])));
  const lookups = new Set(rows.flatMap((row) => (row.action === 'lookup' || row.action === 'batch' ? [row.requestId] : [])));
  const keepLatest = (map: Map<string, Date>, row: AuditRow) => {
    const at = new Date(row.time);
    const before = map.get(row.user!);
    if (before === undefined || before < at) map.set(row.user!, at);
  };
  let mine = false;
  for (const row of rows) {
    if (row.user !== you && cutAloneToday(row, lookups, now, zone)) {
      keepLatest(cut, row);
      continue;
    }
    if (!shownToday(row, now, zone)) continue;
    const lookedUp = row.action === 'lookup' || row.action === 'batch';
    const cutShort = lookedUp && row.requestId !== null && cutRequests.has(row.requestId);
    if (row.user === you) {
      mine ||= lookedUp && !cutShort;
      continue;
    }
    const map = cutShort ? cut : lookedUp ? latest : row.action === 'list' && row.queueTab !== undefined ? queue : undefined;
    if (map) keepLatest(map, row);
  }
  const newestFirst = (map: Map<string, Date>) =>
    [...map].map(([user, at]) => ({ user, at })).sort((a, b) => b.at.getTime() - a.at.getTime());
  const others = newestFirst(latest);
  const apart = (map: Map<string, Date>) =>
    newestFirst(map)
      .map(({ user }) => user)
      .filter((user) => !latest.has(user));
  const cutShort = apart(cut);
  return { others, you: mine, inQueue: apart(queue).filter((user) => !cut.has(user)), cutShort };
}

/**
 * Why the trail an Activity was read from may lack lines, in a few words, or undefined when it is whole:
 * the table could not be read (this server's files only), lines not in the table yet, instances not
 * reporting, or a search of the files that stopped before the oldest day. "Nobody else has looked at this
 * candidate today" is then said as far as it could be read, never as a fact: another instance's reviewer
 * may have opened them an hour ago.
 */
export function trailMayLack({ source, searched }: Pick<ActivityAnswer, 'source' | 'searched'>): string | undefined {
  const silent = source.notReporting?.length ?? 0;
  const reasons = [
    source.fallback !== undefined ? "this server's audit files only" : undefined,
    (source.behind?.length ?? 0) > 0 ? 'lines not in the audit table yet' : undefined,
    silent === 0 ? undefined : silent === 1 ? 'an instance not reporting' : `${silent} instances not reporting`,
    searched && !searched.complete ? 'the search stopped before the oldest day' : undefined,
  ].filter((reason) => reason !== undefined);
  return reasons.length === 0 ? undefined : reasons.join('; ');
}
