import {
  AGE_ORDERED_FILTERS,
  type Applicant,
  type ApplicantFilter,
  type ApplicantsPage,
  type QueueIndexState,
  type QueueTabKey,
} from '../../kyc/contract/applicants.ts';
import { needsAttention } from '../../kyc/contract/certificate-triage.ts';
import type { LiveEvent } from '../../kyc/contract/live-events.ts';
import { groupOf, NEWEST_FIRST_GROUPS, QUEUE_GROUPS } from '../../kyc/contract/queue-order.ts';
import { isUndatedStatus } from '../../kyc/contract/status.ts';
import { movedAgeOrder, type OrderCount, orderCountOf } from './order-count.ts';

/**
 * A live event applied to a cached page of the queue (issue 32: pages are pushed the change, they do not
 * ask for their view again). The event says where the index had the candidate and where it has it now
 * (status and date); a page of a tab is a window of that tab's order (queue-view.ts: by group, the dated
 * by date, oldest first or the decisions newest first, then the undated as listed), so the row leaves
 * the window, joins it where its date places it, or shifts it by one, and the counts move by one.
 *
 * What a page cannot know it does not guess: the row that comes in from the next page when one leaves
 * (the page is one row short until its next view), the place of a row whose date is not known among
 * rows whose dates are not known either (the service's listing order is not on the page). Each page
 * remembers the rank its first row has (`start`): a window shifted by an earlier event keeps moving
 * right; once it is not known, only rows between two known neighbours are placed.
 */

const HOUR = 3_600_000;
/** The index's score of an undated entry in the attention set: after every date (queue-entry.ts). */
const UNDATED_SCORE = 8_640_000_000_000_000;

/** Where the index has a candidate: its status and the date it entered it (ms; undefined: not dated). */
export interface Place {
  status: string;
  since?: number;
  /** Not dated, and none to come: the record the index read holds no date of the status. */
  dateless?: true;
}

/** One candidate's change, as a page applies it. */
export interface Move {
  recordId?: string;
  refId?: string;
  /** Null: the index did not know the candidate before. */
  from: Place | null;
  to: Place;
  /** Whether the service archived the candidate's identity data (the event says). */
  isArchived?: boolean;
  /** The row as a page showed it (its certificate and pictures, for compliance users), if one did. */
  seen?: Applicant;
}

/** The list a page is a window of: its tab and its filters, as its query's key says. */
export interface PageList {
  tab: ApplicantFilter | undefined;
  overSla?: boolean;
  attention?: boolean;
}

const ms = (iso: string | undefined) => {
  const time = iso === undefined ? Number.NaN : Date.parse(iso);
  return Number.isFinite(time) ? time : undefined;
};
const placeOf = (status: string, since: string | undefined, dateless?: true): Place => {
  const time = ms(since);
  return time !== undefined ? { status, since: time } : dateless ? { status, dateless } : { status };
};

/** The move an event says; undefined when it says too little to move a row (no status, or no place: the page asks again). */
export function moveOf(event: LiveEvent, seen?: Applicant): Move | undefined {
  if (event.status === null || event.previousStatus === undefined || event.event === 'user.deleted') return undefined;
  return {
    ...(event.recordId ? { recordId: event.recordId } : {}),
    ...(event.refId ? { refId: event.refId } : {}),
    from: event.previousStatus === null ? null : placeOf(event.previousStatus, event.previousSince),
    to: placeOf(event.status, event.since, event.dateless),
    isArchived: event.isArchived,
    ...(seen ? { seen } : {}),
  };
}

/** Whether a row is the moved candidate: the same recordId or refId. */
export function isCandidate(row: Applicant, ids: Pick<Move, 'recordId' | 'refId'>): boolean {
  return (Boolean(ids.recordId) && row.recordId === ids.recordId) || (Boolean(ids.refId) && row.refId === ids.refId);
}

/** The row the page shows in its new place. */
function movedRow(move: Move): Applicant {
  const { seen } = move;
  const { since: _old, dateless: _wasDateless, ...kept } = seen ?? { status: move.to.status };
  return {
    ...kept,
    status: move.to.status,
    ...(move.recordId ? { recordId: move.recordId } : {}),
    ...(move.refId ? { refId: move.refId } : {}),
    ...(move.to.since !== undefined ? { since: new Date(move.to.since).toISOString() } : move.to.dateless ? { dateless: true } : {}),
    ...(move.isArchived === undefined ? {} : { isArchived: move.isArchived }),
  };
}

/** Whether its certificate needs attention, when a page showed the row (undefined: not known). */
const attentionOf = (move: Move) => (move.seen ? needsAttention(move.seen.certificate) : undefined);

/** Whether a place is in a list (undefined: not known, an attention filter without the row's certificate). */
function inList(list: PageList, place: Place | null, cutoff: number | undefined, attention: boolean | undefined): boolean | undefined {
  if (!place) return false;
  if (list.tab && groupOf(place.status) !== list.tab) return false;
  if (list.overSla && !(place.since !== undefined && cutoff !== undefined && place.since < cutoff)) return false;
  return list.attention ? attention : true;
}

