import {
  AGE_ORDERED_FILTERS,
  APPLICANT_FILTERS,
  type Applicant,
  type ApplicantFilter,
  type ApplicantsPage,
  type ApplicantsQuery,
  DOCUMENTED_FILTERS,
  type QueueIndexState,
  type QueueTabKey,
  queueTabKey,
  type Skipped,
} from '../../kyc/contract/applicants.ts';
import { realDateBefore } from '../../kyc/contract/date-doubt.ts';
import { type Idless, idlessOverSla } from '../../kyc/contract/idless.ts';
import { joinSkipped } from '../../kyc/contract/list-record.ts';
import { isUndatedStatus } from '../../kyc/contract/status.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { type IndexEntry, NEWEST_FIRST_GROUPS, QUEUE_GROUPS, type QueueGroup, type SetName } from '../state/queue-entry.ts';
import type { CountQuery, QueueIndexStore, RangeQuery } from '../state/queue-index-store.ts';
import { type CrawlTab, limitedState, readCrawlState, type TabCrawl } from './queue-crawl-state.ts';
import { errorState, unreadTab } from './queue-view-failure.ts';

/**
 * A view of the queue (issue 32), read from the index and never from the service: a page by rank of the
 * tab's sorted sets, every tab's count and over-SLA count by ZCARD and ZCOUNT, in three round trips
 * whatever the size (counts, ranges, entries). A tab is its status's group: the dated rows in the
 * group's order (oldest first; the decisions' newest first), then the rows not dated yet in the order
 * the service listed them. All is every group in turn, in the tabs' order.
 */

export interface ViewRequest {
  query: ApplicantsQuery;
  /** The environment's SLA (none: no SLA). */
  slaHours: number | undefined;
  now: number;
  /** A compliance user: the triage fields and counts (certificate outcome, pictures). */
  compliance: boolean;
}

export type View = { ok: true; data: ApplicantsPage } | { ok: false; failure: ApiFailure };

const TABS: readonly (ApplicantFilter | undefined)[] = [undefined, ...APPLICANT_FILTERS];
const groupsOf = (tab: ApplicantFilter | undefined): readonly QueueGroup[] => (tab ? [tab] : QUEUE_GROUPS);
/**
 * The groups whose rows count in "340 of 1,000 known" and "dated": a status the service never dates
 * (incomplete) has no date to look up, so it is neither known nor waited for, dated or not.
 */
const datableGroupsOf = (tab: ApplicantFilter | undefined) => groupsOf(tab).filter((group) => !isUndatedStatus(group));
const NOT_OFFERED = new ApiFailure('applicants_unavailable', 'This KYC service does not offer the applicants list.');

/** One run of rows of the tab: a set, in its order, with how many it holds. */
interface Segment {
  set: SetName;
  reverse: boolean;
  below?: number;
}

/** The counts a view needs, asked at once; `at` finds one by its set and bound. */
class Counts {
  readonly queries: CountQuery[] = [];
  private readonly positions = new Map<string, number>();
  values: number[] = [];

  want(set: SetName, below?: number): void {
    const key = `${set}<${below ?? ''}`;
    if (this.positions.has(key)) return;
    this.positions.set(key, this.queries.length);
    this.queries.push(below === undefined ? { set } : { set, below });
  }

  at(set: SetName, below?: number): number {
    return this.values[this.positions.get(`${set}<${below ?? ''}`)!] ?? 0;
  }
}

