import { type ApplicantFilter, APPLICANTS_MAX_LIMIT, APPLICANTS_MAX_SKIP } from '../../kyc/contract/applicants.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { nextTurn } from '../state/next-turn.ts';
import { type CrawlPool, RETRY } from './crawler-pool.ts';
import type { ListPage } from './crawler-list.ts';

/** A tab's pages as the queue's crawler reads them (queue-crawler.ts): each tried again, the rest of the tab after its first. */

/** What reading pages takes: the service's list, and the crawl's pool and stop. */
export interface PageReading {
  fetchPage: (filter: ApplicantFilter | undefined, skip: number, signal?: AbortSignal) => Promise<ListPage>;
  pool: CrawlPool;
  signal: AbortSignal;
  /** The service answered a page 429: told at once, with when the next try goes (not after the tries ran out). */
  limited?: (until: number) => Promise<void>;
}

/** Tries of one page before the tab's read counts as failed. */
const PAGE_TRIES = 3;

type Served = Extract<ListPage, { ok: true }>;
type Failed = Extract<ListPage, { ok: false }>;

/** Where a tab's read is: the rows covered, how far its total says the list goes, and what it found on the way. */
interface Reading {
  step: number;
  covered: number;
  listed: number;
  window: number;
  previous: Served;
  /** No total, or one the pages proved low: read until a page comes back empty or short. */
  untrusted: boolean;
}

/**
 * The pages after the first, asked a window at a time (the pool paces them). A service that serves fewer
 * than asked (its largest page is not documented), or more (it ignores `limit`), is read in steps of what
 * it served. The list may grow while it is read: the pages its latest total adds are read too, a few
 * rounds at most. Its `total` is the service's word only up to APPLICANTS_MAX_SKIP, and only while the
 * pages agree: a page that goes past it (the first page larger than its total), or a full page that ends
 * at it, has the list read on as one without a total. A page that comes back empty before the total is
 * asked again once; still empty, the tab's read ends partial there (EMPTY_PAGE), not read whole:
 * ended there, 10 of 30 candidates were silently missing. A page that repeats the first page's
 * candidates (a service that ignores `skip`) stops the tab: read as told, such a list had the server
 * build millions of pages and die. A list that gives no total is read until a page comes back empty
 * (asked again, and the next row asked: a list that goes on past an empty page had a gap), shorter than
 * the others, or the same as the page before it, its windows growing from one page (1, 2, 4… 32), so
 * that a short list costs a request or two past its end, not a window; a window holds at most 3,200
 * records (WINDOW_RECORDS), however large the pages. Each window's pages are learnt in order, up to its
 * end, a turn of the event loop between them. `read` once every page was; undefined when stopped; else the first failure.
 */
export async function restOfTab(
  options: PageReading,
  filter: ApplicantFilter | undefined,
  given: Served,
  learn: (page: Served, skip: number) => Promise<void>,
): Promise<'read' | undefined | Failed> {
  const first = given.served === 0 ? await emptyFirst(options, filter, given, learn) : given;
  if (!first?.ok) return first;
  if (first.served === 0) return 'read';
  // A first page larger than its total says the total is low: the list is read as one without a total.
  const untrusted = first.total === undefined || first.served > first.total;
  const said = untrusted ? APPLICANTS_MAX_SKIP : first.total!;
  // Fewer than asked (its own largest page), or more (it ignores `limit`): in steps of what it served, so
  // that no candidate is read twice. In steps of 100, 5 000 a page were each read 50 times, for minutes.
  const step = first.served === Math.min(APPLICANTS_MAX_LIMIT, said) ? APPLICANTS_MAX_LIMIT : first.served;
  const reading: Reading = {
    step,
    covered: first.served,
    listed: Math.min(said, APPLICANTS_MAX_SKIP),
    window: untrusted ? 1 : PAGES_AT_ONCE,
    previous: first,
    untrusted,
  };
  fullAtTheEnd(reading, first, 0);
  for (let round = 0; round < 3 && reading.covered < reading.listed; round++) {
    let total = 0;
    while (reading.covered < reading.listed) {
      const window = await readWindow(options, filter, first, reading, learn);
      if (window === 'end') return 'read';
      if (typeof window !== 'number') return window;
      total = Math.max(total, window);
    }
    if (reading.untrusted) break;
    reading.listed = Math.max(reading.listed, Math.min(total, APPLICANTS_MAX_SKIP));
  }
  return 'read';
}

