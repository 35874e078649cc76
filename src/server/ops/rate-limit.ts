import type { SharedStore } from '../state/store.ts';

export type Take = { ok: true } | { ok: false; retryAfterSeconds: number };

/** Lookups (or batch ids) per key: the user, or the client address in local mode. */
export interface RateLimiter {
  /**
   * Takes `cost` at once (a batch reserves one per id), or nothing; says how long to wait when the
   * window has not enough left. Rejects with StoreUnavailableError when the store cannot be asked.
   */
  take(key: string, cost?: number): Promise<Take>;
  /** Gives `cost` taken back (never below none), for what was taken and then not used: a batch refused once its ids were read. */
  giveBack(key: string, cost: number): Promise<void>;
  /** What is left of the key's window now, and the seconds until it ends (the whole limit is back then), taking nothing. */
  peek(key: string): Promise<{ left: number; retryAfterSeconds: number }>;
  /** The most one take can ever get (Infinity when there is no limit). */
  readonly capacity: number;
}

export const NO_RATE_LIMIT: RateLimiter = {
  take: async () => ({ ok: true }),
  giveBack: async () => {},
  peek: async () => ({ left: Number.POSITIVE_INFINITY, retryAfterSeconds: 0 }),
  capacity: Number.POSITIVE_INFINITY,
};

/**
 * `perMinute` per key in a minute (counted from the key's first take), kept in the shared store: with
 * Redis the limit holds across every instance. `name` keeps limits apart. 0 turns it off.
 */
export function createRateLimiter(store: SharedStore, name: string, perMinute: number): RateLimiter {
  if (perMinute <= 0) return NO_RATE_LIMIT;
  const counter = store.counter({ name, limit: perMinute, windowSeconds: 60 });
  return {
    capacity: perMinute,
    async take(key, cost = 1) {
      const state = await counter.add(key, cost);
      if (!state.refused) return { ok: true };
      // All or nothing: what was refused does not count against what is left.
      await counter.subtract(key, cost);
      return { ok: false, retryAfterSeconds: state.retryAfterSeconds };
    },
    giveBack: (key, cost) => counter.subtract(key, cost),
    async peek(key) {
      const { count, retryAfterSeconds } = await counter.peek(key);
      return { left: Math.max(0, perMinute - count), retryAfterSeconds };
    },
  };
}
