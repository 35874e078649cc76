import { queryOptions } from '@tanstack/react-query';
import { apiErrorBodySchema } from '../../kyc/contract/api.ts';
import { applicantsApiPath, applicantsPageSchema, type ApplicantsPage, type ApplicantsQuery } from '../../kyc/contract/applicants.ts';
import { z } from '../../kyc/contract/zod.ts';
import { apiFetch } from '../api-fetch.ts';
import { LookupError, lookupErrorFromBody } from '../candidate/lookup-error.ts';

/**
 * One page of the applicants list through the proxy. Status-level data only, but still ids: never kept
 * in the HTTP cache, and dropped from memory soon after no page shows it.
 */
export async function fetchApplicants(
  query: ApplicantsQuery,
  environment: string | undefined,
  signal?: AbortSignal,
): Promise<ApplicantsPage> {
  let response: Response;
  try {
    response = await apiFetch(applicantsApiPath(query, environment), {
      signal,
      headers: { accept: 'application/json' },
      cache: 'no-store',
      credentials: 'same-origin',
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new LookupError('server_unreachable', 'The Candidate Lookup server could not be reached. Check your connection.');
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = apiErrorBodySchema.safeParse(body);
    throw lookupErrorFromBody(response.status, error.success ? error.data : undefined, response.headers.get('retry-after'));
  }
  if (body === undefined) throw new LookupError('not_json', 'The server sent an applicants list that is not JSON.');
  const parsed = applicantsPageSchema.safeParse(body);
  if (!parsed.success) {
    throw new LookupError('malformed', 'The applicants list does not have the expected shape.', { detail: z.prettifyError(parsed.error) });
  }
  return parsed.data.data;
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
      retry: (failureCount, error) => error instanceof LookupError && error.transient && failureCount < 1,
    }),
};
