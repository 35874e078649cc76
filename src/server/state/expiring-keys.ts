/**
 * Keys kept for a while in this process, at most `max` of them (the opened candidates, the webhook
 * deliveries' ids, when the shared store is not Redis). Kept keys all live as long, so the map's insertion
 * order is the order they expire in (a key set again moves to the end), and the oldest is the first to go.
 */
export interface ExpiringKeys {
  /** Whether `key` is kept and has not expired. */
  live(key: string): boolean;
  /** `key` kept `ttlMs` from now, as the newest. */
  set(key: string, ttlMs: number): void;
  delete(key: string): void;
  /** The expired keys let go, and the oldest past `max`. */
  forgetExpired(): void;
  readonly size: number;
}

export function expiringKeys(max: number, now: () => number): ExpiringKeys {
  const expiries = new Map<string, number>();
  return {
    live: (key) => (expiries.get(key) ?? 0) > now(),
    set(key, ttlMs) {
      expiries.delete(key);
      expiries.set(key, now() + ttlMs);
    },
    delete(key) {
      expiries.delete(key);
    },
    forgetExpired() {
      for (const [key, expiresAt] of expiries) {
        if (expiresAt > now() && expiries.size <= max) return;
        expiries.delete(key);
      }
    },
    get size() {
      return expiries.size;
    },
  };
}