/** An empty first page: asked again (learnt, when it is no longer empty); the list's end, or its gap. */
async function emptyFirst(
  options: PageReading,
  filter: ApplicantFilter | undefined,
  first: Served,
  learn: (page: Served, skip: number) => Promise<void>,
): Promise<ListPage | undefined> {
  const after = await afterEmpty(options, filter, 0, first.total);
  if (after === 'end') return first;
  if (after === 'gap') return { ok: false, failure: EMPTY_PAGE, upstreamStatus: 200 };
  if (after?.ok) await learn(after, 0);
  return after;
}

/**
 * A full page that ends at or past the total the pages said: the total may be low (a service that said 10
 * and served 20): the next page is read too, and the list read on as long as pages come back.
 */
function fullAtTheEnd(reading: Reading, page: Served, skip: number): void {
  if (reading.untrusted || page.served < reading.step || skip + page.served < reading.listed) return;
  reading.listed = Math.min(skip + page.served + reading.step, APPLICANTS_MAX_SKIP);
}

/**
 * One window of pages, learnt in order: the largest total they said; 'end' at the list's end; undefined
 * when stopped; else the first failure.
 */
async function readWindow(
  options: PageReading,
  filter: ApplicantFilter | undefined,
  first: Served,
  reading: Reading,
  learn: (page: Served, skip: number) => Promise<void>,
): Promise<number | 'end' | undefined | Failed> {
  const { step } = reading;
  const skips: number[] = [];
  const pages = Math.min(reading.window, Math.max(1, Math.floor(WINDOW_RECORDS / step)));
  for (let skip = reading.covered; skip < reading.listed && skips.length < pages; skip += step) skips.push(skip);
  reading.window = Math.min(PAGES_AT_ONCE, reading.window * 2);
  const answers = await Promise.all(skips.map((skip) => pageOf(options, filter, skip)));
  if (answers.some((page) => page === undefined)) return undefined;
  const failure = answers.find((page): page is Failed => page !== undefined && !page.ok);
  if (failure) return failure;
  const read = answers as Served[];
  if (first.total !== undefined && read.some((page) => repeats(page, first.records.map(idOf)))) {
    return { ok: false, failure: SKIP_IGNORED, upstreamStatus: 200 };
  }
  for (const [index, served] of read.entries()) {
    const skip = skips[index]!;
    const page = served.served === 0 ? await emptyPage(options, filter, first.total, reading, { skip, total: served.total }) : served;
    if (page === 'gap') return { ok: false, failure: EMPTY_PAGE, upstreamStatus: 200 };
    if (page === undefined || page === 'end' || !page.ok) return page;
    if (reading.untrusted && sameAsBefore(page, reading.previous)) return 'end';
    await learn(page, skip);
    // A page a turn of the event loop at most: a window's pages were learnt in one, for seconds.
    await nextTurn();
    reading.previous = page;
    if (!reading.untrusted && skip + page.served > (page.total ?? first.total ?? 0)) untrust(reading);
    // Without a total, a page shorter than the others is the last.
    if (reading.untrusted && page.served < step) return 'end';
    fullAtTheEnd(reading, page, skip);
  }
  reading.covered = skips.at(-1)! + step;
  return Math.max(0, ...read.map((page) => page.total ?? 0));
}

/** The pages went past the total they said: it is low, and the list is read on as one without a total. */
function untrust(reading: Reading): void {
  reading.untrusted = true;
  reading.listed = APPLICANTS_MAX_SKIP;
  reading.window = 1;
}

