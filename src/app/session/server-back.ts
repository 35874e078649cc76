import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError } from '../api/api-error.ts';
import { sessionQueries } from './session-query.ts';

/** A call that found nobody at the server (a restart): said until the server answers again, then "press … again". */
export const serverUnreachable = (error: unknown): boolean => error instanceof ApiError && error.code === 'server_unreachable';

/**
 * Whether the server has answered since `since` (a Date.now() of a call that could not reach it), by the
 * session check: the shell asks it again until it answers (session-retry.tsx), as soon as the live stream
 * is back. It is asked here too when the call failed, so that the answer does not wait for the stream to
 * notice (one refused, or a browser without it).
 */
export function useServerBackSince(since: number | undefined): boolean {
  const { dataUpdatedAt } = useQuery(sessionQueries.current());
  const queryClient = useQueryClient();
  useEffect(() => {
    if (since !== undefined) void queryClient.invalidateQueries({ queryKey: sessionQueries.all() });
  }, [since, queryClient]);
  return since !== undefined && dataUpdatedAt > since;
}
