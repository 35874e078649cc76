import type { LiveEvent } from '../../kyc/contract/live-events.ts';
import type { PresenceChannel } from './presence-message.ts';

/** An event as the stream sends it: its id (for `Last-Event-ID`) beside what happened. */
export interface SequencedEvent {
  /** Increasing across every instance sharing the hub (a Redis counter with REDIS_URL), as a decimal string. */
  id: string;
  event: LiveEvent;
}

/**
 * Sessions that ended, told to the event streams of every instance, so that none goes on sending to
 * someone who may no longer read.
 */
export type Revocation =
  /** These users (lower-case names) were removed or given another password, role or environments: their streams close at once. */
  | { kind: 'users'; users: string[] }
  /** A session was signed out: every stream asks again whether its own still stands. */
  | { kind: 'sign-out' };

/**
 * Where accepted webhook deliveries meet the open event streams (issue 22). The receiver publishes; each
 * `GET /api/events` subscribes. With Redis, a delivery accepted by one instance reaches the streams of
 * every instance (pub/sub); the events of the last 10 minutes, capped in count and bytes (replay-buffer.ts),
 * are kept to replay what a reconnecting page missed: in this process, or in Redis for every instance.
 */
export interface LiveHub {
  /** Passes an accepted delivery on to every subscriber (of every instance); resolves once it is sent on. */
  publish(event: LiveEvent): Promise<void>;
  /**
   * Calls `listener` with each event from now on; with `since` (a `Last-Event-ID`), first with the
   * kept events after it, in order (with Redis, read from Redis after this returns: the live events
   * wait behind them, each id once). Returns the unsubscribe function.
   */
  subscribe(listener: (event: SequencedEvent) => void, since?: string): () => void;
  /**
   * Where a subscriber made now starts: an id such that every event it will hear comes after it (the last
   * this instance has passed on), for the stream's first message, so that a page that reconnects before
   * its first event still names what it has seen (`Last-Event-ID`) and misses nothing published meanwhile.
   * Undefined while this instance has heard no event (with Redis, since it started).
   */
  mark(): string | undefined;
  /**
   * Tells this instance's listeners at once (before it returns), then every other instance's (with
   * Redis: through its channel). Rejects when Redis cannot be reached: the others then learn it by
   * themselves (each watches the users file, and re-checks its streams at every heartbeat).
   */
  revoke(revocation: Revocation): Promise<void>;
  /** Calls `listener` with each revocation, this instance's and the others'. Returns the function that stops it. */
  onRevocation(listener: (revocation: Revocation) => void): () => void;
  /**
   * Resolves once this hub hears what is published (with Redis: its subscription is made; before, an
   * event published by another instance passes it by). Tests and the load test wait for it.
   */
  ready?(): Promise<void>;
  /** Stops listening to Redis, if it does. */
  close(): Promise<void>;
  /**
   * Who has which candidate open, shared as the events are (issue 33), on a channel of its own: never
   * buffered, numbered or replayed. A hub without it (a test's) shares presence in its process only.
   */
  presence?: PresenceChannel;
}