export async function readView(store: QueueIndexStore, environment: string, request: ViewRequest): Promise<View> {
  const { query } = request;
  const cutoff = request.slaHours === undefined ? undefined : request.now - request.slaHours * 3_600_000;
  const segments = segmentsOf(query, cutoff);
  const counts = new Counts();
  for (const group of QUEUE_GROUPS) for (const kind of ['z', 'u', 'x', 'n'] as const) counts.want(`${kind}:${group}`);
  for (const group of QUEUE_GROUPS) counts.want(`z:${group}`, realDateBefore(request.now));
  if (cutoff !== undefined) for (const status of AGE_ORDERED_FILTERS) counts.want(`z:${status}`, cutoff);
  for (const segment of segments) counts.want(segment.set, segment.below);
  const [values, meta] = await Promise.all([store.count(environment, counts.queries), store.readMeta(environment)]);
  counts.values = values;
  const crawl = readCrawlState(meta);
  const refused = APPLICANT_FILTERS.filter((filter) => crawl[filter]?.refused);
  const notOffered = DOCUMENTED_FILTERS.some((filter) => crawl[filter]?.error?.code === 'applicants_unavailable' && !crawl[filter]?.asOf);
  if (notOffered) return { ok: false, failure: NOT_OFFERED };
  const tabState = stateOf(crawl, query.status, refused);
  const refusedHere = query.status !== undefined && refused.includes(query.status);
  if (refusedHere && !query.counts) return { ok: false, failure: refusedFailure(query.status!) };
  const of = sum(groupsOf(query.status).map((group) => counts.at(`z:${group}`) + counts.at(`u:${group}`)));
  if (!refusedHere && tabState.error && tabState.asOf === undefined && of === 0) {
    return { ok: false, failure: unreadTab(tabState.error, request.now) };
  }
  const datable = sum(datableGroupsOf(query.status).map((group) => counts.at(`z:${group}`) + counts.at(`u:${group}`)));
  const sizes = segments.map((segment) => counts.at(segment.set, segment.below));
  const total = refusedHere ? 0 : sum(sizes);
  const members = refusedHere ? [] : (await store.range(environment, slices(segments, sizes, query.skip, query.limit))).flat();
  const entries = members.length > 0 ? await store.entries(environment, members) : [];
  const records = entries.flatMap((stored) => (stored ? [applicantOf(stored.entry, request.compliance)] : []));
  const idless = refusedHere ? [] : idlessOf(crawl, query.status, refused);
  const data: ApplicantsPage = {
    records,
    total,
    skip: query.skip,
    limit: query.limit,
    ...orderOf(query.status, counts, datable, request.now),
    ...slaOf(request, counts, cutoff, query.status, tabState, idless),
    ...(tabState.skipped ? { skipped: tabState.skipped } : {}),
    ...(idless.length > 0 ? { idless } : {}),
    ...(query.overSla || query.attention
      ? { only: [...(query.overSla ? ['overSla' as const] : []), ...(query.attention ? ['attention' as const] : [])] }
      : {}),
    ...(query.counts ? tabCounts(request, counts, crawl, refused, cutoff) : {}),
    index: { ...indexState(request.now, tabState, counts, query.status, datable), ...limitedState(crawl, request.now) },
  };
  return { ok: true, data };
}

/** The runs of rows of a tab as asked: its groups' dated then undated rows; only those over the SLA, or needing attention. */
function segmentsOf(query: ApplicantsQuery, cutoff: number | undefined): Segment[] {
  return groupsOf(query.status).flatMap((group): Segment[] => {
    const reverse = NEWEST_FIRST_GROUPS.includes(group);
    const below = query.overSla && cutoff !== undefined ? cutoff : undefined;
    if (query.attention) return [{ set: `x:${group}`, reverse, ...(below === undefined ? {} : { below }) }];
    if (below !== undefined) return [{ set: `z:${group}`, reverse: false, below }];
    return [
      { set: `z:${group}`, reverse },
      { set: `u:${group}`, reverse: false },
    ];
  });
}

/** The ranges that cover rows skip..skip+limit of the runs laid end to end. */
function slices(segments: readonly Segment[], sizes: readonly number[], skip: number, limit: number): RangeQuery[] {
  const out: RangeQuery[] = [];
  let start = 0;
  segments.forEach((segment, i) => {
    const size = sizes[i] ?? 0;
    const from = Math.max(skip, start);
    const to = Math.min(skip + limit, start + size);
    if (to > from) out.push({ ...segment, offset: from - start, count: to - from });
    start += size;
  });
  return out;
}

