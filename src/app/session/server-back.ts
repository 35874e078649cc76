import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiError } from '../api/api-error.ts';
import { type ServerAnswers, useAnsweredSince } from '../ui/server-answers.ts';
import { sessionQueries } from './session-query.ts';

/** A call that found nobody at the server (a restart): said until the server answers again, then "press … again". */
export const serverUnreachable = (error: unknown): boolean => error instanceof ApiError && error.code === 'server_unreachable';

/**
 * When the server last answered, by the session check: the shell asks it again until it answers
 * (session-retry.tsx), as soon as the live stream is back. `askAgain` asks it at once, so that the answer
 * does not wait for the stream to notice (one refused, or a browser without it). What a page hands the
 * primitives below it (ServerAnswersContext: a certificate's Copy).
 */
export function useServerAnswers(): ServerAnswers {
  const { dataUpdatedAt } = useQuery(sessionQueries.current());
  const queryClient = useQueryClient();
  const askAgain = useCallback(() => void queryClient.invalidateQueries({ queryKey: sessionQueries.all() }), [queryClient]);
  return { unreachable: serverUnreachable, answeredAt: dataUpdatedAt, askAgain };
}

/** Whether the server has answered since `since` (a Date.now() of a call that could not reach it), asked again then. */
export function useServerBackSince(since: number | undefined): boolean {
  return useAnsweredSince(useServerAnswers(), since);
}
