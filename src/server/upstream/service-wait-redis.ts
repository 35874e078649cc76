import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { subscriberConnection } from '../state/redis-subscriber.ts';
import { MAX_SERVICE_WAIT_SECONDS, type ServiceOperation, type SharedWaits } from './service-wait.ts';

export interface RedisWaitsOptions {
  /** Put before the keys and the channel's name (default `candidate-lookup:`, as the shared store's). */
  keyPrefix?: string;
  /** Told when a message on the channel could not be read (another program's, or a newer version's); it is ignored. */
  onBadMessage?: (detail: string) => void;
}

/**
 * The service's wait (its 429) shared by every instance on one Redis, per environment and operation (a
 * lookup's, the list's: service-wait.ts): when one instance is told to wait, every instance refuses to
 * send that operation until the wait ends (upstream/service-wait.ts).
 *
 * Why this shape. Each instance keeps its own `until` and asks only it before every request, as without
 * Redis: a comparison, never a Redis round trip on a lookup. Redis is written and read only when a wait
 * starts or an instance (re)connects:
 * - the told instance runs WAIT_SCRIPT: the wait is set as a key with that TTL (PX) only if it ends later
 *   than the one standing, and only then published on one channel; so no instance shortens another's
 *   wait, and a wait that changes nothing is not published (the told instance takes the standing one);
 * - every instance hears the channel (pub/sub) and moves its `until` on: a wait reaches the others in
 *   the time a message takes, instead of each learning it from a 429 of its own;
 * - an instance that connects, or connects again after Redis was away, reads the standing waits (the
 *   keys' PTTL), so that a wait published while it was not listening holds for it too.
 * Waits travel as "ms left from now", on Redis's clock (PTTL), never as a time of day: instances whose
 * clocks differ still end a wait together. A periodic read instead of pub/sub would either add Redis
 * round trips for nothing in the normal case, or let requests through until its next turn.
 *
 * Redis away: the told instance's own wait holds (it is kept before telling), telling fails at once
 * (nothing is queued: a wait told minutes late would be wrong), and nothing else fails for it; the other
 * instances learn the wait from their own 429, as without Redis.
 */
export function createRedisWaits(url: string, options: RedisWaitsOptions = {}): SharedWaits & { ready(): Promise<void> } {
  const prefix = options.keyPrefix ?? 'candidate-lookup:';
  const channel = `${prefix}service-wait`;
  // A lookup's wait keeps the key and message it had when the wait was the environment's: a mixed fleet
  // during an upgrade still shares it. The list's has a key of its own, and says so in its message.
  const keyOf = (name: WaitName) => `${prefix}${name.operation === 'list' ? 'service-list-wait' : 'service-wait'}:${name.environment}`;
  // This instance's own messages come back on its subscription; its wait is already kept.
  const origin = randomUUID();
  const { commands, subscriber, commandsUp } = connections(url, channel);
  const watchers = new Map<string, { name: WaitName; watchers: Array<(ms: number) => void> }>();
  const learned = (name: WaitName, ms: number) => {
    for (const watcher of watchers.get(keyOf(name))?.watchers ?? []) watcher(ms);
  };
  const readStanding = async (names: Iterable<WaitName>) => {
    if (commands.status !== 'ready') return;
    await Promise.all(
      [...names].map(async (name) => {
        const left = await commands.pttl(keyOf(name)).catch(() => -2);
        if (left > 0) learned(name, left);
      }),
    );
  };
  const firstRead = readOnEachConnection(commands, subscriber, () => readStanding([...watchers.values()].map((one) => one.name)));
  subscriber.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    const message = readMessage(text);
    if (!message) return options.onBadMessage?.('a message on the service-wait channel is not a wait');
    if (message.origin !== origin) learned(message, message.ms);
  });
  return {
    of: (environment, operation = 'lookup') => {
      const name: WaitName = { environment, operation };
      return {
        async tell(ms) {
          if (!(await commandsUp())) return;
          const wait = Math.ceil(ms);
          const text = JSON.stringify({ origin, environment, ms: wait, ...(operation === 'list' ? { operation } : {}) });
          const standing = await commands.eval(WAIT_SCRIPT, 1, keyOf(name), String(wait), channel, text).catch(() => 0);
          // A later wait was there already (told while this instance was not listening): it holds here too.
          if (typeof standing === 'number' && standing > 0) learned(name, standing);
        },
        watch(watcher) {
          const key = keyOf(name);
          watchers.set(key, { name, watchers: [...(watchers.get(key)?.watchers ?? []), watcher] });
          void readStanding([name]);
        },
      };
    },
    /** Settles once the standing waits were read after the first connection, or could not be (at most the connect timeout). */
    ready: () => Promise.race([firstRead, new Promise<void>((resolve) => setTimeout(resolve, CONNECT_TIMEOUT_MS).unref())]),
    async close() {
      commands.disconnect();
      subscriber.disconnect();
    },
  };
}

