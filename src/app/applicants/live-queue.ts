import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useEnvironment } from '../environment/use-environment.ts';
import { useLiveEvents } from '../live/live-stream.ts';
import { applicantsQueries } from './applicants-queries.ts';

/** How long a row that changed stays highlighted. */
export const HIGHLIGHT_MS = 4000;
/** Events within this long of the first are one refetch of the view: a burst of deliveries is one request. */
export const LIVE_REFETCH_MS = 1000;

/**
 * Keeps the queue live: any event of its environment refetches its view, the page with every tab's count
 * (the event does not say which tab a candidate leaves or joins, the service's answer does), once for
 * all the events of a second; and answers the ids of the candidates that changed lately, for their rows
 * to stand out a moment.
 */
export function useLiveQueue(environment: string | undefined): ReadonlySet<string> {
  const queryClient = useQueryClient();
  const name = useEnvironment().info?.name;
  const [changed, setChanged] = useState<ReadonlySet<string>>(() => new Set());
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  const refetch = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const shown = useRef(environment);
  shown.current = environment;
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) clearTimeout(timer);
      clearTimeout(refetch.current);
    };
  }, []);
  useLiveEvents((event) => {
    if (name === undefined || event.environment !== name) return;
    refetch.current ??= setTimeout(() => {
      refetch.current = undefined;
      // The queue's key ends with its environment as the URL names it ('' for the default one).
      void queryClient.invalidateQueries({
        queryKey: applicantsQueries.all(),
        predicate: (query) => query.queryKey[4] === (shown.current ?? ''),
      });
    }, LIVE_REFETCH_MS);
    const ids = [event.refId, event.recordId].filter((id): id is string => Boolean(id));
    setChanged((previous) => new Set([...previous, ...ids]));
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      setChanged((previous) => new Set([...previous].filter((id) => !ids.includes(id))));
    }, HIGHLIGHT_MS);
    timers.current.add(timer);
  });
  return changed;
}
