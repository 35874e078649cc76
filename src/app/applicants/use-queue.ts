import { keepPreviousData, useIsFetching, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { APPLICANTS_PAGE_SIZE, type ApplicantFilter, DOCUMENTED_FILTERS } from '../../kyc/contract/applicants.ts';
import { ApiError, asApiError } from '../api/api-error.ts';
import { applicantsQueries } from './applicants-queries.ts';
import { QUEUE_TABS, type QueueTab, tabKey, type TabCount } from './applicants-tabs.tsx';

/** A filter the service does not document, which it refused: its tab is not offered. */
function isRefusedFilter(filter: ApplicantFilter | undefined, error: unknown): boolean {
  return (
    filter !== undefined && !DOCUMENTED_FILTERS.includes(filter) && error instanceof ApiError && error.code === 'applicants_unavailable'
  );
}

/**
 * One page of one tab, the other tabs' counts and SLA counts (the `total` and `overSla` of a one-record
 * page each), the tabs the service offers, whether anything is being fetched, and a refresh of all of it.
 */
export function useQueue(filter: ApplicantFilter | undefined, page: number, environment: string | undefined) {
  const queryClient = useQueryClient();
  const list = useQuery({
    ...applicantsQueries.page({ status: filter, skip: (page - 1) * APPLICANTS_PAGE_SIZE, limit: APPLICANTS_PAGE_SIZE }, environment),
    // Moving between pages of one tab keeps the rows in place until the next page arrives.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === tabKey(filter) ? keepPreviousData(previous) : undefined),
  });
  const others = QUEUE_TABS.filter((tab) => tab.filter !== filter);
  const countQueries = useQueries({
    queries: others.map((tab) => applicantsQueries.page({ status: tab.filter, skip: 0, limit: 1 }, environment)),
  });
  const fetching = useIsFetching({ queryKey: applicantsQueries.all() }) > 0;

  const counts: Record<string, TabCount> = {};
  const overSla: Record<string, number | undefined> = {};
  const refused: QueueTab[] = [];
  others.forEach((tab, index) => {
    const count = countQueries[index]!;
    if (isRefusedFilter(tab.filter, count.error)) refused.push(tab);
    counts[tabKey(tab.filter)] = count.data ? count.data.total : count.isError ? 'unavailable' : 'loading';
    overSla[tabKey(tab.filter)] = count.data?.overSla;
  });
  const current = list.data && !list.isPlaceholderData ? list.data : undefined;
  counts[tabKey(filter)] = current ? current.total : list.isError ? 'unavailable' : 'loading';
  overSla[tabKey(filter)] = current?.overSla;
  if (isRefusedFilter(filter, list.error)) refused.push(QUEUE_TABS.find((tab) => tab.filter === filter)!);

  return {
    list,
    /** The page shown, unless it is the previous one kept while the next loads. */
    current,
    counts,
    overSla,
    /** The tabs offered: every one but those the service refused (the one open stays, to say why it is empty). */
    tabs: QUEUE_TABS.filter((tab) => tab.filter === filter || !refused.includes(tab)),
    /** The filters the service refused, in the tabs' order. */
    refused: QUEUE_TABS.filter((tab) => refused.includes(tab)),
    error: list.isError ? asApiError(list.error, 'The list could not be read.') : undefined,
    fetching,
    refresh: () => void queryClient.invalidateQueries({ queryKey: applicantsQueries.all() }),
  };
}
