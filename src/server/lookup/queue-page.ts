import {
  AGE_ORDERED_FILTERS,
  APPLICANTS_MAX_LIMIT,
  type Applicant,
  type ApplicantsQuery,
  type QueueOrder,
  type Skipped,
} from '../../kyc/contract/applicants.ts';
import { joinSkipped } from '../../kyc/contract/list-record.ts';
import type { ApiFailure } from '../http/api-failure.ts';
import type { QueueFiller } from './queue-filler.ts';
import type { QueueIndex } from '../state/queue-index.ts';
import { distinct, orderByAge, overSlaCount, withSince } from './queue-order.ts';
import { queueKeysOf } from '../state/queue-index.ts';

/** A page of the list as the route answers it, with how it is ordered and the SLA. */
export type Page = {
  records: Applicant[];
  total: number;
  upstreamStatus: number;
  order?: QueueOrder;
  slaHours?: number;
  overSla?: number;
  /** `overSla` counts only the dates known: the true count may be higher. */
  overSlaPartial?: true;
  /** The service's records that could not be read (list-record.ts), left out of `records`. */
  skipped?: Skipped;
};
export type Fetched = { ok: true; page: Page } | { ok: false; failure: ApiFailure; upstreamStatus: number | null };
/** One request to the service's list, as asked. */
export type FetchOnce = (query: ApplicantsQuery) => Promise<Fetched>;

/** What an environment's queue is served with. */
export interface ApplicantsQueue {
  index: QueueIndex;
  filler: QueueFiller;
  /** A status with more candidates than this is shown in the service's order. */
  indexMax: number;
  /** Rows waiting longer are over the SLA (none: no SLA). */
  slaHours: number | undefined;
  now?: () => number;
}

/**
 * A page of the queue: for a status reviewers work through (waiting, in review, review requested) with at
 * most `indexMax` candidates, the whole list is fetched, ordered by age with the index's dates, and the
 * page cut from that one order; otherwise the service's page, with the dates the index knows. A record's
 * own date (a whole record's `<status>Date`) comes first. Either way, the rows without a known date are
 * handed to the filler.
 */
export async function queuePage(
  environment: string,
  queue: ApplicantsQueue,
  query: ApplicantsQuery,
  fetchOnce: FetchOnce,
  fetchPage: (query: ApplicantsQuery) => Promise<Fetched>,
): Promise<Fetched> {
  const sla: Pick<Page, 'slaHours'> = queue.slaHours === undefined ? {} : { slaHours: queue.slaHours };
  if (!query.status || !AGE_ORDERED_FILTERS.includes(query.status)) {
    const fetched = await fetchPage(query);
    if (!fetched.ok) return fetched;
    return { ok: true, page: { ...fetched.page, records: await dated(environment, queue, fetched.page.records), ...sla } };
  }
  const first = await fetchOnce({ status: query.status, skip: 0, limit: APPLICANTS_MAX_LIMIT });
  if (!first.ok) return first;
  if (first.page.total > queue.indexMax) {
    const fetched = await fetchPage(query);
    if (!fetched.ok) return fetched;
    // Too many to read whole: the SLA count is of the rows read (the first hundred and this page), at least that many.
    const read = await dated(environment, queue, [...first.page.records, ...fetched.page.records]);
    const records = read.slice(first.page.records.length);
    const over = overSla(queue, distinct(read), fetched.page.total);
    return { ok: true, page: { ...fetched.page, records, order: { by: 'service', over: queue.indexMax }, ...sla, ...over } };
  }
  const whole = await wholeList(first.page, query, queue.indexMax, fetchOnce);
  if (!whole.ok) return whole;
  // Read over several asks, a list that moved may show a candidate twice: once is enough to order and count.
  const records = orderByAge(await dated(environment, queue, distinct(whole.page.records)));
  const known = records.filter((record) => record.since !== undefined).length;
  const page: Page = {
    records: records.slice(query.skip, query.skip + query.limit),
    total: whole.page.total,
    upstreamStatus: whole.page.upstreamStatus,
    order: { by: 'age', known, of: records.length },
    ...sla,
    ...overSla(queue, records, Math.max(records.length, whole.page.total)),
    ...(whole.page.skipped ? { skipped: whole.page.skipped } : {}),
  };
  return { ok: true, page };
}

/** How many of `records` are over the SLA; partial while fewer than `total` dates are known. */
function overSla(queue: ApplicantsQueue, records: readonly Applicant[], total: number): Pick<Page, 'overSla' | 'overSlaPartial'> {
  if (queue.slaHours === undefined) return {};
  const count = overSlaCount(records, queue.slaHours, (queue.now ?? Date.now)());
  const known = records.filter((record) => record.since !== undefined).length;
  return known < total ? { overSla: count, overSlaPartial: true } : { overSla: count };
}

/** The rest of the list after its first page, a page of the service's largest at a time. */
async function wholeList(first: Page, query: ApplicantsQuery, indexMax: number, fetchOnce: FetchOnce): Promise<Fetched> {
  const records = [...first.records];
  let { total, upstreamStatus, skipped } = first;
  // The records the service served, those left out unread too: the next ask starts after them.
  let served = records.length + (skipped?.count ?? 0);
  // The list may grow while it is read: never more asks than the index's bound needs, and a few more.
  const maxAsks = Math.ceil(indexMax / APPLICANTS_MAX_LIMIT) + 2;
  for (let asks = 1; served < total && asks < maxAsks; asks++) {
    const part = await fetchOnce({ status: query.status, skip: served, limit: APPLICANTS_MAX_LIMIT });
    if (!part.ok) return part;
    const count = part.page.records.length + (part.page.skipped?.count ?? 0);
    if (count === 0) break;
    records.push(...part.page.records);
    skipped = joinSkipped(skipped, part.page.skipped);
    served += count;
    ({ total, upstreamStatus } = part.page);
  }
  return { ok: true, page: { records, total, upstreamStatus, ...(skipped ? { skipped } : {}) } };
}

/**
 * The records with their dates: their own, else the index's; those without one go to the filler, by
 * their key. The index unreachable: only their own dates.
 */
async function dated(environment: string, queue: ApplicantsQueue, records: Applicant[]): Promise<Applicant[]> {
  const since = await queue.index.learnList(environment, records).catch(() => new Map<string, string>());
  const result = withSince(records, since);
  queue.filler.want(result.flatMap((record) => (record.since === undefined ? queueKeysOf(record).slice(0, 1) : [])));
  return result;
}
