import { PRESENCE_EXPIRY_MS, PRESENCE_MAX_BODY_BYTES, PRESENCE_PATH, presenceAnnouncementSchema } from '../../kyc/contract/presence.ts';
import { mayUse } from '../auth/access-control.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { methodNotAllowed, STORE_UNAVAILABLE } from '../http/http-reply.ts';
import { readJsonBody } from '../http/request-body.ts';
import { any, type Route, type SignedInCall } from '../http/routes.ts';
import type { Metrics } from '../ops/metrics.ts';
import type { RateLimiter, Take } from '../ops/rate-limit.ts';
import { presenceRooms, type RoomsOf } from '../lookup/presence-rooms.ts';
import { StoreUnavailableError } from '../state/store.ts';
import type { PresenceChannel, PresenceMessage } from './presence-message.ts';
import { createSnapshots, type Entry, type PresenceStream, type SnapshotOptions } from './presence-snapshots.ts';

export type { PresenceStream } from './presence-snapshots.ts';

/**
 * Who has which candidate open (issue 33), in this instance's memory only: each entry is a tab's live
 * update stream showing a candidate. The table is the same on every instance: what any instance is told
 * (an announcement, a stream's end) goes through the hub's presence channel, and each applies it. Each
 * stream of this instance is sent its user's view when it changed, at most once a second
 * (presence-snapshots.ts): the others' open candidates, in the environments that user may use. Each user's
 * announcements are limited (PRESENCE_ANNOUNCEMENTS_PER_MINUTE).
 */
export interface Presence {
  /** `POST /api/presence`: a tab says which candidate it shows, or none. */
  route: Route;
  /** A stream of this instance wants presence; the function returned is its end (its entry goes at once). */
  attach(stream: PresenceStream): () => void;
  /** Stops the expiry sweep and leaves the channel (the server stops). */
  close(): void;
}

export interface PresenceOptions extends SnapshotOptions {
  now?: () => number;
  /** How long an entry lives without a heartbeat (default PRESENCE_EXPIRY_MS). */
  expiryMs?: number;
  /** How often expired entries are looked for (default 5 s). */
  sweepMs?: number;
  /** Announcements one user may make in a minute (default PRESENCE_ANNOUNCEMENTS_PER_MINUTE; 0: no limit). */
  announcementsPerMinute?: number;
}

/** Each user's announcements, counted across instances, and where a refusal is counted. */
export interface PresenceLimit {
  limiter: RateLimiter;
  keyOf(call: SignedInCall): string;
  metrics?: Pick<Metrics, 'rateLimited'>;
}

/**
 * A tab announces on each change of candidate and every PRESENCE_HEARTBEAT_MS (2 a minute): 300 a minute
 * leaves a reviewer with 5 tabs paging through candidates every second far inside it, and stops one
 * announcing in a loop (5 418 in 10 s, each sent to every stream, before the limit).
 */
export const PRESENCE_ANNOUNCEMENTS_PER_MINUTE = 300;

/** Entries one user may hold at once: a tab each, and a few more; past it the oldest goes, so memory stays bounded. */
export const MAX_ENTRIES_PER_USER = 10;

/** `environments`: those served, with their keys, from which each one's rooms are made (presence-rooms.ts). */
export function createPresence(
  channel: PresenceChannel,
  environments: Parameters<typeof presenceRooms>[0],
  options: PresenceOptions = {},
  limit?: PresenceLimit,
): Presence {
  const rooms = presenceRooms(environments);
  const now = options.now ?? Date.now;
  const expiryMs = options.expiryMs ?? PRESENCE_EXPIRY_MS;
  const entries = new Map<string, Entry>();
  const snapshots = createSnapshots(() => entries.values(), options);
  const changed = () => snapshots.changed();
  const expire = () => {
    const time = now();
    let removed = false;
    for (const [key, entry] of entries) if (entry.expiresAt <= time) removed = entries.delete(key) || removed;
    return removed;
  };
  const unsubscribe = channel.subscribe((message) => {
    // What expired goes with any change, so that no view sent lists it.
    if ([apply(entries, message, now() + expiryMs), expire()].some(Boolean)) changed();
  });
  const sweep = setInterval(() => {
    if (expire()) changed();
  }, options.sweepMs ?? 5000);
  sweep.unref();

  return {
    route: any(PRESENCE_PATH, (call) => announce(channel, rooms, limit, call)),
    attach(stream) {
      const remove = snapshots.add(stream);
      return () => {
        remove();
        // Every instance forgets the entry; on failure (Redis away) it expires there.
        channel.publish({ type: 'gone', user: stream.identity().user, stream: stream.id }).catch(() => undefined);
      };
    },
    close() {
      clearInterval(sweep);
      snapshots.close();
      unsubscribe();
    },
  };
}

