import { createHash } from 'node:crypto';
import type { WebhookDelivery } from '../../kyc/contract/live-events.ts';
import type { SharedStore } from '../state/store.ts';
import { expiringKeys } from '../state/expiring-keys.ts';

/**
 * The accepted webhook deliveries, by key (`deliveryKeyOf`), kept 24 hours: the service delivers again
 * when it is not sure a delivery arrived, and a delivery seen twice must change nothing the second time.
 * In Redis with REDIS_URL (one SET NX for every instance), in a bounded map otherwise.
 */
export interface DeliveryIds {
  /** True when this key of `environment` is new: it is remembered from now on, for `ttlMs` (default 24 h). */
  claim(environment: string, key: string, ttlMs?: number): Promise<boolean>;
  /** Remembers a claimed key for 24 h from now (its delivery was queued). */
  keep(environment: string, key: string): Promise<void>;
  /** Forgets a claim whose delivery was refused after all (its audit line could not be written), so that a retry is taken. */
  release(environment: string, key: string): Promise<void>;
}

export const DELIVERY_ID_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long the receiver's claim holds before its delivery is queued (issue 32): then it is kept 24 h.
 * When the queue cannot take the delivery the claim is released; if Redis cannot even be told that, the
 * claim still ends this soon, and the service's retry after it is taken, not called a duplicate.
 */
export const PENDING_CLAIM_MS = 30_000;
/** At most this many keys in memory (a day of 1 a second, with room): past it, the oldest go first. */
export const MAX_DELIVERY_IDS = 100_000;

/**
 * What makes a delivery the same one again, as 64 hex digits whatever the ids' lengths: the service's
 * `X-Blockpass-Delivery` when it sends one (the same on every retry), else the body's guid, event,
 * status and ids together. The guid alone is not enough: the service's own documented samples reuse one
 * guid for `user.created` and then `user.readyToReview`, and the second would be taken for a retry of the
 * first. The guid is documented as a copy of the delivery id, so the event goes with the delivery id too:
 * a retry always repeats its event, and a delivery id reused as the guid was is not a reason to drop an
 * event. The parts are hashed as a JSON array, so no two different lists of parts give the same text.
 */
export function deliveryKeyOf(delivery: WebhookDelivery, deliveryHeader: string | string[] | undefined): string {
  const id = typeof deliveryHeader === 'string' ? deliveryHeader.trim() : '';
  const parts = id
    ? ['delivery', id, delivery.event]
    : ['body', delivery.guid, delivery.event, delivery.status ?? null, delivery.recordId || null, delivery.refId || null];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

const keyOf = (environment: string, key: string) => `webhook-delivery:${environment}:${key}`;

/** In the shared store: with Redis, one delivery is accepted once across every instance. */
export function deliveryIdsIn(store: SharedStore): DeliveryIds {
  return {
    claim: (environment, key, ttlMs = DELIVERY_ID_TTL_MS) => store.claim(keyOf(environment, key), '1', ttlMs),
    keep: (environment, key) => store.put(keyOf(environment, key), '1', DELIVERY_ID_TTL_MS),
    release: (environment, key) => store.delete(keyOf(environment, key)),
  };
}

/**
 * In this process, at most `max` keys. A key is claimed for a moment and kept (24 h) once its delivery is
 * queued, or released: in this process neither can fail, so the kept keys all live as long, the map's
 * insertion order is the order they expire in, and the oldest is the first to go.
 */
export function deliveryIdsInMemory(options: { now?: () => number; max?: number } = {}): DeliveryIds {
  const now = options.now ?? Date.now;
  const max = options.max ?? MAX_DELIVERY_IDS;
  const kept = expiringKeys(max, now);
  return {
    async claim(environment, key, ttlMs = DELIVERY_ID_TTL_MS) {
      const stored = keyOf(environment, key);
      kept.forgetExpired();
      if (kept.live(stored)) return false;
      kept.set(stored, ttlMs);
      if (kept.size > max) kept.forgetExpired();
      return true;
    },
    async keep(environment, key) {
      kept.set(keyOf(environment, key), DELIVERY_ID_TTL_MS);
    },
    async release(environment, key) {
      kept.delete(keyOf(environment, key));
    },
  };
}

/** Where the server keeps them: Redis when the shared store is Redis, this process otherwise. */
export function deliveryIdsFor(store: SharedStore): DeliveryIds {
  return store.kind === 'redis' ? deliveryIdsIn(store) : deliveryIdsInMemory();
}
