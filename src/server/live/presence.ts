import {
  PRESENCE_EVENT_NAME,
  PRESENCE_EXPIRY_MS,
  PRESENCE_MAX_BODY_BYTES,
  PRESENCE_PATH,
  type PresenceAnnouncement,
  type PresenceViewer,
  presenceAnnouncementSchema,
} from '../../kyc/contract/presence.ts';
import { mayUse } from '../auth/access-control.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { methodNotAllowed, readBody } from '../http/http-reply.ts';
import type { Identity } from '../http/identity.ts';
import { any, type Route, type SignedInCall } from '../http/routes.ts';
import type { PresenceChannel, PresenceMessage } from './presence-message.ts';

/**
 * Who has which candidate open (issue 33), in this instance's memory only: each entry is a tab's live
 * update stream showing a candidate. The table is the same on every instance: what any instance is told
 * (an announcement, a stream's end) goes through the hub's presence channel, and each applies it. Each
 * stream of this instance is sent what changed for its user: the others' open candidates, in the
 * environments that user may use.
 */
export interface Presence {
  /** `POST /api/presence`: a tab says which candidate it shows, or none. */
  route: Route;
  /** A stream of this instance wants presence; the function returned is its end (its entry goes at once). */
  attach(stream: PresenceStream): () => void;
  /** Stops the expiry sweep and leaves the channel (the server stops). */
  close(): void;
}

export interface PresenceStream {
  /** The id its hello event gave the page, which the page's announcements name. */
  id: string;
  /** Whose stream it is, as last checked (the stream re-checks its session on each heartbeat). */
  identity(): Identity;
  send(text: string): void;
}

export interface PresenceOptions {
  now?: () => number;
  /** How long an entry lives without a heartbeat (default PRESENCE_EXPIRY_MS). */
  expiryMs?: number;
  /** How often expired entries are looked for (default 5 s). */
  sweepMs?: number;
}

interface Entry {
  user: string;
  environment: string;
  refId: string | null;
  recordId: string | null;
  expiresAt: number;
}

/** Entries one user may hold at once: a tab each, and a few more; past it the oldest goes, so memory stays bounded. */
export const MAX_ENTRIES_PER_USER = 10;

export function createPresence(channel: PresenceChannel, environments: readonly string[], options: PresenceOptions = {}): Presence {
  const now = options.now ?? Date.now;
  const expiryMs = options.expiryMs ?? PRESENCE_EXPIRY_MS;
  const entries = new Map<string, Entry>();
  const streams = new Map<PresenceStream, string>();
  let pending: NodeJS.Immediate | undefined;

  // Changes of one turn of the event loop go out together: each stream is sent its view once, if it changed.
  const changed = () => {
    pending ??= setImmediate(() => {
      pending = undefined;
      for (const [stream, last] of streams) {
        const text = viewText(entries, stream.identity());
        if (text !== last) {
          streams.set(stream, text);
          stream.send(text);
        }
      }
    });
  };
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
    route: any(PRESENCE_PATH, (call) => announce(channel, environments, call)),
    attach(stream) {
      const text = viewText(entries, stream.identity());
      streams.set(stream, text);
      stream.send(text);
      return () => {
        streams.delete(stream);
        // Every instance forgets the entry; on failure (Redis away) it expires there.
        channel.publish({ type: 'gone', user: stream.identity().user, stream: stream.id }).catch(() => undefined);
      };
    },
    close() {
      clearInterval(sweep);
      if (pending) clearImmediate(pending);
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
  const { user, environment, refId, recordId } = message;
  entries.delete(key);
  entries.set(key, { user, environment, refId, recordId, expiresAt });
  dropOldest(entries, user);
  return !before || before.environment !== environment || before.refId !== refId || before.recordId !== recordId;
}

/** Past MAX_ENTRIES_PER_USER, the user's entry said longest ago goes (the map keeps the order entries were set in). */
function dropOldest(entries: Map<string, Entry>, user: string): void {
  const own = [...entries].filter(([, entry]) => entry.user === user);
  for (const [key] of own.slice(0, Math.max(0, own.length - MAX_ENTRIES_PER_USER))) entries.delete(key);
}

/** What a user sees: everyone else's open candidates in the environments they may use, each once, in a stable order. */
export function viewersFor(entries: Iterable<Entry>, identity: Identity): PresenceViewer[] {
  const seen = new Map<string, PresenceViewer>();
  for (const { user, environment, refId, recordId } of entries) {
    if (user === identity.user || !mayUse(identity, environment)) continue;
    seen.set(JSON.stringify([user, environment, refId, recordId]), { user, environment, refId, recordId });
  }
  return [...seen].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, viewer]) => viewer);
}

function viewText(entries: Map<string, Entry>, identity: Identity): string {
  return `event: ${PRESENCE_EVENT_NAME}\ndata: ${JSON.stringify({ viewers: viewersFor(entries.values(), identity) })}\n\n`;
}

/** `POST /api/presence`: checked, then passed to every instance; the answer says nothing (204). */
async function announce(channel: PresenceChannel, environments: readonly string[], { req, res, identity }: SignedInCall): Promise<void> {
  if (req.method !== 'POST') throw methodNotAllowed('POST', 'Use POST to say which candidate this page shows.');
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) throw new ApiFailure('unsupported_media_type', 'Send JSON.');
  const announcement = readAnnouncement(await readText(req));
  const { environment, candidate, stream } = announcement;
  if (!environments.includes(environment)) throw new ApiFailure('no_such_environment', `There is no environment "${environment}" here.`);
  if (!mayUse(identity, environment))
    throw new ApiFailure('environment_forbidden', `Your account may not use the environment "${environment}".`);
  const message: PresenceMessage = candidate
    ? { type: 'here', user: identity.user, stream, environment, refId: candidate.refId, recordId: candidate.recordId }
    : { type: 'gone', user: identity.user, stream };
  try {
    await channel.publish(message);
  } catch {
    throw new ApiFailure('store_unavailable', 'Who has which candidate open cannot be shared right now; the page tries again.');
  }
  res.writeHead(204, { 'cache-control': 'no-store' });
  res.end();
}

async function readText(req: SignedInCall['req']): Promise<string> {
  try {
    return await readBody(req, PRESENCE_MAX_BODY_BYTES);
  } catch (error) {
    if ((error as Error).message !== 'body too large') throw error;
    throw new ApiFailure('body_too_large', `A presence announcement is at most ${PRESENCE_MAX_BODY_BYTES} bytes.`);
  }
}

function readAnnouncement(text: string): PresenceAnnouncement {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiFailure('bad_request', 'The presence announcement is not valid JSON.');
  }
  const parsed = presenceAnnouncementSchema.safeParse(json);
  if (!parsed.success) {
    throw new ApiFailure(
      'bad_request',
      'Say the stream (from its hello event), the environment and the candidate ({refId, recordId}) or null.',
    );
  }
  return parsed.data;
}