/** The member the index most likely has (its first key): the tie-break of equal dates. */
const memberOf = (ids: { recordId?: string | undefined; refId?: string | undefined }) =>
  ids.recordId ? `recordId:${ids.recordId}` : `refId:${ids.refId ?? ''}`;

/** Redis's order of equal scores: the members' UTF-8 bytes, which is their code points' order. */
function byCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Where `a` is against `b` in the list: negative before, positive after; undefined when neither date is known. */
function compare(list: PageList, a: Place & { member: string }, b: Place & { member: string }): number | undefined {
  const groups = QUEUE_GROUPS.indexOf(groupOf(a.status)) - QUEUE_GROUPS.indexOf(groupOf(b.status));
  if (groups !== 0) return groups;
  const direction = NEWEST_FIRST_GROUPS.includes(groupOf(a.status)) ? -1 : 1;
  // The attention set scores an undated entry after every date; the others list the undated after the dated.
  const score = (place: Place) => place.since ?? (list.attention ? UNDATED_SCORE : undefined);
  const [x, y] = [score(a), score(b)];
  if (x === undefined && y === undefined) return undefined;
  if (x === undefined || y === undefined) return x === undefined ? 1 : -1;
  return direction * (x - y || byCodePoints(a.member, b.member));
}

const rowPlace = (row: Applicant) => ({ ...placeOf(row.status, row.since), member: memberOf(row) });

/**
 * Where a place goes among the rows: the index of the first row it comes before (rows.length: after
 * them all); undefined when the rows whose dates are not known leave it open.
 */
function slot(list: PageList, place: Place & { member: string }, rows: readonly Applicant[]): number | undefined {
  const sides = rows.map((row) => compare(list, place, rowPlace(row)));
  const lastAfter = sides.findLastIndex((side) => side !== undefined && side > 0);
  const firstBefore = sides.findIndex((side) => side !== undefined && side < 0);
  const at = firstBefore === -1 ? rows.length : firstBefore;
  return at === lastAfter + 1 ? at : undefined;
}

/** A page of a list as it is being changed: its rows, the rank of the first (null: not known) and the list's size (null: not known). */
interface Window {
  rows: Applicant[];
  start: number | null;
  total: number | null;
  skip: number;
  limit: number;
}

/** The candidate leaves the list (`was`: it was in it; undefined: not known). */
function leave(window: Window, list: PageList, move: Move, was: boolean | undefined): void {
  const { rows } = window;
  const at = rows.findIndex((row) => isCandidate(row, move));
  if (at >= 0) {
    rows.splice(at, 1);
  } else if (was !== false && rows.length > 0) {
    // Not on the page: the rows move up by one when it was before them; where it was is not always known.
    const side = was && move.from ? slot(list, { ...move.from, member: memberOf(move) }, rows) : undefined;
    if (side === 0 && window.start !== null) window.start -= 1;
    else if (side !== rows.length) window.start = null;
  }
  if (was === undefined) window.total = null;
  else if (was && window.total !== null) window.total -= 1;
  // The first row moved up onto the page before.
  if (window.start !== null && window.start < window.skip) {
    rows.shift();
    window.start = window.skip;
  }
}

/** The candidate joins the list: in its place when the page's rows say where that is. */
function join(window: Window, list: PageList, move: Move, row: Applicant): void {
  const { rows, start, total } = window;
  if (total !== null) window.total = total + 1;
  if (rows.some((one) => isCandidate(one, move))) return;
  const at = slot(list, { ...move.to, member: memberOf(move) }, rows);
  // The first of an empty list; on an empty page of a list that has rows, where it goes is not known.
  if (rows.length === 0 && start === 0 && total === 0) rows.push(row);
  else if (at === undefined || rows.length === 0) window.start = null;
  else if (at > 0 && at < rows.length) rows.splice(at, 0, row);
  else if (at === 0 && start === 0) rows.unshift(row);
  // After the last row of the whole list.
  else if (at === rows.length && start !== null && total !== null && start + rows.length === total) rows.push(row);
  // Before the first row, on this page or an earlier one: the rows move down by one.
  else if (at === 0 && start !== null) window.start = start + 1;
  // The rows pushed past the page's end go to the next.
  const room = window.start === null ? window.limit : window.skip + window.limit - window.start;
  if (rows.length > Math.max(0, room)) rows.length = Math.max(0, room);
}

/** Rows over the SLA at the time the page was read (the server counted them then). */
export function cutoffOf(page: Pick<ApplicantsPage, 'slaHours' | 'index'>, now: number): number | undefined {
  if (page.slaHours === undefined) return undefined;
  return (ms(page.index?.at) ?? now) - page.slaHours * HOUR;
}