/** An empty page of the list: asked again; the list's end, or a gap. */
async function emptyPage(
  options: PageReading,
  filter: ApplicantFilter | undefined,
  firstTotal: number | undefined,
  reading: Reading,
  empty: { skip: number; total: number | undefined },
): Promise<ListPage | 'end' | 'gap' | undefined> {
  // The empty page's own total first: a list that shrank while it was read says so there.
  const said = reading.untrusted ? undefined : (empty.total ?? firstTotal);
  return afterEmpty(options, filter, empty.skip, said);
}

/**
 * After a page that came back empty: the list's end when its total says so (`said` no more than `skip`);
 * else the page asked again once (its answer, when no longer empty); still empty, a gap when the total
 * says more, and without a total when the list goes on past it (its next row asked).
 */
async function afterEmpty(
  options: PageReading,
  filter: ApplicantFilter | undefined,
  skip: number,
  said: number | undefined,
): Promise<ListPage | 'end' | 'gap' | undefined> {
  if (said !== undefined && said <= skip) return 'end';
  const again = await pageOf(options, filter, skip);
  if (!again?.ok || again.served > 0) return again;
  if (said !== undefined) return 'gap';
  const next = await pageOf(options, filter, skip + 1);
  if (!next?.ok) return next;
  return next.served > 0 ? 'gap' : 'end';
}

/**
 * Without a total, the page before it again: a service that answers its last page for any skip past it
 * (read for ever: 100 000 requests a tab) has come to its end.
 */
function sameAsBefore(page: Served, previous: Served): boolean {
  if (page.records.length !== previous.records.length) return false;
  return page.records.every((record, index) => idOf(record) === idOf(previous.records[index]!));
}

/** Pages of a tab asked at once: the pool paces them; the window bounds what waits in it. */
const PAGES_AT_ONCE = 32;
/**
 * Records a window holds at most, however large the service's pages: 32 pages of a list that ignores
 * `limit` and serves 6,000 records a page were 192,000 records held and learnt at once (1.27 GB of heap).
 */
const WINDOW_RECORDS = PAGES_AT_ONCE * APPLICANTS_MAX_LIMIT;

/** A page that came back empty twice before the list's end: the tab is not read whole. */
const EMPTY_PAGE = new ApiFailure(
  'upstream_error',
  "The KYC service's applicants list answered an empty page before its end (twice): some candidates of this tab may be missing until a later read.",
);

const SKIP_IGNORED = new ApiFailure(
  'upstream_error',
  "The KYC service's applicants list answered another page with the candidates of its first (it does not page by skip): only the first page could be read.",
);

const idOf = (applicant: { recordId?: string | undefined; refId?: string | undefined }) =>
  `${applicant.recordId ?? ''}\n${applicant.refId ?? ''}`;

/**
 * A page that is the first page again: its candidates are the first page's first ones, in the same order.
 * Sharing candidates with the first page is not enough: a list that gained one at its head while it was
 * read moves the first page's last candidate onto the second.
 */
function repeats(page: Extract<ListPage, { ok: true }>, firstIds: readonly string[]): boolean {
  return page.records.length > 0 && page.records.every((record, index) => firstIds[index] === idOf(record));
}

/** A page, tried again on a failure of the service (not on its refusal of the filter); undefined once stopped. */
export async function pageOf(options: PageReading, filter: ApplicantFilter | undefined, skip: number): Promise<ListPage | undefined> {
  let last: ListPage | undefined;
  for (let tries = 0; tries < PAGE_TRIES; tries++) {
    last = await options.pool.run('page', async () => {
      const page = await options.fetchPage(filter, skip, options.signal);
      // Not sent (the service's wait, no slot): its turn comes again, after the wait. Told to wait: a try of its own.
      if (!page.ok && page.notAsked) return RETRY;
      if (page.ok) options.pool.answered('page');
      else if (page.upstreamStatus === 429) options.pool.limited('page');
      return page;
    });
    if (!last || last.ok || last.upstreamStatus === 400 || last.upstreamStatus === 404) return last;
    if (last.upstreamStatus === 429) await options.limited?.(options.pool.restUntil('page'));
  }
  return last;
}
