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

/** A row of a candidate's Activity: a line of the trail, with the views of the queue folded under it (foldQueueViews). */
export interface ActivityItem {
  row: AuditRow;
  /** More views of the same tab by the same person, one after another, folded under this, the newest: how many in all, and the oldest's time. */
  views?: { count: number; since: string };
}

/** What makes two views of the queue the same to a reader: who, as what, which tab with which filters, and what it showed. */
const viewKey = (row: AuditRow) =>
  row.action === 'list' && row.queueTab !== undefined && !row.unvouched && row.user !== null && row.status !== null && row.status < 400
    ? JSON.stringify([row.user, row.role, row.queueTab, row.queueOnly ?? [], row.level, row.status])
    : undefined;

/**
 * The Activity's lines, newest first, with each run of one person's views of one queue tab that showed
 * this candidate, one after another, folded into one row ("Saw in the queue (All tab), 6 times since
 * 09:12"): every page of the queue that showed the row is a line, and a reviewer paging the queue all
 * morning buried the lookups, prints and copies under them (UX review). Nothing is dropped: a run is only
 * lines next to each other, of the same view, and a line the chain does not vouch for is never folded.
 */
export function foldQueueViews(rows: readonly AuditRow[]): ActivityItem[] {
  const items: ActivityItem[] = [];
  let runKey: string | undefined;
  for (const row of rows) {
    const key = viewKey(row);
    const last = items.at(-1);
    if (key !== undefined && key === runKey && last) {
      last.views = { count: (last.views?.count ?? 1) + 1, since: row.time };
      continue;
    }
    items.push({ row });
    runKey = key;
  }
  return items;
}
