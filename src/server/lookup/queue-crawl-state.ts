import { APPLICANT_FILTERS, type ApplicantFilter, type Skipped } from '../../kyc/contract/applicants.ts';
import type { ApiErrorCode } from '../../kyc/contract/api.ts';
import { API_ERRORS } from '../../kyc/contract/api-errors.ts';
import type { Idless } from '../../kyc/contract/idless.ts';
import type { ApiFailure } from '../http/api-failure.ts';

/**
 * What the crawler (queue-crawler.ts) says of each tab it reads from the service, kept in the index's
 * store (a field `tab:<filter>` per tab, JSON) so that every instance's views say how current the index
 * is. `all` is the service's unfiltered list, read only to find the candidates of a filter it refuses.
 */
export interface TabCrawl {
  /** When the crawler last finished reading the tab whole (ms). */
  asOf?: number;
  /** The read under way: when it began, the rows read, the service's total at its last page. */
  started?: number;
  read?: number;
  listed?: number;
  /** The records the last whole read left out, and why (list-record.ts). */
  skipped?: Skipped;
  /** The records the last whole read found with a status but no id, counted by status (idless.ts): a few numbers, however many. */
  idless?: Idless[];
  /**
   * The last read's failure, as the view would have answered it, and when it came (`at`, ms); `withheld`:
   * not asked, to keep identity data (crawler-full-key.ts), whatever the code says why. `retryAfterSeconds`:
   * the wait the failure named (the list's 429, or the reason of a withheld read: the key check's 429, a
   * gateway's 503), from `at`: a view of the tab not read answers with what is left of it (queue-view.ts).
   */
  error?: { code: ApiErrorCode; message: string; at: number; upstreamStatus: number | null; withheld?: true; retryAfterSeconds?: number };
  /** The service answered a page of this read 429: the next is asked at this time (ms), not after three tries. */
  limitedUntil?: number;
  /** The service does not offer this filter (an undocumented one it answered 400 or 404). */
  refused?: true;
}

export type CrawlTab = ApplicantFilter | 'all';
export const CRAWL_TABS: readonly CrawlTab[] = [...APPLICANT_FILTERS, 'all'];

export const crawlField = (tab: CrawlTab) => `tab:${tab}`;

/**
 * A view's `limited`: until when the service's list is limited (its last 429 to any tab's read, still to
 * come). The list is one operation: every tab's read waits for it, the one open or those queued behind.
 */
export function limitedState(crawl: Partial<Record<CrawlTab, TabCrawl>>, now: number): { limited?: { until: string } } {
  const until = Math.max(0, ...CRAWL_TABS.map((tab) => crawl[tab]?.limitedUntil ?? 0));
  return until > now ? { limited: { until: new Date(until).toISOString() } } : {};
}

/** The crawl state of every tab from the store's fields; a field that does not read is as if absent. */
export function readCrawlState(meta: Record<string, string>): Partial<Record<CrawlTab, TabCrawl>> {
  const state: Partial<Record<CrawlTab, TabCrawl>> = {};
  for (const tab of CRAWL_TABS) {
    const text = meta[crawlField(tab)];
    if (!text) continue;
    try {
      const value = JSON.parse(text) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value)) state[tab] = value as TabCrawl;
    } catch {
      // Written by hand or by another version: read again at the crawler's next write.
    }
  }
  return state;
}

/**
 * A read's failure as the crawler keeps it (`TabCrawl.error`): this server's sentence (ownMessage: the
 * service's own words may name a candidate), and the wait the failure named itself (the service's 429, a
 * gateway's 503, the key check's 429 said with what was left of it); not a code's fixed one
 * (archiving_check_unavailable's 5 s, "in a moment"), which the view's answer carries anyway, from the code.
 */
export function crawlError(
  failure: ApiFailure & { ownMessage: string },
  { at, upstreamStatus, withheld }: { at: number; upstreamStatus: number | null; withheld: boolean },
): NonNullable<TabCrawl['error']> {
  const wait = 'retryAfterSeconds' in API_ERRORS[failure.code] ? undefined : failure.retryAfterSeconds;
  return {
    code: failure.code,
    message: failure.ownMessage,
    at,
    upstreamStatus,
    ...(withheld ? { withheld: true as const } : {}),
    ...(wait === undefined ? {} : { retryAfterSeconds: wait }),
  };
}
