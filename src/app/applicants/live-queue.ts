import { type Query, type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { ApplicantsPage } from '../../kyc/contract/applicants.ts';
import type { LiveEvent } from '../../kyc/contract/live-events.ts';
import { useEnvironment } from '../environment/use-environment.ts';
import { liveEventLabel, liveEventName } from '../live/live-event-text.ts';
import { useLiveEvents } from '../live/live-stream.ts';
import { applicantsQueries, pageListOf } from './applicants-queries.ts';
import { applyMove, isCandidate, type Move, moveOf } from './queue-move.ts';
import { LIVE_REFETCH_MS, useQueuePageOpen } from './queue-follows-live.ts';

/** How long a row that changed stays highlighted. */
export const HIGHLIGHT_MS = 4000;
/** The events remembered, so that one received twice is applied once. */
const MAX_REMEMBERED = 1000;

/**
 * Keeps the queue live without asking for it again (issue 32): an event of its environment says where
 * the index had the candidate and where it has it now, and every cached page of the environment moves
 * the row and its counts in the query cache (queue-move.ts). The pages are marked stale without a fetch,
 * so that the next navigation reads them fresh. An event that says too little to move a row (no status,
 * no place: a deletion, an older server), that a page cannot tell it has (read after the delivery was
 * accepted, perhaps before the index learned it), or whose row the page shows elsewhere than the index
 * had it, is one refetch of the view for all of a second's such events, never cancelling a fetch in
 * flight. Answers the ids of the candidates that changed lately, for their rows to stand out a moment,
 * and a sentence for screen readers (`said`): "cust_000482: Ready to review.", or for a burst within a
 * second, how many changed.
 */
export function useLiveQueue(environment: string | undefined): { changed: ReadonlySet<string>; said: string } {
  const queryClient = useQueryClient();
  const name = useEnvironment().info?.name;
  const [changed, setChanged] = useState<ReadonlySet<string>>(() => new Set());
  const [said, setSaid] = useState<Said>({ text: '', ids: [], at: 0 });
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  const refetch = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const shown = useRef(environment);
  shown.current = environment;
  /** One refetch of the view for all of a second's events that cannot be applied. */
  const askAgain = useRef(() => {
    refetch.current ??= setTimeout(() => {
      refetch.current = undefined;
      void queryClient.invalidateQueries({ queryKey: applicantsQueries.environment(shown.current) }, { cancelRefetch: false });
    }, LIVE_REFETCH_MS);
  }).current;
  const pending = usePendingMoves(queryClient, askAgain);
  useQueuePageOpen();
  useEffect(() => {
    const running = timers.current;
    return () => {
      for (const timer of running) clearTimeout(timer);
      clearTimeout(refetch.current);
    };
  }, []);
  const applied = useRef(new Set<string>());
  useLiveEvents((event) => {
    if (name === undefined || event.environment !== name) return;
    // A move is applied once: the same event again (a delivery the server processed twice) moves nothing more.
    const key = JSON.stringify(event);
    if (applied.current.has(key)) return;
    applied.current.add(key);
    if (applied.current.size > MAX_REMEMBERED) applied.current.delete(applied.current.values().next().value!);
    const queryKey = applicantsQueries.environment(shown.current);
    const queries = queryClient.getQueryCache().findAll({ queryKey });
    const seen = seenRow(queries, event);
    const move = moveOf(event, seen);
    // The page shows the row elsewhere than the index had it just before (the index learned this change,
    // or another, from a lookup or its crawl first): a move from there would leave the row and the counts
    // wrong, so the page asks again.
    const misplaced = move !== undefined && seen !== undefined && seen.status !== move.from?.status;
    if (move && !misplaced) {
      for (const query of queries) {
        // A page being fetched may come back from before the change: the move waits for it (usePendingMoves).
        if (query.state.fetchStatus === 'fetching')
          pending.current.set(query.queryHash, [...(pending.current.get(query.queryHash) ?? []), { move, event }]);
        movePage(queryClient, query, move, event, askAgain);
      }
      void queryClient.invalidateQueries({ queryKey, refetchType: 'none' });
    } else {
      askAgain();
    }
    const ids = [event.refId, event.recordId].filter((id): id is string => Boolean(id));
    setChanged((previous) => new Set([...previous, ...ids]));
    setSaid((previous) => saidOf(previous, event, Date.now()));
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      setChanged((previous) => new Set([...previous].filter((id) => !ids.includes(id))));
    }, HIGHLIGHT_MS);
    timers.current.add(timer);
  });
  return { changed, said: said.text };
}

