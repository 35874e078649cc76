import { PRESENCE_EVENT_NAME, type PresenceViewer } from '../../kyc/contract/presence.ts';
import { mayUse } from '../auth/access-control.ts';
import type { Identity } from '../http/identity.ts';

/**
 * Sending each stream its user's view of the presence table (presence.ts), at a bounded cost. A view is
 * the whole list of the others' open candidates, so one round costs streams × viewers: sent on every
 * change, 300 reviewers each switching candidate every 30 s pushed 42 MB/s and took a whole core, and
 * one user announcing in a loop flooded everyone. So changes only mark the table changed: the first after
 * a quiet time goes out at the next turn of the event loop, those after it wait for the gap and go as one
 * round, each stream sent its latest view once (the last change always arrives). The gap is at least
 * SNAPSHOT_GAP_MS, and longer after a large round, so that rounds average at most
 * SNAPSHOT_BYTES_PER_SECOND however many are watching.
 */

/** One tab's entry in the table: what presence.ts keeps of an announcement. */
export interface Entry {
  user: string;
  environment: string;
  /** The candidate's rooms (lookup/presence-rooms.ts): the page matches them with those the server gave it. */
  rooms: readonly string[];
  expiresAt: number;
}

export interface PresenceStream {
  /** The id its hello event gave the page, which the page's announcements name. */
  id: string;
  /** Whose stream it is, as last checked (the stream re-checks its session on each heartbeat). */
  identity(): Identity;
  send(text: string): void;
}

/** Waits `ms`, then calls `then`; the function returned cancels it. A test steps its own. */
export type Wait = (ms: number, then: () => void) => () => void;

export interface SnapshotOptions {
  /** The least time between two rounds (default SNAPSHOT_GAP_MS). */
  gapMs?: number;
  /** What rounds may send on average, all streams together (default SNAPSHOT_BYTES_PER_SECOND). */
  bytesPerSecond?: number;
  wait?: Wait;
}

/** A stream is sent a presence event at most once a second... */
export const SNAPSHOT_GAP_MS = 1000;
/** ...and all of them together about 2 MB a second at most: a larger crowd waits longer between rounds. */
export const SNAPSHOT_BYTES_PER_SECOND = 2_000_000;

const realWait: Wait = (ms, then) => {
  const timer = setTimeout(then, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

export interface Snapshots {
  /** Sends the stream its view now, and from then on with the rounds; the function returned stops it. */
  add(stream: PresenceStream): () => void;
  /** The table changed: the streams are sent their views at the next round. */
  changed(): void;
  close(): void;
}

export function createSnapshots(entries: () => Iterable<Entry>, options: SnapshotOptions = {}): Snapshots {
  const gapMs = options.gapMs ?? SNAPSHOT_GAP_MS;
  const bytesPerSecond = options.bytesPerSecond ?? SNAPSHOT_BYTES_PER_SECOND;
  const wait = options.wait ?? realWait;
  /** Each stream, with the text it was last sent (a round skips those whose view did not change). */
  const streams = new Map<PresenceStream, string>();
  let dirty = false;
  let soon: NodeJS.Immediate | undefined;
  let cooling: (() => void) | undefined;

  const round = () => {
    soon = undefined;
    cooling = undefined;
    if (!dirty) return;
    dirty = false;
    const all = allViewers(entries());
    let bytes = 0;
    for (const [stream, last] of streams) {
      const text = viewText(all, stream.identity());
      if (text === last) continue;
      streams.set(stream, text);
      stream.send(text);
      bytes += Buffer.byteLength(text);
    }
    cooling = wait(Math.max(gapMs, Math.ceil((bytes / bytesPerSecond) * 1000)), round);
  };

  return {
    add(stream) {
      const text = viewText(allViewers(entries()), stream.identity());
      streams.set(stream, text);
      stream.send(text);
      return () => void streams.delete(stream);
    },
    changed() {
      dirty = true;
      // Changes of one turn of the event loop go out together; during the gap, with the round after it.
      if (!soon && !cooling) soon = setImmediate(round);
    },
    close() {
      if (soon) clearImmediate(soon);
      cooling?.();
    },
  };
}

/** Every entry's viewer, each once, in a stable order: found once a round, then filtered for each stream. */
function allViewers(entries: Iterable<Entry>): PresenceViewer[] {
  const seen = new Map<string, PresenceViewer>();
  for (const { user, environment, rooms } of entries) {
    seen.set(JSON.stringify([user, environment, rooms]), { user, environment, rooms: [...rooms] });
  }
  return [...seen].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, viewer]) => viewer);
}

/** What a user sees: everyone else's open candidates in the environments they may use. */
function visibleTo(all: readonly PresenceViewer[], identity: Identity): PresenceViewer[] {
  return all.filter((viewer) => viewer.user !== identity.user && mayUse(identity, viewer.environment));
}

function viewText(all: readonly PresenceViewer[], identity: Identity): string {
  return `event: ${PRESENCE_EVENT_NAME}\ndata: ${JSON.stringify({ viewers: visibleTo(all, identity) })}\n\n`;
}
