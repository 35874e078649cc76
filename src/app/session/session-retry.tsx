import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import type { SessionInfo } from '../../kyc/contract/api.ts';
import { ApiError } from '../api/api-error.ts';
import { useLiveState } from '../live/live-stream.ts';
import { Button } from '../ui/button.tsx';
import { Card } from '../ui/card.tsx';
import { useDialogNotices } from '../ui/dialog-notice-places.ts';
import { STORE_DOWN_TEXT } from './store-down.ts';

/**
 * The server restarts (a deploy) while pages are open: the session's re-check fails for a second or two.
 * A session already known has not ended for that (an ended one is an answer, never an error), so the page
 * and its work (a reply being typed lives only in the tab) stay, and the session is asked again: as soon
 * as the live stream is back, which means the server is, and otherwise after 2, 4, 8… seconds, 30 at most.
 */
export function useSessionRetry(session: UseQueryResult<SessionInfo>): void {
  const live = useLiveState();
  const failing = session.isError && session.data !== undefined;
  const { refetch } = session;
  useEffect(() => {
    if (failing && live === 'on') void refetch();
  }, [failing, live, refetch]);
  // Each failed check of a known session (0 while none fails) waits twice as long as the one before.
  const failedAt = failing ? session.errorUpdatedAt : 0;
  const tries = useRef(0);
  useEffect(() => {
    if (failedAt === 0) {
      tries.current = 0;
      return;
    }
    tries.current++;
    const timer = setTimeout(() => void refetch(), Math.min(30_000, 1000 * 2 ** tries.current));
    return () => clearTimeout(timer);
  }, [failedAt, refetch]);
}

/**
 * What the notice says. A server that answers `store_unavailable` is up (a restart would not help): it is
 * its session store that is away, so it says that, in the words of the full screen for it.
 */
function retryText(error: unknown): string {
  const what = error instanceof ApiError && error.code === 'store_unavailable' ? STORE_DOWN_TEXT : "Can't reach the server";
  return `${what} — retrying. This page and what you typed stay here.`;
}

/**
 * Above the page while a known session cannot be checked: said politely, gone once the server answers.
 * While a modal dialog is open (the reply editor, the pictures) the page behind it is hidden and inert, so
 * the words show in the dialog's place instead. Each place is a live region there from the start, empty
 * (one added with its words is not always read out): only the words move between them, never a region,
 * and only one region holds them at a time, so they are read out once.
 */
export function SessionRetryNotice({ session }: { session: UseQueryResult<SessionInfo> }) {
  const dialog = useDialogNotices();
  const words = session.isError && session.data !== undefined && (
    <Card as="p" tone="warning" padding="none" className="mb-3 px-3 py-2 text-sm">
      {retryText(session.error)}
    </Card>
  );
  return (
    // Without the status role: a page's own status messages stay the only ones.
    <div aria-live="polite" data-testid="session-retry">
      {dialog ? createPortal(words, dialog) : words}
    </div>
  );
}

/** Instead of the page when the first check of the session failed: nothing is shown yet, so nothing is lost. */
export function SessionUnreachable({ session }: { session: UseQueryResult<SessionInfo> }) {
  const { error } = session;
  // An ApiError's message says what failed; the network's own failure already says it in full.
  const unreachable = error instanceof ApiError && error.code === 'server_unreachable';
  return (
    <Card role="alert" tone="danger" className="space-y-3">
      <p>{unreachable ? error.message : `The Candidate Lookup server could not be reached: ${error?.message}`}</p>
      <Button onClick={() => void session.refetch()} disabled={session.isFetching}>
        {session.isFetching ? 'Trying…' : 'Try again'}
      </Button>
    </Card>
  );
}
