import { useId } from 'react';
import { Link } from '../navigation.tsx';
import { RetryButton, SaidWait, ServerWait, saysItsWait } from '../candidate/retry-wait.tsx';
import { buttonClass } from '../ui/button.tsx';
import { Card } from '../ui/card.tsx';
import { ScrollRegion } from '../ui/scroll-region.tsx';
import type { ApiError, ErrorCode } from '../api/api-error.ts';
import { errorTitle } from '../api/error-titles.ts';
import type { ApplicantFilter, QueueIndexState, QueueOrder, QueueTabKey } from '../../kyc/contract/applicants.ts';
import { queueRereadMs } from '../../kyc/contract/queue-reread.ts';
import { isUndatedStatus, statusInfo, UNDATED_STATUSES } from '../../kyc/contract/status.ts';
import { formatAge } from '../../kyc/view/time.ts';
import { listLimitText, waitText } from './queue-limit.ts';
import { useNow } from '../ui/use-now.ts';
import { useZoneMode } from '../ui/zone-mode.ts';
import type { QueueTab } from './applicants-tabs.tsx';

/**
 * Where the list needs other words than a lookup's (error-titles.ts): it is a list, not a response, and
 * a request, not a lookup. Every other code is titled as the contract and the browser title it.
 */
const LIST_TITLES: Partial<Record<ErrorCode, string>> = {
  rate_limited: 'Too many requests',
  audit_unavailable: 'This request could not be recorded',
  response_too_large: 'The list is too large',
  not_json: 'The list is not readable',
  not_a_record: 'The list is not readable',
  malformed: 'The list has an unexpected shape',
  // The crawler's, without a status-level key: the list would be read with the full key (crawler-list.ts).
  archiving_key: 'The list is not read: this API key deletes identity data',
  archiving_check_unavailable: 'The list is held back until the API key is known to keep identity data',
};

/** While the first page loads. */
export function QueueSkeleton() {
  return (
    <div className="space-y-3" aria-busy="true">
      <p role="status" className="text-sm font-medium text-slate-700">
        Loading the applicants…
      </p>
      <div className="h-48 animate-pulse rounded-xl bg-slate-200" aria-hidden="true" />
    </div>
  );
}

/** The service away or slow: the title says that much, the body what to do. */
const SERVICE_AWAY = new Set(['upstream_unreachable', 'upstream_timeout']);
const QUEUE_SERVICE_AWAY_NEXT =
  'This is between Candidate Lookup and the KYC service, and usually passes within minutes. Try again shortly; if it lasts, tell whoever runs Candidate Lookup.';

const WAIT_OVER = 'The wait is over: Try again reads the list again.';

/**
 * What went wrong fetching a page, with a way to try again, like the candidate page's errors: a refusal
 * that said when to ask again ("Try again in 46 s.") counts it down and holds Try again until then, as
 * the candidate page does (retry-wait.tsx); one that asked for a wait without saying it in words
 * (`Retry-After` only) says it the same way ("Try again in 5 s, at 14:02:31 UTC."), rather than holding
 * the button with no word of why. While a read is under way, the line beside Try again says so.
 */
