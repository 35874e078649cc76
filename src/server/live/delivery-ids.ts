import type { SharedStore } from '../state/store.ts';

/**
 * The guids of accepted webhook deliveries, kept 24 hours: the service delivers again when it is not
 * sure a delivery arrived, and a delivery seen twice must change nothing the second time. In Redis with
 * REDIS_URL (one SET NX for every instance), in a bounded map otherwise.
 */
export interface DeliveryIds {
  /** True when this guid of `environment` is new: it is remembered from now on. */
  claim(environment: string, guid: string): Promise<boolean>;
  /** Forgets a claim whose delivery was refused after all (its audit line could not be written), so that a retry is taken. */
  release(environment: string, guid: string): Promise<void>;
}

export const DELIVERY_ID_TTL_MS = 24 * 60 * 60 * 1000;
/** At most this many guids in memory (a day of 1 a second, with room): past it, the oldest go first. */
export const MAX_DELIVERY_IDS = 100_000;

const keyOf = (environment: string, guid: string) => `webhook-guid:${environment}:${guid}`;

/** In the shared store: with Redis, one delivery is accepted once across every instance. */
export function deliveryIdsIn(store: SharedStore): DeliveryIds {
  return {
    claim: (environment, guid) => store.claim(keyOf(environment, guid), '1', DELIVERY_ID_TTL_MS),
    release: (environment, guid) => store.delete(keyOf(environment, guid)),
  };
}

/**
 * In this process, at most `max` guids: every guid lives as long, so the map's insertion order is the
 * order they expire in, and the oldest is the first to go.
 */
export function deliveryIdsInMemory(options: { now?: () => number; max?: number } = {}): DeliveryIds {
  const now = options.now ?? Date.now;
  const max = options.max ?? MAX_DELIVERY_IDS;
  const expiries = new Map<string, number>();
  const forgetExpired = () => {
    for (const [key, expiresAt] of expiries) {
      if (expiresAt > now() && expiries.size <= max) return;
      expiries.delete(key);
    }
  };
  return {
    async claim(environment, guid) {
      const key = keyOf(environment, guid);
      forgetExpired();
      if (expiries.has(key)) return false;
      expiries.set(key, now() + DELIVERY_ID_TTL_MS);
      if (expiries.size > max) forgetExpired();
      return true;
    },
    async release(environment, guid) {
      expiries.delete(keyOf(environment, guid));
    },
  };
}

/** Where the server keeps them: Redis when the shared store is Redis, this process otherwise. */
export function deliveryIdsFor(store: SharedStore): DeliveryIds {
  return store.kind === 'redis' ? deliveryIdsIn(store) : deliveryIdsInMemory();
}