/** A row as the answer gives it: status-level fields, and for compliance users the triage ones. */
function applicantOf(entry: IndexEntry, compliance: boolean): Applicant {
  return {
    status: entry.status,
    ...(entry.isArchived === undefined ? {} : { isArchived: entry.isArchived }),
    ...(entry.recordId ? { recordId: entry.recordId } : {}),
    ...(entry.refId ? { refId: entry.refId } : {}),
    ...(entry.blockPassID ? { blockPassID: entry.blockPassID } : {}),
    ...(entry.serviceID ? { serviceID: entry.serviceID } : {}),
    ...(entry.since === undefined ? {} : { since: new Date(entry.since).toISOString() }),
    ...(entry.since === undefined && entry.dateless ? { dateless: true as const } : {}),
    ...(entry.unreadable ? { unreadable: entry.unreadable } : {}),
    ...(compliance && entry.certificate ? { certificate: entry.certificate } : {}),
    ...(compliance && entry.pictures !== undefined ? { pictures: entry.pictures } : {}),
  };
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** `known`: rows with a real date; `noDate`: whose record has none (or a placeholder); `future`: dated in the future. */
function orderOf(tab: ApplicantFilter | undefined, counts: Counts, of: number, now: number): Pick<ApplicantsPage, 'order'> {
  const groups = datableGroupsOf(tab);
  const known = sum(groups.map((group) => counts.at(`z:${group}`, realDateBefore(now))));
  const future = sum(groups.map((group) => counts.at(`z:${group}`))) - known;
  const noDate = sum(groups.map((group) => counts.at(`n:${group}`)));
  const newestFirst = tab !== undefined && NEWEST_FIRST_GROUPS.includes(tab) ? { newestFirst: true as const } : {};
  const doubtful = { ...(noDate > 0 ? { noDate } : {}), ...(future > 0 ? { future } : {}) };
  return { order: { by: 'age', known, of, ...doubtful, ...newestFirst, ...(tab ? {} : { byStatus: true }) } };
}

/** The SLA and the tab's count over it: a floor while some of its dates are not known yet. */
function slaOf(
  request: ViewRequest,
  counts: Counts,
  cutoff: number | undefined,
  tab: ApplicantFilter | undefined,
  state: TabCrawl,
  idless: readonly Idless[],
): Pick<ApplicantsPage, 'slaHours' | 'overSla' | 'overSlaPartial'> {
  if (request.slaHours === undefined || cutoff === undefined) return {};
  if (!tab || !AGE_ORDERED_FILTERS.includes(tab)) return { slaHours: request.slaHours };
  const noId = idlessOver(idless, cutoff);
  const partial = counts.at(`u:${tab}`) > 0 || state.asOf === undefined || noId.partial;
  return { slaHours: request.slaHours, overSla: counts.at(`z:${tab}`, cutoff) + noId.over, ...(partial ? { overSlaPartial: true } : {}) };
}

/**
 * The tab's records with a status but no id (idless.ts), from the crawler's reads: a filter's from its
 * own read; All's, for each status, from the read of its filter, or from the unfiltered list's for a
 * status no filter the service offers names (as the index files those candidates).
 */
function idlessOf(crawl: Partial<Record<CrawlTab, TabCrawl>>, tab: ApplicantFilter | undefined, refused: ApplicantFilter[]): Idless[] {
  return groupsOf(tab).flatMap((group) => {
    const read = group !== 'other' && !refused.includes(group) ? crawl[group] : crawl.all;
    return (read?.idless ?? []).filter((tally) => tally.status === group);
  });
}

/** How many of the id-less tallies are over the SLA, and whether that is a floor. */
function idlessOver(idless: readonly Idless[], cutoff: number): { over: number; partial: boolean } {
  const each = idless.map((tally) => idlessOverSla(tally, cutoff));
  return { over: sum(each.map((one) => one.over)), partial: each.some((one) => one.partial) };
}

/** Every tab's count, over-SLA count and (compliance) attention count; the filters the service refused. */
function tabCounts(
  request: ViewRequest,
  counts: Counts,
  crawl: Partial<Record<CrawlTab, TabCrawl>>,
  refused: ApplicantFilter[],
  cutoff: number | undefined,
): Pick<ApplicantsPage, 'counts' | 'overSlaByTab' | 'overSlaPartialTabs' | 'refused' | 'attentionByTab'> {
  const view = { counts: {}, overSlaByTab: {}, overSlaPartialTabs: [], refused } as Required<
    Pick<ApplicantsPage, 'counts' | 'overSlaByTab' | 'overSlaPartialTabs' | 'refused'>
  >;
  const attention: Partial<Record<QueueTabKey, number>> = {};
  for (const tab of TABS) {
    const key = queueTabKey(tab);
    const state = stateOf(crawl, tab, refused);
    const idless = idlessOf(crawl, tab, refused);
    // The candidates the index holds, and those the service listed without an id: both are the tab's.
    const size = sum(groupsOf(tab).map((group) => counts.at(`z:${group}`) + counts.at(`u:${group}`))) + sum(idless.map((one) => one.count));
    const failed = (state.error && state.asOf === undefined && size === 0) || (tab !== undefined && refused.includes(tab));
    // Never read whole, nothing known: not read yet, never 0 (a lead read 0 as "nothing in review").
    view.counts[key] = failed ? 'unavailable' : state.asOf === undefined && size === 0 ? 'unread' : size;
    attention[key] = sum(groupsOf(tab).map((group) => counts.at(`x:${group}`)));
    if (cutoff === undefined || !tab || !AGE_ORDERED_FILTERS.includes(tab) || failed) continue;
    const noId = idlessOver(idless, cutoff);
    view.overSlaByTab[key] = counts.at(`z:${tab}`, cutoff) + noId.over;
    if (counts.at(`u:${tab}`) > 0 || state.asOf === undefined || noId.partial) view.overSlaPartialTabs.push(key);
  }
  return { ...view, ...(request.compliance ? { attentionByTab: attention } : {}) };
}

/**
 * A tab's crawl: its own; All's is every tab the service offers together (the oldest whole read, the
 * first failure, still crawling while one of them is).
 */
function stateOf(crawl: Partial<Record<CrawlTab, TabCrawl>>, tab: ApplicantFilter | undefined, refused: ApplicantFilter[]): TabCrawl {
  if (tab) return crawl[tab] ?? {};
  const tabs: CrawlTab[] = [
    ...APPLICANT_FILTERS.filter((filter) => !refused.includes(filter)),
    ...(refused.length > 0 ? ['all' as const] : []),
  ];
  const states = tabs.map((one) => crawl[one] ?? {});
  const whole = states.every((state) => state.asOf !== undefined);
  const error = states.find((state) => state.error)?.error;
  // What the reads left out: the unfiltered list's read, or the filters' together, whichever saw more.
  const filters = states.reduce<Skipped | undefined>((all, state) => joinSkipped(all, state.skipped), undefined);
  const skipped = (crawl.all?.skipped?.count ?? 0) > (filters?.count ?? 0) ? crawl.all?.skipped : filters;
  return {
    ...(whole ? { asOf: Math.min(...states.map((state) => state.asOf!)) } : {}),
    ...(error ? { error } : {}),
    ...(whole ? {} : { read: sum(states.map((state) => state.read ?? 0)), listed: sum(states.map((state) => state.listed ?? 0)) }),
    ...(skipped ? { skipped } : {}),
  };
}

function indexState(now: number, state: TabCrawl, counts: Counts, tab: ApplicantFilter | undefined, of: number): QueueIndexState {
  const dated = sum(datableGroupsOf(tab).map((group) => counts.at(`z:${group}`)));
  const undated = sum(
    groupsOf(tab)
      .filter((group) => isUndatedStatus(group))
      .map((group) => counts.at(`z:${group}`) + counts.at(`u:${group}`)),
  );
  return {
    at: new Date(now).toISOString(),
    ...(state.asOf === undefined ? { crawling: true } : { asOf: new Date(state.asOf).toISOString() }),
    ...(state.asOf === undefined && state.read !== undefined ? { read: state.read } : {}),
    ...(state.asOf === undefined && state.listed !== undefined ? { listed: state.listed } : {}),
    dated,
    of,
    ...(undated > 0 ? { undated } : {}),
    ...(state.error ? { error: errorState(state.error, now) } : {}),
  };
}

/** An undocumented filter the service refused (400 or 404): its tab is not offered. */
export function refusedFailure(filter: ApplicantFilter): ApiFailure {
  return new ApiFailure(
    'applicants_unavailable',
    `This KYC service does not offer the "${filter}" filter: its candidates are listed under All.`,
  );
}