const TAB_KEYS = (counts: Partial<Record<QueueTabKey, unknown>> | undefined) => Object.keys(counts ?? {}) as QueueTabKey[];
const tabOf = (key: QueueTabKey): ApplicantFilter | undefined => (key === 'all' ? undefined : key);
const delta = (before: boolean | undefined, after: boolean | undefined) =>
  before === undefined || after === undefined ? 0 : Number(after) - Number(before);

/** Every tab's count, over-SLA count and attention count, moved. */
function movedCounts(page: ApplicantsPage, move: Move, cutoff: number | undefined): Partial<ApplicantsPage> {
  const attention = attentionOf(move);
  const moved = <T>(values: Partial<Record<QueueTabKey, T>> | undefined, shift: (key: QueueTabKey) => number) =>
    values &&
    Object.fromEntries(
      TAB_KEYS(values).map((key) => {
        const value = values[key];
        return [key, typeof value === 'number' ? Math.max(0, value + shift(key)) : value];
      }),
    );
  const shift = (list: PageList) => delta(inList(list, move.from, cutoff, attention), inList(list, move.to, cutoff, attention));
  const over = (key: QueueTabKey) => (AGE_ORDERED_FILTERS.includes(tabOf(key)!) ? shift({ tab: tabOf(key), overSla: true }) : 0);
  return {
    ...(page.counts ? { counts: moved(page.counts, (key) => shift({ tab: tabOf(key) })) } : {}),
    ...(page.overSlaByTab ? { overSlaByTab: moved(page.overSlaByTab, over) } : {}),
    ...(page.attentionByTab ? { attentionByTab: moved(page.attentionByTab, (key) => shift({ tab: tabOf(key), attention: true })) } : {}),
  };
}

/** The index's figures after a move: `undated` only while there are such rows, as the server says it. */
function movedIndex(index: QueueIndexState, dated: number, of: number, undated: number): QueueIndexState {
  const { undated: _before, ...rest } = index;
  return { ...rest, dated, of, ...(undated > 0 ? { undated } : {}) };
}

/** The tab's own figures: its over-SLA count, and how many of its rows are dated. */
function movedTab(page: ApplicantsPage, list: PageList, move: Move, cutoff: number | undefined, now: number): Partial<ApplicantsPage> {
  const tab = { tab: list.tab };
  // As the server counts them (queue-view.ts): a status the service never dates is neither known nor waited for.
  const datable = (place: Place | null) => inList(tab, place && isUndatedStatus(place.status) ? null : place, cutoff, undefined);
  const dated = (place: Place | null) => datable(place?.since === undefined ? null : place);
  const countedAs = (kind: OrderCount) => (place: Place | null) => datable(place && orderCountOf(place, now) === kind ? place : null);
  const shiftOf = (kind: OrderCount) => delta(countedAs(kind)(move.from), countedAs(kind)(move.to));
  const undated = (place: Place | null) => inList(tab, place && isUndatedStatus(place.status) ? place : null, cutoff, undefined);
  const size = delta(datable(move.from), datable(move.to));
  const datedShift = delta(dated(move.from), dated(move.to));
  const undatedCount = Math.max(0, (page.index?.undated ?? 0) + delta(undated(move.from), undated(move.to)));
  const overShift = delta(
    inList({ ...tab, overSla: true }, move.from, cutoff, undefined),
    inList({ ...tab, overSla: true }, move.to, cutoff, undefined),
  );
  const { order, index } = page;
  const shifts = { known: shiftOf('known'), noDate: shiftOf('noDate'), future: shiftOf('future') };
  return {
    ...(page.overSla === undefined ? {} : { overSla: Math.max(0, page.overSla + overShift) }),
    ...(order?.by === 'age' ? { order: movedAgeOrder(order, shifts, size) } : {}),
    ...(index ? { index: movedIndex(index, Math.max(0, index.dated + datedShift), Math.max(0, index.of + size), undatedCount) } : {}),
  };
}

/**
 * The page after the move, and the rank its first row now has (null: not known). `start` is the rank it
 * had (undefined: as the server answered it, its `skip`).
 */
export function applyMove(
  page: ApplicantsPage,
  list: PageList,
  move: Move,
  options: { start?: number | null; now: number },
): { page: ApplicantsPage; start: number | null } {
  const cutoff = cutoffOf(page, options.now);
  const attention = attentionOf(move);
  const was = inList(list, move.from, cutoff, attention);
  const is = inList(list, move.to, cutoff, attention);
  const window: Window = {
    rows: [...page.records],
    start: options.start === undefined ? page.skip : options.start,
    total: page.total,
    skip: page.skip,
    limit: page.limit,
  };
  const row = page.records.find((one) => isCandidate(one, move)) ?? move.seen;
  leave(window, list, move, was);
  if (is) join(window, list, move, movedRow({ ...move, ...(row ? { seen: row } : {}) }));
  const total = Math.max(0, page.total + delta(was, is));
  return {
    page: { ...page, records: window.rows, total, ...movedCounts(page, move, cutoff), ...movedTab(page, list, move, cutoff, options.now) },
    start: window.start,
  };
}
