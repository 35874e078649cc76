import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLiveEvents } from '../live/live-stream.ts';
import { APPLICANTS_KEY } from './queue-key.ts';

/** Events the page cannot apply within this long of the first are one refetch of the view: a burst is one request. */
export const LIVE_REFETCH_MS = 1000;

/** The queue pages open in this tab: while one is, its useLiveQueue moves its rows in place. */
let queuePagesOpen = 0;

/**
 * The queue's cached pages follow the service's news wherever the tab is (AppShell). While no queue page
 * is open (a candidate opened from it, its review bar reading its place from those pages), a live event
 * is one refetch of the pages in use for all of a second's events, and marks the others stale: the place
 * then says "No longer listed", and Back to queue shows the tab as it is, not as it was before the
 * decision. An open queue page moves its rows itself (useLiveQueue), without asking again.
 */
export function useQueueFollowsLive(): void {
  const queryClient = useQueryClient();
  const refetch = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(refetch.current), []);
  useLiveEvents(() => {
    if (queuePagesOpen > 0) return;
    refetch.current ??= setTimeout(() => {
      refetch.current = undefined;
      void queryClient.invalidateQueries({ queryKey: APPLICANTS_KEY }, { cancelRefetch: false });
    }, LIVE_REFETCH_MS);
  });
}

/** A queue page is open while the calling component is (useLiveQueue). */
export function useQueuePageOpen(): void {
  useEffect(() => {
    queuePagesOpen += 1;
    return () => {
      queuePagesOpen -= 1;
    };
  }, []);
}
