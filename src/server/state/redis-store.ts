import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { limiterOptions, StoreUnavailableError, wrapLimiter, type SharedStore } from './store.ts';

export interface RedisStoreOptions {
  /** Put before every key, so that one Redis can serve other things too (default `candidate-lookup:`). */
  keyPrefix?: string;
  /** A command that takes longer fails (the request then fails closed) rather than hanging (default 2000 ms). */
  commandTimeoutMs?: number;
  /** Told when Redis goes away and when it is back (once per change, not per retry). */
  onStateChange?: (state: 'up' | 'down', detail: string) => void;
}

/** How long the first commands wait for the first connection, and a connection attempt may take. */
const CONNECT_TIMEOUT_MS = 2000;

/**
 * Shared state in Redis (or Valkey) through ioredis. While Redis is unreachable every call fails at
 * once with `StoreUnavailableError` (no queueing, no waiting), and ioredis keeps reconnecting in the
 * background: the service recovers by itself when Redis returns.
 */
export function createRedisStore(url: string, options: RedisStoreOptions = {}): SharedStore {
  const prefix = options.keyPrefix ?? 'candidate-lookup:';
  const redis = new Redis(url, {
    // Fail closed and fast: a command is never held until Redis comes back, nor retried on a new connection.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 2000,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // Reconnect for ever, at most every 2 s.
    retryStrategy: (times) => Math.min(times * 100, 2000),
  });
  const ready = readiness(redis, watchState(redis, options.onStateChange));
  const call = async <T>(command: () => Promise<T>): Promise<T> => {
    await ready();
    try {
      return await command();
    } catch (error) {
      throw new StoreUnavailableError(error);
    }
  };

  return {
    kind: 'redis',
    counter: (spec) =>
      wrapLimiter(
        new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `${prefix}${spec.name}`,
          ...limiterOptions(spec),
          rejectIfRedisNotReady: true,
        }),
        spec,
        ready,
      ),
    async put(key, value, ttlMs) {
      await call(() => redis.set(prefix + key, value, 'PX', Math.max(1, Math.ceil(ttlMs))));
    },
    keep: async (key, value) => (await call(() => redis.set(prefix + key, value, 'NX'))) === 'OK',
    claim: async (key, value, ttlMs) =>
      (await call(() => redis.set(prefix + key, value, 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX'))) === 'OK',
    get: async (key) => (await call(() => redis.get(prefix + key))) ?? undefined,
    take: async (key) => (await call(() => redis.getdel(prefix + key))) ?? undefined,
    async delete(key) {
      await call(() => redis.del(prefix + key));
    },
    async ping() {
      try {
        return (await call(() => redis.ping())) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      redis.disconnect();
    },
  };
}

/**
 * Tells `onStateChange` when Redis goes away and when it is back (once per change, not per retry);
 * the answer says whether it is known to be down now.
 */
function watchState(redis: Redis, onStateChange: RedisStoreOptions['onStateChange']): () => boolean {
  let up: boolean | undefined;
  const report = (now: boolean, detail: string) => {
    if (up === now) return;
    // The first report is the start: only a failure is news then.
    if (up !== undefined || !now) onStateChange?.(now ? 'up' : 'down', detail);
    up = now;
  };
  redis.on('ready', () => report(true, 'connected'));
  // ioredis reports every failed attempt; without a listener it would print each one itself.
  redis.on('error', (error: NodeJS.ErrnoException) => report(false, error.code ?? error.message));
  redis.on('close', () => report(false, 'connection closed'));
  return () => up === false;
}

/**
 * Commands are never queued, so the first ones must wait for the first connection; once Redis is
 * known to be down, they fail at once.
 */
function readiness(redis: Redis, knownDown: () => boolean): () => Promise<void> {
  // One wait for the connection, shared by every command asked meanwhile: a burst of requests at start
  // adds two listeners in all, not two each.
  let waiting: Promise<void> | undefined;
  const wait = () =>
    new Promise<void>((resolve, reject) => {
      const settle = (error?: unknown) => {
        clearTimeout(timer);
        redis.off('ready', onReady);
        redis.off('error', settle);
        waiting = undefined;
        if (error) reject(new StoreUnavailableError(error));
        else resolve();
      };
      const onReady = () => settle();
      const timer = setTimeout(() => settle(new Error('no connection yet')), CONNECT_TIMEOUT_MS);
      redis.once('ready', onReady);
      redis.once('error', settle);
    });
  return () => {
    if (redis.status === 'ready') return Promise.resolve();
    if (knownDown() || redis.status === 'end') return Promise.reject(new StoreUnavailableError());
    waiting ??= wait();
    return waiting;
  };
}

/** `redis://user:secret@host:6379/0` as `redis://host:6379/0`: the password never reaches a log line. */
export function describeRedisUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}
