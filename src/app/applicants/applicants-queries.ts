import { queryOptions } from '@tanstack/react-query';
import {
  APPLICANTS_PAGE_SIZE,
  type ApplicantFilter,
  applicantsApiPath,
  applicantsPageSchema,
  type ApplicantsPage,
  type ApplicantsQuery,
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

export const applicantsQueries = {
  all: () => ['applicants'] as const,
  /** The queue is per environment: undefined is the default one. */
  page: (query: ApplicantsQuery, environment?: string) =>
    queryOptions({
      queryKey: [...applicantsQueries.all(), query.status ?? 'all', query.skip, query.limit, environment ?? ''] as const,
      queryFn: ({ signal }) => fetchApplicants(query, environment, signal),
      staleTime: 30_000,
      gcTime: 60_000,
      retry: (failureCount, error) => error instanceof ApiError && error.transient && failureCount < 1,
    }),
};

/**
 * A page of a tab as the queue shows it (with every tab's count): the queue page and the candidate page's
 * Previous and Next read the same entry of the cache, so a candidate opened from the queue finds its
 * neighbours without asking again.
 */
export function queuePageQuery(filter: ApplicantFilter | undefined, page: number, environment: string | undefined) {
  return applicantsQueries.page(
    { status: filter, skip: (page - 1) * APPLICANTS_PAGE_SIZE, limit: APPLICANTS_PAGE_SIZE, counts: true },
    environment,
  );
}
