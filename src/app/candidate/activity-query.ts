import { queryOptions } from '@tanstack/react-query';
import { activityApiPath } from '../../kyc/contract/environment-paths.ts';
import { type ActivityAnswer, activityAnswerSchema } from '../../kyc/contract/audit-search.ts';
import { ApiError } from '../api/api-error.ts';
import { apiRequest } from '../api/api-request.ts';

/**
 * A candidate's Activity (issue 34): who looked them up in this environment, by either of their ids.
 * POSTed, so that the ids stay out of the URL. Asked once per page shown, on Refresh, when another viewer
 * comes, and when the reviewer opens it; not on focus.
 */
export const activityQueries = {
  /**
   * `fetchedAt`: the record's, so that a new lookup of it (Refresh) reads the Activity again; `viewers`:
   * who else has the page open (presence), so that one who comes, whose lookup is a new line, is read too.
   */
  of: (environment: string | undefined, ids: { refId?: string; recordId?: string }, fetchedAt: number, viewers = '') =>
    queryOptions({
      queryKey: ['activity', environment ?? '', ids.refId ?? '', ids.recordId ?? '', fetchedAt, viewers] as const,
      queryFn: ({ signal }): Promise<ActivityAnswer> =>
        apiRequest(activityApiPath(environment), activityAnswerSchema, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(ids),
          cache: 'no-store',
          signal,
        }),
      staleTime: 30_000,
      gcTime: 0,
      // A trail read by many at once (503 server_busy: this server's reads of its files wait their turn,
      // at most 64 in line) is asked again after the wait it names, twice at most; any other failure is said.
      retry: (failures, error) => failures < 2 && error instanceof ApiError && error.code === 'server_busy',
      retryDelay: (_failures, error) => (error instanceof ApiError ? (error.retryAfterSeconds ?? 5) : 5) * 1000,
      refetchOnWindowFocus: false,
    }),
};
