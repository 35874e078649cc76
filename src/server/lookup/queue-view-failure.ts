import { ApiFailure } from '../http/api-failure.ts';
import { secondsLeft } from '../http/wait-left.ts';
import { stillWaiting, withoutWhen } from '../upstream/service-wait.ts';
import type { QueueIndexState } from '../../kyc/contract/applicants.ts';
import type { TabCrawl } from './queue-crawl-state.ts';

/**
 * A tab not read yet, and empty: the crawler's failure answered. While a wait it named runs (the list's
 * 429, or a withheld read's reason: the key check's 429), with what is left of it, counted from when the
 * crawler met it (`Retry-After` and `retryAfterSeconds`, sent as every failure's are: http-reply.ts), and
 * a 429 in the words a lookup refused during the service's wait gets (stillWaiting: nothing was sent, the
 * seconds left), never the wait the crawler was told back then. Past the wait, what the crawler was told,
 * said in the past, its wait over (waitOver), without a Retry-After.
 */
export function unreadTab(error: NonNullable<TabCrawl['error']>, now: number): ApiFailure {
  const { code, message, retryAfterSeconds } = error;
  if (retryAfterSeconds === undefined) return new ApiFailure(code, message);
  const left = secondsLeft({ seconds: retryAfterSeconds, at: error.at }, now);
  if (left === 0) return waitOver(error);
  if (code === 'upstream_rate_limited') return stillWaiting(left);
  return new ApiFailure(code, message, { retryAfterSeconds: left });
}

/**
 * A failure whose wait has passed, and the tab still unread: its "Try again in 30 s." would be false now,
 * and a Try again pressed on it finds the crawler's next read under way or due (it asks again once a
 * stated wait is over: queue-crawler.ts). A 429 said in the past; any other keeps its words, the wait
 * they name said to be over. A read withheld to keep identity data promises no read: past the wait the
 * crawler asks the key check again, and the list is read only once a lookup has shown the key safe.
 */
function waitOver({ code, message, withheld }: NonNullable<TabCrawl['error']>): ApiFailure {
  const next = withheld ? '' : ': the list is read again shortly';
  if (code === 'upstream_rate_limited')
    return new ApiFailure(
      code,
      `The KYC service was limiting requests (HTTP 429) when this list was last ${withheld ? 'to be read' : 'read'}. The wait it asked for is over${next}.`,
    );
  return new ApiFailure(code, `${message} That wait is over${next}.`);
}

/**
 * The crawler's last failure as the page is told it beside a tab's rows: withheld when the list was not asked,
 * to keep identity data (crawler-full-key.ts). A wait it named is said as the unread tab says it (unreadTab),
 * never in the seconds the crawler was told back then: while it runs, `until` its end (the page says when
 * the list is read again; not for a withheld read, which is not read then either: crawler-full-key.ts) and a
 * 429's words without their "Try again in 30 s."; once it is over, in the past.
 */
export function errorState(error: NonNullable<TabCrawl['error']>, now: number): NonNullable<QueueIndexState['error']> {
  const withheld = error.withheld === true || error.code === 'archiving_key' || error.code === 'archiving_check_unavailable';
  const marks = { at: new Date(error.at).toISOString(), ...(withheld ? { withheld: true as const } : {}) };
  const { retryAfterSeconds } = error;
  if (retryAfterSeconds === undefined) return { message: error.message, ...marks };
  if (secondsLeft({ seconds: retryAfterSeconds, at: error.at }, now) === 0) return { message: waitOver(error).message, ...marks };
  const message = error.code === 'upstream_rate_limited' ? withoutWhen(error.message) : error.message;
  return { message, ...marks, ...(withheld ? {} : { until: new Date(error.at + retryAfterSeconds * 1000).toISOString() }) };
}
