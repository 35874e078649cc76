import { keepPreviousData, useIsFetching, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { APPLICANTS_PAGE_SIZE, type ApplicantFilter } from '../../kyc/contract/applicants.ts';
import { asApiError } from '../api/api-error.ts';
import { applicantsQueries } from './applicants-queries.ts';
import { QUEUE_TABS, tabKey, type TabCount } from './applicants-tabs.tsx';

/**
 * One page of one tab, the other tabs' counts (the `total` of a one-record page each), whether anything
 * is being fetched, and a refresh of all of it.
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
  others.forEach((tab, index) => {
    const count = countQueries[index]!;
    counts[tabKey(tab.filter)] = count.data ? count.data.total : count.isError ? 'unavailable' : 'loading';
  });
  const current = list.data && !list.isPlaceholderData ? list.data : undefined;
  counts[tabKey(filter)] = current ? current.total : list.isError ? 'unavailable' : 'loading';

  return {
    list,
    /** The page shown, unless it is the previous one kept while the next loads. */
    current,
    counts,
    error: list.isError ? asApiError(list.error, 'The list could not be read.') : undefined,
    fetching,
    refresh: () => void queryClient.invalidateQueries({ queryKey: applicantsQueries.all() }),
  };
}
