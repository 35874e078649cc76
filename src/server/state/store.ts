import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * The state several instances must share: sessions, sign-ins in progress, sign-in failure counts and
 * rate-limit windows, and facts kept for good (a key seen to archive after extract). In memory for one
 * process (the default), in Redis with REDIS_URL. Narrow on purpose: records with a lifetime, facts and
 * counters over a window, nothing else.
 */
export interface SharedStore {
  readonly kind: 'memory' | 'redis';
  /** A counter per key over a fixed window, backed by rate-limiter-flexible. */
  counter(spec: CounterSpec): Counter;
  /** Stores a value for `ttlMs` (replacing any earlier one). */
  put(key: string, value: string, ttlMs: number): Promise<void>;
  /** Stores a value for good unless the key holds one: true when this call stored it (the first one stays). */
  keep(key: string, value: string): Promise<boolean>;
  get(key: string): Promise<string | undefined>;
  /** Stores a value for `ttlMs` unless the key holds one: true when this call stored it (SET NX PX; a webhook's guid). */
  claim(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Reads and removes in one step: a value taken once cannot be taken again, on any instance. */
  take(key: string): Promise<string | undefined>;
  delete(key: string): Promise<void>;
  /** Whether the store answers now (for readiness checks); never throws. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface CounterSpec {
  /** Part of every key: counters with different names never meet. */
  name: string;
  /** How many points the window holds; `add` beyond that is refused. */
  limit: number;
  windowSeconds: number;
  /** Once the limit is passed, the key stays refused this long from then (default: to the window's end). */
  blockSeconds?: number;
}

export interface CounterState {
  /** Points counted in the current window, including this call's. */
  count: number;
  /** The limit is passed: what was asked is refused. */
  refused: boolean;
  /** Seconds until the window ends (at least 1 when refused, 0 when nothing is counted). */
  retryAfterSeconds: number;
}

export interface Counter {
  /** Counts `points` more (default 1). */
  add(key: string, points?: number): Promise<CounterState>;
  /** The current count, adding nothing. */
  peek(key: string): Promise<CounterState>;
  /** Takes points back (a sign-in that succeeded after all). */
  subtract(key: string, points?: number): Promise<void>;
  reset(key: string): Promise<void>;
}

/**
 * The shared store could not be asked: whatever needed it fails closed (HTTP 503 `store_unavailable`)
 * and works again once the store is back.
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
  constructor(cause?: unknown) {
    super('The shared state store (Redis) cannot be reached.', { cause });
  }
}

/** One instance, nothing shared: records in a Map, counters in rate-limiter-flexible's memory store. */
export function createMemoryStore(options: { now?: () => number } = {}): SharedStore {
  const now = options.now ?? Date.now;
  const records = new Map<string, { value: string; expiresAt: number }>();
  const live = (key: string) => {
    const record = records.get(key);
    if (record && record.expiresAt <= now()) {
      records.delete(key);
      return undefined;
    }
    return record;
  };
  const prune = () => {
    for (const key of records.keys()) live(key);
  };
  let puts = 0;
  return {
    kind: 'memory',
    counter: (spec) => wrapLimiter(new RateLimiterMemory({ keyPrefix: spec.name, ...limiterOptions(spec) }), spec),
    async put(key, value, ttlMs) {
      // Expired records go now and then, so that abandoned sessions do not pile up.
      if (++puts % 1000 === 0 || records.size > 10_000) prune();
      records.set(key, { value, expiresAt: now() + ttlMs });
    },
    async keep(key, value) {
      if (live(key)) return false;
      records.set(key, { value, expiresAt: Number.POSITIVE_INFINITY });
      return true;
    },
    get: async (key) => live(key)?.value,
    async claim(key, value, ttlMs) {
      if (live(key)) return false;
      records.set(key, { value, expiresAt: now() + ttlMs });
      return true;
    },
    async take(key) {
      const value = live(key)?.value;
      records.delete(key);
      return value;
    },
    async delete(key) {
      records.delete(key);
    },
    ping: async () => true,
    async close() {
      records.clear();
    },
  };
}

/** rate-limiter-flexible's options for a counter: `points` in `duration`, blocked for `blockDuration`. */
export function limiterOptions(spec: CounterSpec) {
  return { points: spec.limit, duration: spec.windowSeconds, blockDuration: spec.blockSeconds ?? 0 };
}

/**
 * rate-limiter-flexible's limiters, memory or Redis, behind `Counter`: over the limit becomes a state
 * rather than a rejection, and a store failure becomes `StoreUnavailableError`.
 */
export function wrapLimiter(limiter: RateLimiterAbstract, spec: CounterSpec, ready: () => Promise<void> = async () => {}): Counter {
  const stateOf = (res: RateLimiterRes | null, refused: boolean): CounterState => {
    // The memory store may hand back a window that has just ended (its timer has not run yet).
    if (!res || res.msBeforeNext <= 0) return { count: 0, refused: false, retryAfterSeconds: 0 };
    return { count: res.consumedPoints, refused, retryAfterSeconds: Math.max(refused ? 1 : 0, Math.ceil(res.msBeforeNext / 1000)) };
  };
  const storeCall = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      await ready();
      return await call();
    } catch (error) {
      if (error instanceof RateLimiterRes || error instanceof StoreUnavailableError) throw error;
      throw new StoreUnavailableError(error);
    }
  };
  return {
    async add(key, points = 1) {
      try {
        return stateOf(await storeCall(() => limiter.consume(key, points)), false);
      } catch (error) {
        if (error instanceof RateLimiterRes) return stateOf(error, true);
        throw error;
      }
    },
    async peek(key) {
      const state = stateOf(await storeCall(() => limiter.get(key)), false);
      return { ...state, refused: state.count > spec.limit };
    },
    async subtract(key, points = 1) {
      // Never below zero: taking back from a window that has ended would open a window of credit.
      const current = stateOf(await storeCall(() => limiter.get(key)), false);
      if (current.count > 0) await storeCall(() => limiter.reward(key, Math.min(points, current.count)));
    },
    async reset(key) {
      await storeCall(() => limiter.delete(key));
    },
  };
}