/** What the queue's live region says, and the candidates it counts since `at` (each by its first id). */
interface Said {
  text: string;
  ids: readonly string[];
  at: number;
}

/**
 * "cust_000482: Ready to review."; changes within a second of the first are said together: the same
 * candidate's latest ("cust_000482: Blocked."), or how many candidates changed ("3 candidates changed
 * in the queue.").
 */
function saidOf(previous: Said, event: LiveEvent, now: number): Said {
  const id = liveEventName(event) ?? 'A candidate';
  const burst = previous.ids.length > 0 && now - previous.at < LIVE_REFETCH_MS;
  const ids = burst ? [...new Set([...previous.ids, id])] : [id];
  const text = ids.length > 1 ? `${ids.length} candidates changed in the queue.` : `${id}: ${liveEventLabel(event)}.`;
  return { text, ids, at: burst ? previous.at : now };
}

interface PendingMove {
  move: Move;
  event: LiveEvent;
}

/**
 * The moves of events that came while a page was being fetched: applied to what the fetch brings, if
 * the server read it before the change was accepted (otherwise the answer has the change already).
 */
function usePendingMoves(queryClient: QueryClient, askAgain: () => void) {
  const pending = useRef(new Map<string, PendingMove[]>());
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((cacheEvent) => {
        if (cacheEvent.type !== 'updated') return;
        const { query, action } = cacheEvent;
        if (action.type !== 'success' && action.type !== 'error') return;
        if (action.type === 'success' && action.manual) return;
        const moves = pending.current.get(query.queryHash);
        if (!moves) return;
        pending.current.delete(query.queryHash);
        for (const { move, event } of moves) movePage(queryClient, query, move, event, askAgain);
      }),
    [queryClient, askAgain],
  );
  return pending;
}

/** Where each cached page's first row is in its list, once a move has shifted it (null: not known any more). */
const starts = new WeakMap<ApplicantsPage, number | null>();

/**
 * The page moved, if the server read it before the event's delivery was accepted. One read since may or
 * may not have the change (the index learns it after its check with the service, seconds later at worst):
 * that page is asked again (`askAgain`), which the index answers with the change, as the event is
 * published only once the index has it.
 */
function movePage(queryClient: QueryClient, query: Query, move: Move, event: LiveEvent, askAgain: () => void): void {
  const data = query.state.data as ApplicantsPage | undefined;
  const list = pageListOf(query.queryKey);
  if (!data || !list) return;
  if (!readBefore(data, event)) {
    askAgain();
    return;
  }
  const { page, start } = applyMove(data, list, move, { start: starts.get(data), now: Date.now() });
  starts.set(page, start);
  // When it was fetched stays what it was: "Fetched 2 minutes ago" is still true of the rest of the page.
  queryClient.setQueryData(query.queryKey, page, { updatedAt: query.state.dataUpdatedAt });
}

/** Whether a page was read before the server accepted the event's delivery (a page without the index's time: yes). */
function readBefore(page: ApplicantsPage, event: LiveEvent): boolean {
  const read = Date.parse(page.index?.at ?? '');
  const accepted = Date.parse(event.at);
  return !Number.isFinite(read) || !Number.isFinite(accepted) || read < accepted;
}

/** The candidate's row as a cached page shows it (its certificate, for compliance users), if one does. */
function seenRow(queries: readonly Query[], event: LiveEvent) {
  const ids = { ...(event.recordId ? { recordId: event.recordId } : {}), ...(event.refId ? { refId: event.refId } : {}) };
  for (const query of queries) {
    const row = (query.state.data as ApplicantsPage | undefined)?.records.find((one) => isCandidate(one, ids));
    if (row) return row;
  }
  return undefined;
}