const CONNECT_TIMEOUT_MS = 2000;

/** Whose wait: an environment's, for one operation. */
interface WaitName {
  environment: string;
  operation: ServiceOperation;
}

/** As the shared store's: fail at once rather than queue, reconnect for ever, at most every 2 s. */
function connections(url: string, channel: string) {
  const options = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 2000,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (times: number) => Math.min(times * 100, 2000),
  };
  const commands = new Redis(url, options);
  // Subscribed on each connection before readOnEachConnection's read: its PING follows the SUBSCRIBE.
  const { subscriber } = subscriberConnection(url, options, [channel]);
  // Redis going away is said once by the shared store (api.ts); without listeners ioredis would print each retry.
  commands.on('error', () => undefined);
  subscriber.on('error', () => undefined);
  return { commands, subscriber, commandsUp: readiness(commands) };
}

/**
 * Whether the commands' connection can take a command now: at once when it is up or known to be down
 * (telling then fails at once, and the wait stays this instance's); only before the first connection has
 * been made or refused does it wait for it, at most the connect timeout.
 */
function readiness(redis: Redis): () => Promise<boolean> {
  let down = false;
  redis.on('ready', () => (down = false));
  redis.on('error', () => (down = true));
  redis.on('close', () => (down = true));
  return () => {
    if (redis.status === 'ready') return Promise.resolve(true);
    if (down || redis.status === 'end') return Promise.resolve(false);
    return new Promise((resolve) => {
      const settle = (up: boolean) => {
        clearTimeout(timer);
        redis.off('ready', onReady);
        redis.off('error', onFailed);
        redis.off('end', onFailed);
        resolve(up);
      };
      const onReady = () => settle(true);
      const onFailed = () => settle(false);
      const timer = setTimeout(onFailed, CONNECT_TIMEOUT_MS);
      redis.once('ready', onReady);
      redis.once('error', onFailed);
      redis.once('end', onFailed);
    });
  };
}

/**
 * Reads the standing waits after each (re)subscription: a PING on the subscriber's connection is
 * answered after its SUBSCRIBE (sent as it becomes ready), so the read misses nothing published before
 * the subscription began. Again when the commands' connection comes back after the subscriber's. The
 * promise settles after the first read, done or not.
 */
function readOnEachConnection(commands: Redis, subscriber: Redis, read: () => Promise<void>): Promise<void> {
  return new Promise((firstDone) => {
    subscriber.on('ready', () =>
      queueMicrotask(() => {
        subscriber
          .ping()
          .then(read)
          .catch(() => undefined)
          .finally(() => firstDone());
      }),
    );
    commands.on('ready', () => void read().catch(() => undefined));
  });
}

/**
 * The wait set only if it ends later than the one standing (PTTL: -2 without one), and published only
 * then: one script, so that two instances told at once cannot both see "none" and the shorter win.
 * Answers 0 when set, else the ms left of the standing wait.
 */
const WAIT_SCRIPT = `local left = redis.call('PTTL', KEYS[1])
local ms = tonumber(ARGV[1])
if left >= ms then return left end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ms)
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 0`;

const MAX_WAIT_MS = MAX_SERVICE_WAIT_SECONDS * 1000;

/**
 * `{"origin","environment","ms","operation"?}`, checked like any input: Redis may be shared with other
 * programs. A wait over the cap is cut to it. Without `operation` it is a lookup's (as every wait was
 * before the list's had its own); an operation this version does not know is no wait.
 */
function readMessage(text: string): (WaitName & { origin: string; ms: number }) | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null) return undefined;
  const { origin, environment, ms, operation = 'lookup' } = json as Record<string, unknown>;
  if (typeof origin !== 'string' || typeof environment !== 'string') return undefined;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0) return undefined;
  if (operation !== 'lookup' && operation !== 'list') return undefined;
  return { origin, environment, operation, ms: Math.min(ms, MAX_WAIT_MS) };
}