export function QueueError({ error, onRetry, retrying }: { error: ApiError; onRetry: () => void; retrying: boolean }) {
  const waitId = useId();
  const unsaid = error.retryAt !== undefined && !saysItsWait(error);
  return (
    <Card role="alert" tone="danger" className="space-y-3" data-error-kind={error.code}>
      <h2 className="text-lg font-semibold">{LIST_TITLES[error.code] ?? errorTitle(error.code)}</h2>
      <p className="text-sm break-words">
        <ServerWait error={error} id={unsaid ? undefined : waitId} over={WAIT_OVER} />
        {SERVICE_AWAY.has(error.code) && ` ${QUEUE_SERVICE_AWAY_NEXT}`}
        {unsaid && (
          <>
            {' '}
            <SaidWait error={error} over={WAIT_OVER} id={waitId} />
          </>
        )}
      </p>
      {error.detail && (
        <ScrollRegion label="What was wrong" className="max-h-48 rounded bg-white/70 p-2 text-xs">
          <pre className="break-all whitespace-pre-wrap">{error.detail}</pre>
        </ScrollRegion>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <RetryButton onRetry={onRetry} retrying={retrying} retryAt={error.retryAt} describedBy={waitId}>
          Try again
        </RetryButton>
        <span aria-live="polite" className="text-sm" data-testid="queue-retrying">
          {retrying && 'Reading the list…'}
        </span>
      </div>
    </Card>
  );
}

/** The service has no list operation: not an error, a fact about this service. */
export function QueueNotOffered({ homeHref }: { homeHref: string }) {
  return (
    <Card role="note" tone="info" className="space-y-2" data-testid="queue-not-offered">
      <h2 className="text-lg font-semibold">This KYC service does not offer the applicants list</h2>
      <p className="text-sm">
        It answered that the list operation does not exist. Candidates can still be looked up one at a time by refId or recordId.
      </p>
      <Link to={homeHref} className={buttonClass({ variant: 'secondary' })}>
        Look a candidate up
      </Link>
    </Card>
  );
}

/**
 * How the tab is ordered: by the date each candidate entered its status, across the whole tab (oldest
 * first; the decisions' newest first; All status by status), "340 of 1,000 known" while dates are looked
 * up (the others follow in the order the service listed them), or the service's order (servers before
 * the queue index, issue 32).
 */
export function QueueOrderNote({
  order,
  filter,
  undated,
}: {
  order: QueueOrder | undefined;
  filter: ApplicantFilter | undefined;
  /** The rows of a status the service never dates (incomplete) on this tab. */
  undated: number | undefined;
}) {
  if (!order) return null;
  let text: string;
  if (filter && isUndatedStatus(filter)) {
    text = `In the KYC service's order: the service gives no date for ${statusInfo(filter).label}, so there is no age to order by.`;
  } else if (order.by === 'service') {
    text = !order.over
      ? "In the KYC service's order."
      : `In the KYC service's order: this tab has more than ${order.over.toLocaleString()} candidates, too many to order by age.`;
  } else {
    text = ageOrderText(order);
    // All: Incomplete rows stand last, undated, and are not among the rows "known" counts.
    if (order.byStatus && undated) text += ` ${undatedRows(undated)}, which the service does not date, comes last, in its order.`;
  }
  return (
    <p className="text-sm text-slate-700" data-testid="queue-order" data-order={order.by}>
      {text}
    </p>
  );
}

/**
 * "Ordered by age: 5 of 9 known, oldest first; 1 is dated in the future…; 2 have no date in the service's
 * record…; the other 1 follows … while its date is looked up": the rows without a real date said apart by
 * why, and none said to be looked up when none is.
 */
function ageOrderText(order: Extract<QueueOrder, { by: 'age' }>): string {
  const direction = order.newestFirst ? 'newest first' : 'oldest first';
  const lead = order.byStatus ? "By status, in the tabs' order, each by age" : order.newestFirst ? 'Ordered by date' : 'Ordered by age';
  if (order.known >= order.of) return `${lead}: ${order.byStatus ? 'the waits oldest first, the decisions newest first' : direction}.`;
  const { noDate = 0, future = 0 } = order;
  const pending = order.of - order.known - noDate - future;
  const one = (count: number, singular: string, plural: string) => `${count.toLocaleString()} ${count === 1 ? singular : plural}`;
  const parts = [`${lead}: ${order.known.toLocaleString()} of ${order.of.toLocaleString()} known, ${direction}`];
  if (future > 0) parts.push(`${one(future, 'is', 'are')} dated in the future (doubtful), placed by that date`);
  if (noDate > 0) {
    parts.push(
      `${one(noDate, 'has', 'have')} no date in the service's record (none, or a placeholder), in the order the KYC service listed ${noDate === 1 ? 'it' : 'them'}`,
    );
  }
  if (pending <= 0) parts.push('no date is waiting to be looked up');
  else if (noDate + future === 0) parts.push('the others follow in the order the KYC service listed them while their dates are looked up');
  else
    parts.push(
      `the other ${one(pending, 'follows', 'follow')} in the order the KYC service listed them while ${pending === 1 ? 'its date is' : 'their dates are'} looked up`,
    );
  return `${parts.join('; ')}.`;
}

/** "Incomplete (1 row)": the rows of the statuses the service never dates. */
function undatedRows(count: number): string {
  const labels = UNDATED_STATUSES.map((status) => statusInfo(status).label).join(' or ');
  return `${labels} (${count.toLocaleString()} ${count === 1 ? 'row' : 'rows'})`;
}

/**
 * How current the queue is (issue 32): it is read from this server's index of the service's list, not
 * from the service at each view. "As of 40 s ago" (the last whole read of the list; webhooks, where the
 * environment has them (`live`), and lookups keep it current between, and the list is read again every minute), how many rows are dated; while the list was never read whole, that it is
 * still being read and what is shown is what is known so far; the last read's failure, if any.
 */
export function QueueFreshness({
  index,
  fetchedAt,
  live,
  tab,
}: {
  index: QueueIndexState | undefined;
  fetchedAt: number;
  live: boolean;
  tab: QueueTabKey;
}) {
  const now = useNow();
  const zone = useZoneMode();
  if (!index) return null;
  const limitText = listLimitText(index, zone, now);
  // A tab of a status the service never dates has no date to look up (its order note says so); All's count
  // leaves those rows out, and says how many, so that "14 of 14 dated" beside 15 rows is no miscount.
  const datedText = `${index.dated.toLocaleString()} of ${index.of.toLocaleString()} dated${index.undated ? `; ${undatedRows(index.undated)} not dated by the service` : ''}`;
  // An empty tab has nothing to date: "0 of 0 dated" said nothing.
  const dated = isUndatedStatus(tab) || index.of === 0 ? undefined : datedText;
  let text: string;
  if (index.crawling && index.error?.withheld) {
    text = `Not read from the KYC service: what lookups made here told the queue is shown${dated ? `, ${dated}` : ''}.`;
  } else if (index.crawling) {
    const read =
      index.read !== undefined && index.listed ? ` (${index.read.toLocaleString()} of ${index.listed.toLocaleString()} read)` : '';
    text = `Still reading this list from the KYC service${read}: what is known so far is shown${dated ? `, ${dated}` : ''}; the order is not final yet.`;
  } else {
    const age = Date.parse(index.at) - Date.parse(index.asOf ?? index.at) + Math.max(0, now.getTime() - fetchedAt);
    // Without webhooks nothing tells the index of a change at the service but the next read and lookups made here.
    const since = live
      ? 'kept current since by live updates'
      : `read again every ${everyText(queueRereadMs(tab))} (live updates are off: a change at the service shows at the next read, or when its candidate is looked up here)`;
    text = `List read from the KYC service ${formatAge(age)} ago, ${since}${dated ? `; ${dated}` : ''}.`;
  }
  return (
    <p className="text-xs text-slate-600" data-testid="queue-freshness" data-crawling={index.crawling ? 'true' : undefined}>
      {text}
      {limitText && <span className="text-amber-900"> {limitText}</span>}
      {index.error && (
        <span className="text-amber-900">
          {index.error.withheld ? ' ' : ' The last read of the list failed: '}
          {index.error.message}
          {index.error.until && !limitText && Date.parse(index.error.until) > now.getTime() && ` ${waitText(index.error.until, zone)}`}
        </span>
      )}
    </p>
  );
}

/** The filters the service refused: their tabs are not offered, and the page says so. */
export function RefusedFiltersNote({ refused }: { refused: readonly QueueTab[] }) {
  if (refused.length === 0) return null;
  const names = refused.map((tab) => tab.label);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return (
    <p role="note" className="text-sm text-slate-600" data-testid="refused-filters">
      This KYC service does not offer the {list} {names.length === 1 ? 'filter' : 'filters'}: those candidates are listed under All.
    </p>
  );
}

/** "minute", "15 minutes": how often, in words. */
function everyText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return minutes === 1 ? 'minute' : `${minutes} minutes`;
}
