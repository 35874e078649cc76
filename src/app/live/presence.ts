import { useEffect, useSyncExternalStore } from 'react';
import type { PresenceCandidate, PresenceViewer } from '../../kyc/contract/presence.ts';
import { PRESENCE_HEARTBEAT_MS, PRESENCE_PATH } from '../../kyc/contract/presence-paths.ts';
import { apiRequest } from '../api/api-request.ts';

/**
 * Presence in this tab (issue 33): which candidate it shows, said to the server under the name of the
 * tab's live stream (its hello event) whenever it changes, when the stream reconnects under a new name,
 * and every PRESENCE_HEARTBEAT_MS; and who else has which candidate open, as the stream last said. Memory
 * only, cleared when the stream closes (which also ends this tab's entry on the server).
 */

interface Shown {
  environment: string;
  candidate: PresenceCandidate;
}

let stream: string | undefined;
/** What the page shows now, and what the server was last sent (under this stream's name). */
let shown: Shown | undefined;
let said: Shown | undefined;
let viewers: readonly PresenceViewer[] = [];
const listeners = new Set<() => void>();
let heartbeat: ReturnType<typeof setInterval> | undefined;
let inFlight = false;
let again = false;

/**
 * Tells the server what the tab shows. One request at a time, the latest state next: two sent at once
 * could arrive in either order, and "none" arriving after the next candidate would hide the reviewer. A
 * failure is let go: the next change or heartbeat says it again.
 */
function sync(): void {
  if (stream === undefined || (!shown && !said)) return;
  if (inFlight) {
    again = true;
    return;
  }
  const now = shown;
  const environment = (now ?? said)!.environment;
  inFlight = true;
  again = false;
  // Said once sent, whatever the answer: a request that reached the server but lost its answer still
  // needs its "none" later.
  said = now;
  apiRequest(PRESENCE_PATH, null, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ stream, environment, candidate: now?.candidate ?? null }),
  })
    .catch(() => {})
    .finally(() => {
      inFlight = false;
      if (again) sync();
    });
}

/** The stream named itself (opened or reconnected): what the tab shows is said again under the new name. */
export function setPresenceStream(id: string | undefined): void {
  stream = id;
  said = undefined;
  clearInterval(heartbeat);
  heartbeat = undefined;
  if (id === undefined) {
    setPresenceViewers([]);
    return;
  }
  sync();
  heartbeat = setInterval(() => {
    if (shown) sync();
  }, PRESENCE_HEARTBEAT_MS);
}

export function setPresenceViewers(next: readonly PresenceViewer[]): void {
  viewers = next;
  for (const listener of listeners) listener();
}

/** The page shows this candidate of this environment (by its name) while mounted; leaving it says so. */
export function useShowCandidate(
  environment: string | undefined,
  refId: string | null | undefined,
  recordId: string | null | undefined,
): void {
  useEffect(() => {
    if (environment === undefined || (!refId && !recordId)) return;
    const mine: Shown = { environment, candidate: { refId: refId ?? null, recordId: recordId ?? null } };
    shown = mine;
    sync();
    return () => {
      if (shown !== mine) return;
      shown = undefined;
      // After this render's effects: the next candidate (Next, j) is said instead of "none" first.
      setTimeout(() => {
        if (!shown) sync();
      }, 0);
    };
  }, [environment, refId, recordId]);
}

/** Who else has any candidate open, as the stream last said. */
export function useViewers(): readonly PresenceViewer[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => viewers,
  );
}

/** The users (each once, in order) with this candidate open: matched by either id, in this environment (its name). */
export function viewersOf(
  all: readonly PresenceViewer[],
  environment: string | undefined,
  ids: { refId?: string | null | undefined; recordId?: string | null | undefined },
): string[] {
  const matches = (viewer: PresenceViewer) =>
    viewer.environment === environment &&
    ((Boolean(ids.recordId) && viewer.recordId === ids.recordId) || (Boolean(ids.refId) && viewer.refId === ids.refId));
  return [...new Set(all.filter(matches).map((viewer) => viewer.user))].sort();
}
