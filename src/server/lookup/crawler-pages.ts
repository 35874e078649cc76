import { type ApplicantFilter, APPLICANTS_MAX_LIMIT, APPLICANTS_MAX_SKIP } from '../../kyc/contract/applicants.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { type CrawlPool, RETRY } from './crawler-pool.ts';
import type { ListPage } from './crawler-list.ts';

/** A tab's pages as the queue's crawler reads them (queue-crawler.ts): each tried again, the rest of the tab after its first. */

/** What reading pages takes: the service's list, and the crawl's pool and stop. */
export interface PageReading {
  fetchPage: (filter: ApplicantFilter | undefined, skip: number, signal?: AbortSignal) => Promise<ListPage>;
  pool: CrawlPool;
  signal: AbortSignal;
}

/** Tries of one page before the tab's read counts as failed. */
const PAGE_TRIES = 3;

/**
 * The pages after the first, asked a window at a time (the pool paces them). A service that serves fewer
 * than asked (its largest page is not documented), or more (it ignores `limit`), is read in steps of what
 * it served. The list may grow
 * while it is read: the pages its latest total adds are read too, a few rounds at most. Its `total` is
 * the service's word only up to APPLICANTS_MAX_SKIP, a page that comes back empty ends the list whatever
 * the total said, and a page that repeats the first page's candidates (a service that ignores `skip`)
 * stops the tab: read as told, such a list had the server build millions of pages and die. A list that
 * gives no total is read until a page comes back empty, shorter than the others, or the same as the page
 * before it, its windows growing from one page (1, 2, 4… 32), so that a short list costs a request or two
 * past its end, not a window. Each window's pages are learnt in order, up to its end. `read` once every
 * page was; undefined when stopped; else the first failure.
 */
export async function restOfTab(
  options: PageReading,
  filter: ApplicantFilter | undefined,
  first: Extract<ListPage, { ok: true }>,
  learn: (page: Extract<ListPage, { ok: true }>, skip: number) => Promise<void>,
): Promise<'read' | undefined | Extract<ListPage, { ok: false }>> {
  if (first.served === 0) return 'read';
  const said = first.total ?? APPLICANTS_MAX_SKIP;
  // Fewer than asked (its own largest page), or more (it ignores `limit`): in steps of what it served, so
  // that no candidate is read twice. In steps of 100, 5 000 a page were each read 50 times, for minutes.
  const step =
    first.served < Math.min(APPLICANTS_MAX_LIMIT, said) || first.served > APPLICANTS_MAX_LIMIT ? first.served : APPLICANTS_MAX_LIMIT;
  const firstIds = first.records.map(idOf);
  let covered = first.served;
  let listed = Math.min(said, APPLICANTS_MAX_SKIP);
  let window = first.total === undefined ? 1 : PAGES_AT_ONCE;
  let previous = first;
  for (let round = 0; round < 3 && covered < listed; round++) {
    let total = 0;
    while (covered < listed) {
      const skips: number[] = [];
      for (let skip = covered; skip < listed && skips.length < window; skip += step) skips.push(skip);
      window = Math.min(PAGES_AT_ONCE, window * 2);
      const pages = await Promise.all(skips.map((skip) => pageOf(options, filter, skip)));
      if (pages.some((page) => page === undefined)) return undefined;
      const failure = pages.find((page): page is Extract<ListPage, { ok: false }> => page !== undefined && !page.ok);
      if (failure) return failure;
      const read = pages as Array<Extract<ListPage, { ok: true }>>;
      if (first.total !== undefined && read.some((page) => repeats(page, firstIds)))
        return { ok: false, failure: SKIP_IGNORED, upstreamStatus: 200 };
      for (const [index, page] of read.entries()) {
        if (pastTheEnd(page, previous, first.total === undefined)) return 'read';
        await learn(page, skips[index]!);
        previous = page;
        // Without a total, a page shorter than the others is the last.
        if (first.total === undefined && page.served < step) return 'read';
      }
      covered = skips.at(-1)! + step;
      total = Math.max(total, ...read.map((page) => page.total ?? 0));
    }
    listed = Math.min(total, APPLICANTS_MAX_SKIP);
  }
  return 'read';
}

/**
 * Past the list's end: a page that came back empty (the list shorter than its total said, or shrunk while
 * read); without a total, also the page before it again (a service that answers its last page for any
 * skip past it, which was read for ever: 100 000 requests a tab).
 */
function pastTheEnd(page: Extract<ListPage, { ok: true }>, previous: Extract<ListPage, { ok: true }>, noTotal: boolean): boolean {
  if (page.served === 0) return true;
  if (!noTotal || page.records.length !== previous.records.length) return false;
  return page.records.every((record, index) => idOf(record) === idOf(previous.records[index]!));
}

/** Pages of a tab asked at once: the pool paces them; the window bounds what waits in it. */
const PAGES_AT_ONCE = 32;

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
  }
  return last;
}
