import { useEffect, useSyncExternalStore } from 'react';
import type { PresenceCandidate, PresenceViewer } from '../../kyc/contract/presence.ts';
import { PRESENCE_HEARTBEAT_MS, PRESENCE_PATH } from '../../kyc/contract/presence-paths.ts';
import { apiRequest } from '../api/api-request.ts';

/**
 * Presence in this tab (issue 33): which candidate it shows, said to the server under the name of the
 * tab's live stream (its hello event) whenever it changes, when the stream reconnects under a new name,
 * and every PRESENCE_HEARTBEAT_MS; and who else has which candidate open, as the stream last said. Memory
 * only, cleared when the stream closes (which also ends this tab's entry on the server). Candidates are
 * matched by their rooms, a keyed hash of each id that only the server can make: the server answers an
 * announcement with the candidate's rooms, and a queue page with each row's.
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
/** The rooms the server answered for the candidates this tab announced, under each id (keysOf); a new map on each change. */
let rooms: ReadonlyMap<string, readonly string[]> = new Map();
const NO_ROOMS: readonly string[] = [];
/** Rooms kept for the candidates announced last: the page shows one at a time, and a few back is plenty. */
const MAX_ROOMS_KEPT = 20;
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
  const roomsSchema = () => import('../../kyc/contract/presence.ts').then((contract) => contract.presenceRoomsSchema);
  apiRequest(PRESENCE_PATH, roomsSchema, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ stream, environment, candidate: now?.candidate ?? null }),
  })
    .then((answer) => {
      if (now) keepRooms(keysOf(now.environment, now.candidate), answer.rooms);
    })
    .catch(() => {})
    .finally(() => {
      inFlight = false;
      if (again) sync();
    });
}

type Ids = { refId?: string | null | undefined; recordId?: string | null | undefined };

/** The keys a candidate's rooms are kept under: one per id, so that a page that knows either id finds them. */
const keysOf = (environment: string | undefined, { refId, recordId }: Ids) => [
  ...(refId ? [JSON.stringify([environment, 'refId', refId])] : []),
  ...(recordId ? [JSON.stringify([environment, 'recordId', recordId])] : []),
];

function keepRooms(keys: readonly string[], answered: readonly string[]): void {
  if (keys.every((key) => rooms.get(key)?.join() === answered.join())) return;
  const next = new Map(rooms);
  for (const key of keys) {
    next.delete(key);
    next.set(key, answered);
  }
  for (const old of [...next.keys()].slice(0, Math.max(0, next.size - MAX_ROOMS_KEPT))) next.delete(old);
  rooms = next;
  for (const listener of listeners) listener();
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

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** Who else has any candidate open, as the stream last said. */
export function useViewers(): readonly PresenceViewer[] {
  return useSyncExternalStore(subscribe, () => viewers);
}

/** The rooms of a candidate this tab announced (environment by its name), once the server answered them; none before. */
export function useShownRooms(
  environment: string | undefined,
  refId: string | null | undefined,
  recordId: string | null | undefined,
): readonly string[] {
  const all = useSyncExternalStore(subscribe, () => rooms);
  const found = keysOf(environment, { refId, recordId }).flatMap((key) => all.get(key) ?? NO_ROOMS);
  return found.length > 0 ? [...new Set(found)] : NO_ROOMS;
}

/** The users (each once, in order) with this candidate open: matched by any of its rooms, in this environment (its name). */
export function viewersOf(all: readonly PresenceViewer[], environment: string | undefined, shown: readonly string[] | undefined): string[] {
  const mine = new Set(shown);
  const matches = (viewer: PresenceViewer) => viewer.environment === environment && viewer.rooms.some((room) => mine.has(room));
  return [...new Set(all.filter(matches).map((viewer) => viewer.user))].sort();
}
