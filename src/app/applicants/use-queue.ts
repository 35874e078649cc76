import { keepPreviousData, type QueryClient, type QueryState, useIsFetching, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type ApplicantFilter, type ApplicantsPage, DOCUMENTED_FILTERS } from '../../kyc/contract/applicants.ts';
import { ApiError, asApiError } from '../api/api-error.ts';
import { useFailureDuringRetry } from '../api/failure-during-retry.ts';
import { applicantsQueries, type QueueFilters, queuePageQuery } from './applicants-queries.ts';
import { waitEnd } from './queue-limit.ts';
import { type OverSla, QUEUE_TABS, type QueueTab, tabKey, type TabCount } from './applicants-tabs.tsx';

/** A filter the service does not document, which it refused: its tab is not offered. */
function isRefusedFilter(filter: ApplicantFilter | undefined, error: unknown): boolean {
  return (
    filter !== undefined && !DOCUMENTED_FILTERS.includes(filter) && error instanceof ApiError && error.code === 'applicants_unavailable'
  );
}

/**
 * The newest view of the queue in this environment that has the tabs' counts: the tabs keep saying what
 * they said while another tab's view loads, rather than all going back to "…".
 */
function latestView(queryClient: QueryClient, environment: string | undefined): ApplicantsPage | undefined {
  const views = queryClient
    .getQueryCache()
    .findAll({ queryKey: applicantsQueries.environment(environment) })
    .filter((query) => (query.state.data as ApplicantsPage | undefined)?.counts !== undefined)
    .sort((a, b) => b.state.dataUpdatedAt - a.state.dataUpdatedAt);
  return views[0]?.state.data as ApplicantsPage | undefined;
}

/**
 * How long after the service's wait the view is asked again: the crawler's read that follows the wait has
 * begun by then, so the view says "still reading" or has the rows, not the wait again.
 */
const AFTER_WAIT_MS = 2_000;
/** The longest wait a view is held to before it is asked again (the service's waits are capped at 300 s: service-wait.ts). */
const MAX_WAIT_MS = 5 * 60_000;

/** How often the view is asked again while the list is still being read (each time one queue view, one audit line). */
const CRAWL_POLL_MS = 3_000;

/**
 * While the index is still reading the service's list (`index.crawling`), the view is asked again every
 * few seconds, so that a tab with none read yet fills in without a Refresh (TanStack Query's interval,
 * paused while the page is hidden, ended with the page). Not while a service wait runs (its end asks
 * again: below), not for a list not read at all (`withheld`: nothing comes of asking), not after a view
 * failed (its Try again), and never once the list has been read whole.
 */
function whileCrawling({ state }: { state: QueryState<ApplicantsPage> }): number | false {
  const index = state.data?.index;
  if (state.status === 'error' || !index?.crawling || index.error?.withheld) return false;
  return waitEnd(index, Date.now()) === undefined ? CRAWL_POLL_MS : false;
}

/** Two pages of the same list (environment, tab and filters), which may differ in their page only. */
function samePaging(a: readonly unknown[] | undefined, b: ReturnType<typeof queuePageQuery>['queryKey']): boolean {
  if (!a) return false;
  const [, environment, tab, options] = a as typeof b;
  return environment === b[1] && tab === b[2] && options?.overSla === b[3].overSla && options?.attention === b[3].attention;
}

/**
 * One page of one tab with every tab's count, SLA count and the filters the service refused, in one
 * request (`counts=1`: one rate-limit token, one audit line per view); the tabs offered, whether anything
 * is being fetched, and a refresh of it.
 */
export function useQueue(filter: ApplicantFilter | undefined, page: number, environment: string | undefined, filters: QueueFilters = {}) {
  const queryClient = useQueryClient();
  const options = queuePageQuery(filter, page, environment, filters);
  const list = useQuery({
    ...options,
    // Moving between pages of one tab (same environment, same filters) keeps the rows in place until the next page arrives.
    placeholderData: (previous, previousQuery) =>
      samePaging(previousQuery?.queryKey, options.queryKey) ? keepPreviousData(previous) : undefined,
    refetchInterval: whileCrawling,
  });
  const failedBefore = useFailureDuringRetry(list, JSON.stringify(options.queryKey));
  const fetching = useIsFetching({ queryKey: applicantsQueries.all() }) > 0;
  const current = list.data && !list.isPlaceholderData ? list.data : undefined;
  const view = list.data?.counts ? list.data : latestView(queryClient, environment);
  // The service's wait ends: the crawler reads the list again, and the page asks for the view again.
  const ends = waitEnd(current?.index, Date.now());
  const { refetch } = list;
  useEffect(() => {
    if (ends === undefined) return;
    const timer = setTimeout(() => void refetch(), Math.min(ends - Date.now(), MAX_WAIT_MS) + AFTER_WAIT_MS);
    return () => clearTimeout(timer);
  }, [ends, refetch]);

  const counts: Record<string, TabCount> = {};
  const overSla: Record<string, OverSla | undefined> = {};
  for (const tab of QUEUE_TABS) {
    const key = tabKey(tab.filter);
    const failed = list.isError && tab.filter === filter;
    counts[key] = failed ? 'unavailable' : view ? (view.counts?.[key] ?? 'unavailable') : list.isError ? 'unavailable' : 'loading';
    const over = failed ? undefined : view?.overSlaByTab?.[key];
    overSla[key] = over === undefined ? undefined : { count: over, partial: view?.overSlaPartialTabs?.includes(key) === true };
  }
  const refusedFilters = new Set<ApplicantFilter | undefined>(view?.refused ?? []);
  if (isRefusedFilter(filter, list.error)) refusedFilters.add(filter);
  const refused: QueueTab[] = QUEUE_TABS.filter((tab) => refusedFilters.has(tab.filter));
  // Opened at a filter the service refuses (an old link): the view answers the other tabs, and says so.
  const openedRefused = filter !== undefined && current?.refused?.includes(filter);

  return {
    list,
    /** The page shown, unless it is the previous one kept while the next loads. */
    current,
    counts,
    overSla,
    /** The tabs offered: every one but those the service refused (the one open stays, to say why it is empty). */
    tabs: QUEUE_TABS.filter((tab) => tab.filter === filter || !refused.includes(tab)),
    /** The filters the service refused, in the tabs' order. */
    refused,
    error:
      list.isError || failedBefore
        ? asApiError(list.error ?? failedBefore, 'The list could not be read.')
        : openedRefused
          ? new ApiError(
              'applicants_unavailable',
              `This KYC service does not offer the "${filter}" filter: its candidates are listed under All.`,
            )
          : undefined,
    fetching,
    refresh: () => void queryClient.invalidateQueries({ queryKey: applicantsQueries.all() }),
  };
}
