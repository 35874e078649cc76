import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { subscriberConnection } from '../state/redis-subscriber.ts';
import { type LiveEvent, liveEventSchema } from '../../kyc/contract/live-events.ts';
import type { LiveHub, SequencedEvent } from './live-hub.ts';
import { localPresenceChannel, type PresenceChannel, readPresenceMessage } from './presence-message.ts';
import { createReplayBuffer, REPLAY_BOUNDS, type ReplayBounds, type ReplayBuffer } from './replay-buffer.ts';
import { PUBLISH_SCRIPT, publishArguments, replayKeys, replayPages, subscribeWithReplay } from './replay-redis.ts';
import { readRevocation, revocationListeners, revocationMessage, type RevocationListeners } from './revocations.ts';

export interface LiveHubOptions {
  /** REDIS_URL: every instance on it shares the events and their ids (default: this process only). */
  redisUrl?: string;
  /** Put before the counter's key and the channel's name (default `candidate-lookup:`, as the shared store's). */
  keyPrefix?: string;
  /** What is kept for reconnecting pages (default REPLAY_BOUNDS): in this process, or in Redis for every instance. */
  replay?: ReplayBounds;
  /** Told when a message on the channel could not be read (another program's, or a newer version's). */
  onBadMessage?: (detail: string) => void;
  /** The clock the replay's age is measured by (default Date.now; tests move it). */
  now?: () => number;
}

type Listener = (event: SequencedEvent) => void;

/**
 * The live hub: in this process, or through Redis pub/sub with REDIS_URL. With Redis, a publish goes
 * only to Redis, and every instance (the publisher's included) hears it back once on its subscription:
 * one path for all, so each subscriber gets each event exactly once.
 */
export function createLiveHub(options: LiveHubOptions = {}): LiveHub {
  const revocations = revocationListeners();
  if (!options.redisUrl) {
    const now = options.now ?? Date.now;
    const fanOut = createFanOut(createReplayBuffer(options.replay), now);
    let last = 0;
    return {
      async publish(event) {
        last = nextId(last, Date.now() * 1000);
        fanOut.deliver({ id: String(last), event });
      },
      subscribe: fanOut.subscribe,
      mark: () => String(last),
      async revoke(revocation) {
        revocations.tell(revocation);
      },
      onRevocation: revocations.add,
      ready: async () => {},
      async close() {},
      presence: localPresenceChannel(),
    };
  }
  // With Redis, the replay is Redis's (replay-redis.ts): this process keeps none of its own.
  return redisHub(options.redisUrl, options, createFanOut(undefined, Date.now), revocations);
}

interface FanOut {
  deliver(event: SequencedEvent): void;
  subscribe: LiveHub['subscribe'];
  /** The id of the last event delivered, if any. */
  last(): string | undefined;
}

/**
 * Each listener is called in turn, and a listener's throw costs that listener only. Listeners must not
 * block: the event stream writes to its socket and closes a stream that falls behind (event-stream.ts).
 * With a buffer, it keeps what it delivers and replays it to a listener that gives a `since`.
 */
function createFanOut(buffer: ReplayBuffer | undefined, now: () => number): FanOut {
  const listeners = new Set<Listener>();
  let last: string | undefined;
  return {
    deliver(event) {
      last = event.id;
      buffer?.add(event, now());
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          listeners.delete(listener);
        }
      }
    },
    subscribe(listener, since) {
      if (since !== undefined && buffer) for (const event of buffer.after(since, now())) listener(event);
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    last: () => last,
  };
}

/**
 * An event's id: the time in microseconds, or one more than the last id if that is not later. So ids
 * keep increasing after a restart (of this process, or of Redis, whose counter is then gone), and a page's
 * `Last-Event-ID` from before it never names a later event. Below 2^53: exact as a double, in Lua too.
 */
function nextId(last: number, nowMicros: number): number {
  return Math.max(last + 1, nowMicros);
}

