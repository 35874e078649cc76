import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { SessionInfo } from '../../kyc/contract/api.ts';
import { onSessionRefused } from '../api/session-signal.ts';
import { useLiveState } from '../live/live-stream.ts';
import { clearRecentLookups } from '../recent/recent-lookups.ts';
import { sessionQueries } from './session-query.ts';

/**
 * A session that ends while someone is working (issue 33): the header learns it at once, and work in
 * progress (a reply being edited, a batch, a comparison) is not thrown away for the sign-in page. Such
 * work holds the page while it is open; the shell keeps the page (behind the dialog) while any hold is
 * on, and the dialog offers to sign in again.
 */
let holds = 0;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/** While `active`, an ended session leaves the page where it is: the caller says the session ended and offers a new sign-in. */
export function useHoldPage(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    holds++;
    notify();
    return () => {
      holds--;
      notify();
    };
  }, [active]);
}

export function usePageHeld(): boolean {
  return useSyncExternalStore(subscribe, () => holds > 0);
}

/**
 * Whether the session of `user` (who was signed in when the work began) still stands: `ended` once the
 * server says nobody is signed in, `other` when someone else signed in since (their work is not shown).
 */
export function useSessionEnd(user: string | undefined): 'on' | 'ended' | 'other' {
  const session = useQuery(sessionQueries.current()).data;
  if (!session || session.mode === 'local') return 'on';
  if (!session.user) return 'ended';
  return user === undefined || session.user === user ? 'on' : 'other';
}

/**
 * The session a page was shown with: while the session has ended under work that holds the page, the
 * page keeps the user and role it was shown with (a support user's page must not turn into a
 * compliance user's, nor lose its Copy reply, behind the dialog that offers a new sign-in).
 */
export function usePageSession(): SessionInfo | undefined {
  const data = useQuery(sessionQueries.current()).data;
  const [shownWith, setShownWith] = useState(data);
  if (data?.user !== undefined && data !== shownWith) setShownWith(data);
  return data?.user !== undefined || data?.mode === 'local' ? data : (shownWith ?? data);
}

/**
 * Work that must survive an ended session (a comparison, a batch): holds the page while `active`, and
 * says whether the session of whoever was signed in when it began still stands.
 */
export function useWorkSession(active: boolean): { user: string | undefined; state: 'on' | 'ended' | 'other' } {
  const signedIn = useQuery(sessionQueries.current()).data?.user;
  // Whose work it is: the user signed in while there is none yet, fixed once there is.
  const [user, setUser] = useState(signedIn);
  if (signedIn !== undefined && signedIn !== user && (user === undefined || !active)) setUser(signedIn);
  useHoldPage(active);
  return { user, state: useSessionEnd(user) };
}

/**
 * The shell's watch on the session: asked again as soon as a call is refused for want of one, or the
 * live stream drops (the server ends a stream when its session ends); and when another user signs in
 * in this tab, nothing of the one before stays in memory.
 */
export function useSessionWatch(session: SessionInfo | undefined): void {
  const queryClient = useQueryClient();
  const live = useLiveState();
  const signedIn = session?.user !== undefined;
  useEffect(() => onSessionRefused(() => void queryClient.invalidateQueries({ queryKey: sessionQueries.all() })), [queryClient]);
  useEffect(() => {
    if (signedIn && live === 'reconnecting') void queryClient.invalidateQueries({ queryKey: sessionQueries.all() });
  }, [signedIn, live, queryClient]);
  const previous = useRef<string | undefined>(undefined);
  const user = session?.user;
  useEffect(() => {
    if (user === undefined) return;
    if (previous.current !== undefined && previous.current !== user) {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueries.all()[0] });
      clearRecentLookups();
    }
    previous.current = user;
  }, [user, queryClient]);
}