const keyOf = (user: string, stream: string) => `${user}\u0000${stream}`;

/** Applies a message to the table; whether anything changed that a stream could see. */
function apply(entries: Map<string, Entry>, message: PresenceMessage, expiresAt: number): boolean {
  const key = keyOf(message.user, message.stream);
  if (message.type === 'gone') return entries.delete(key);
  const before = entries.get(key);
  const { user, environment, rooms } = message;
  entries.delete(key);
  entries.set(key, { user, environment, rooms, expiresAt });
  dropOldest(entries, user);
  return !before || before.environment !== environment || before.rooms.join() !== rooms.join();
}

/** Past MAX_ENTRIES_PER_USER, the user's entry said longest ago goes (the map keeps the order entries were set in). */
function dropOldest(entries: Map<string, Entry>, user: string): void {
  const own = [...entries].filter(([, entry]) => entry.user === user);
  for (const [key] of own.slice(0, Math.max(0, own.length - MAX_ENTRIES_PER_USER))) entries.delete(key);
}

/**
 * `POST /api/presence`: checked, then passed to every instance under the candidate's rooms; the answer is
 * those rooms, by which the page finds the others viewing it (none for no candidate).
 */
async function announce(
  channel: PresenceChannel,
  rooms: ReadonlyMap<string, RoomsOf>,
  limit: PresenceLimit | undefined,
  call: SignedInCall,
): Promise<void> {
  const { req, res, identity } = call;
  if (req.method !== 'POST') throw methodNotAllowed('POST', 'Use POST to say which candidate this page shows.');
  if (limit) await takeAnnouncement(limit, call);
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) throw new ApiFailure('unsupported_media_type', 'Send JSON.');
  const announcement = await readJsonBody(call, PRESENCE_MAX_BODY_BYTES, presenceAnnouncementSchema, 'presence announcement', {
    shape: 'Say the stream (from its hello event), the environment and the candidate ({refId, recordId}) or null.',
  });
  const { environment, candidate, stream } = announcement;
  const roomsOf = rooms.get(environment);
  if (!roomsOf) throw new ApiFailure('no_such_environment', `There is no environment "${environment}" here.`);
  if (!mayUse(identity, environment))
    throw new ApiFailure('environment_forbidden', `Your account may not use the environment "${environment}".`);
  const shown = candidate ? roomsOf(candidate) : [];
  const message: PresenceMessage =
    shown.length > 0
      ? { type: 'here', user: identity.user, stream, environment, rooms: shown }
      : { type: 'gone', user: identity.user, stream };
  try {
    await channel.publish(message);
  } catch {
    throw new ApiFailure('store_unavailable', 'Who has which candidate open cannot be shared right now; the page tries again.');
  }
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ rooms: shown }));
}

/** One of the user's announcements of the minute, or a refusal saying how long to wait. */
async function takeAnnouncement({ limiter, keyOf, metrics }: PresenceLimit, call: SignedInCall): Promise<void> {
  let taken: Take;
  try {
    taken = await limiter.take(keyOf(call));
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw STORE_UNAVAILABLE;
    throw error;
  }
  if (taken.ok) return;
  metrics?.rateLimited.inc({ limit: 'presence' });
  const { retryAfterSeconds } = taken;
  throw new ApiFailure(
    'rate_limited',
    `This page said which candidate it shows many times in a short time. Try again in ${retryAfterSeconds} s.`,
    { retryAfterSeconds },
  );
}