function redisHub(url: string, options: LiveHubOptions, fanOut: FanOut, revocations: RevocationListeners): LiveHub {
  const prefix = options.keyPrefix ?? 'candidate-lookup:';
  const channel = `${prefix}live-events`;
  const revocationChannel = `${prefix}revocations`;
  const origin = randomUUID();
  const keys = replayKeys(prefix);
  const bounds = options.replay ?? REPLAY_BOUNDS;
  const now = options.now ?? Date.now;
  const connection = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 2000,
    connectTimeout: 2000,
    retryStrategy: (times: number) => Math.min(times * 100, 2000),
  };
  const commands = new Redis(url, connection);
  const presenceChannel = `${prefix}presence`;
  // Subscribed again on each connection (redis-subscriber.ts); `subscribed()` is the latest connection's subscription.
  const { subscriber, subscribed } = subscriberConnection(url, connection, [channel, revocationChannel, presenceChannel]);
  const presence = redisPresence(commands, presenceChannel, subscribed, options);
  subscriber.on('message', (from: string, message: string) => {
    if (from === presenceChannel) return presence.heard(message);
    if (from === revocationChannel) return heardRevocation(message);
    if (from !== channel) return;
    const event = readMessage(message);
    if (event) fanOut.deliver(event);
    else options.onBadMessage?.('a message on the live events channel is not an event');
  });
  const heardRevocation = (message: string) => {
    const read = readRevocation(message);
    if (!read) options.onBadMessage?.('a message on the revocations channel is not a revocation');
    else if (read.origin !== origin) revocations.tell(read.revocation);
  };
  commands.on('error', () => undefined);
  subscriber.on('error', () => undefined);
  return {
    async publish(event: LiveEvent) {
      await withinConnectTime(Promise.all([ready(commands), subscribed()]));
      const args = publishArguments(channel, JSON.stringify(event), bounds, now());
      await commands.eval(PUBLISH_SCRIPT, 3, keys.counter, keys.stream, keys.bytes, ...args);
    },
    subscribe: (listener, since) => {
      if (since === undefined) return fanOut.subscribe(listener);
      const oldest = Math.floor((now() - bounds.maxAgeMs) * 1000);
      const read = async function* (after: bigint) {
        await withinConnectTime(ready(commands));
        yield* replayPages(commands, keys.stream, after, oldest, () =>
          options.onBadMessage?.('an entry of the replay stream is not an event'),
        );
      };
      return subscribeWithReplay(fanOut.subscribe, listener, since, read, () =>
        options.onBadMessage?.('the replay could not be read from Redis: a reconnecting page gets the events from now on only'),
      );
    },
    // Events reach every instance in the order Redis numbered them (one channel), so each heard later comes after it.
    mark: fanOut.last,
    async revoke(revocation) {
      revocations.tell(revocation);
      // Sent at once when connected, on the connection events are published on: Redis passes the two on
      // in the order sent, so no instance hears an event published after a revocation before it.
      if (commands.status !== 'ready') await withinConnectTime(ready(commands));
      await commands.publish(revocationChannel, revocationMessage(origin, revocation));
    },
    onRevocation: revocations.add,
    ready: () => withinConnectTime(subscribed()),
    async close() {
      commands.disconnect();
      subscriber.disconnect();
    },
    presence: presence.channel,
  };
}

/** Presence over Redis: a plain PUBLISH on its own channel, heard back by every instance (this one too). */
function redisPresence(commands: Redis, name: string, subscribed: () => Promise<unknown>, options: LiveHubOptions) {
  const local = localPresenceChannel();
  const channel: PresenceChannel = {
    async publish(message) {
      await withinConnectTime(Promise.all([ready(commands), subscribed()]));
      await commands.publish(name, JSON.stringify(message));
    },
    subscribe: local.subscribe,
  };
  return {
    channel,
    heard(text: string) {
      const message = readPresenceMessage(text);
      if (message) void local.publish(message);
      else options.onBadMessage?.('a message on the presence channel is not one');
    },
  };
}

/** Resolves once the connection is ready; one listener per connection however many wait (a publish while Redis is away). */
const readyWaits = new WeakMap<Redis, Promise<void>>();
function ready(redis: Redis): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  let waiting = readyWaits.get(redis);
  if (!waiting) {
    waiting = new Promise<void>((resolve) =>
      redis.once('ready', () => {
        readyWaits.delete(redis);
        resolve();
      }),
    );
    readyWaits.set(redis, waiting);
  }
  return waiting;
}

/** While Redis is away a publish fails at once rather than waiting for it: the caller counts it as not sent. */
function withinConnectTime(waiting: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('Redis is not reachable: the live event was not published.')), 2000);
  });
  return Promise.race([waiting.then(() => undefined), late]).finally(() => clearTimeout(timer));
}

/** `<id> <json>`, checked like any input: Redis may be shared with other programs. */
function readMessage(message: string): SequencedEvent | undefined {
  const space = message.indexOf(' ');
  const id = message.slice(0, space);
  if (space < 1 || !/^\d+$/.test(id)) return undefined;
  try {
    const parsed = liveEventSchema.safeParse(JSON.parse(message.slice(space + 1)));
    return parsed.success ? { id, event: parsed.data } : undefined;
  } catch {
    return undefined;
  }
}
