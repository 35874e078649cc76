import { APPLICANTS_KEY } from './queue-key.ts';
import { queryOptions } from '@tanstack/react-query';
import {
  APPLICANTS_PAGE_SIZE,
  type ApplicantFilter,
  applicantsApiPath,
  applicantsPageSchema,
  type ApplicantsPage,
  type ApplicantsQuery,
  isApplicantFilter,
  type QueueTabKey,
  queueTabKey,
} from '../../kyc/contract/applicants.ts';
import { ApiError } from '../api/api-error.ts';
import { apiRequest } from '../api/api-request.ts';

/**
 * One page of the applicants list through the proxy. Status-level data only, but still ids: never kept
 * in the HTTP cache, and dropped from memory soon after no page shows it.
 */
export async function fetchApplicants(
  query: ApplicantsQuery,
  environment: string | undefined,
  signal?: AbortSignal,
): Promise<ApplicantsPage> {
  const answer = await apiRequest(applicantsApiPath(query, environment), applicantsPageSchema, { signal, cache: 'no-store' });
  return answer.data;
}

/** What a page of the queue is a window of: its tab and its filters (`overSla=1`, `attention=1`). */
export interface QueueFilters {
  overSla?: boolean;
  attention?: boolean;
}

/**
 * The queue's keys: `['applicants', environment, tab, { skip, limit, counts, overSla, attention }]`, the
 * environment first (as the URL names it, '' for the default one), so that a live event of an
 * environment reaches its pages by the key's prefix, and a tab's by a longer one.
 */
export const applicantsQueries = {
  all: () => APPLICANTS_KEY,
  environment: (environment: string | undefined) => [...applicantsQueries.all(), environment ?? ''] as const,
  tab: (environment: string | undefined, tab: QueueTabKey) => [...applicantsQueries.environment(environment), tab] as const,
  /** The queue is per environment: undefined is the default one. */
  page: (query: ApplicantsQuery, environment?: string) =>
    queryOptions({
      queryKey: [
        ...applicantsQueries.tab(environment, queueTabKey(query.status)),
        {
          skip: query.skip,
          limit: query.limit,
          counts: query.counts === true,
          overSla: query.overSla === true,
          attention: query.attention === true,
        },
      ] as const,
      queryFn: ({ signal }) => fetchApplicants(query, environment, signal),
      staleTime: 30_000,
      gcTime: 60_000,
      retry: (failureCount, error) => error instanceof ApiError && error.transient && failureCount < 1,
    }),
};

/** The list a cached page of the queue is a window of, read from its key (undefined: not a page's key). */
export function pageListOf(queryKey: readonly unknown[]): ({ tab: ApplicantFilter | undefined } & QueueFilters) | undefined {
  const [, , tab, options] = queryKey;
  if (typeof tab !== 'string' || !options || typeof options !== 'object') return undefined;
  const { overSla, attention } = options as QueueFilters;
  return { tab: tab === 'all' || !isApplicantFilter(tab) ? undefined : tab, overSla: overSla === true, attention: attention === true };
}

/**
 * A page of a tab as the queue shows it (with every tab's count): the queue page and the candidate page's
 * Previous and Next read the same entry of the cache, so a candidate opened from the queue finds its
 * neighbours without asking again.
 */
export function queuePageQuery(
  filter: ApplicantFilter | undefined,
  page: number,
  environment: string | undefined,
  filters: QueueFilters = {},
) {
  return applicantsQueries.page(
    {
      status: filter,
      skip: (page - 1) * APPLICANTS_PAGE_SIZE,
      limit: APPLICANTS_PAGE_SIZE,
      counts: true,
      ...(filters.overSla ? { overSla: true } : {}),
      ...(filters.attention ? { attention: true } : {}),
    },
    environment,
  );
}
