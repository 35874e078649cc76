import type { Counter, SharedStore } from '../state/store.ts';

/** Failures are counted over this window; the key that reaches its limit is locked this long from then. */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

/** A key for one username tried from one client, and a key for everything one client tries. */
export interface SignInKeys {
  user: string;
  address: string;
}

/** A sign-in about to be checked: counted as a failure already, or refused because a key is locked. */
export type Begun = { ok: true; count: number } | { ok: false; retryAfterSeconds: number };

export interface SignInFailures {
  /** Seconds until the keys may try again; 0 when neither is locked. */
  lockedFor(keys: SignInKeys): Promise<number>;
  /**
   * Counts the sign-in about to be checked as a failure on both keys, before it is checked: the store
   * counts atomically, so guesses checked at once on several instances each take their own place in the
   * count, and none past the limit is checked. Gives the larger count (the wait before answering grows
   * with it), or the lock when this one is past it.
   */
  begin(keys: SignInKeys): Promise<Begun>;
  /** A success after all: the username's failures from that client are forgotten, the address's point given back. */
  succeed(keys: SignInKeys): Promise<void>;
  /** The check could not be made (it threw): the point taken by `begin` is given back on both keys. */
  abandon(keys: SignInKeys): Promise<void>;
}

/**
 * Failed sign-ins in the shared store, so that a lock holds on every instance: ten for one username from
 * one client, or fifty from one client, lock for 15 minutes (a client: an IPv4 address or an IPv6 /64, as
 * sign-in-guard.ts keys them). (Per client too, not per username alone: anyone could otherwise lock any
 * colleague out.) Every method rejects with
 * `StoreUnavailableError` when the store cannot be asked: sign-in then fails closed.
 */
export function createSignInFailures(store: SharedStore, limits = { user: 10, address: 50 }): SignInFailures {
  // rate-limiter-flexible refuses the point after the limit, and blocks from then: a limit one below
  // the failures allowed locks at exactly that failure.
  const counter = (name: string, failures: number): Counter =>
    store.counter({ name, limit: failures - 1, windowSeconds: SIGN_IN_WINDOW_SECONDS, blockSeconds: SIGN_IN_WINDOW_SECONDS });
  const byUser = counter('sign-in-user', limits.user);
  const byAddress = counter('sign-in-address', limits.address);
  return {
    async lockedFor(keys) {
      const [user, address] = await Promise.all([byUser.peek(keys.user), byAddress.peek(keys.address)]);
      return Math.max(user.refused ? user.retryAfterSeconds : 0, address.refused ? address.retryAfterSeconds : 0);
    },
    async begin(keys) {
      const [user, address] = await Promise.all([byUser.add(keys.user), byAddress.add(keys.address)]);
      // The store refuses the point that locks (see above), but that failure is still one of those allowed.
      const over = [user.count > limits.user ? user : undefined, address.count > limits.address ? address : undefined];
      const retryAfterSeconds = Math.max(...over.map((state) => state?.retryAfterSeconds ?? 0));
      if (over.some(Boolean)) return { ok: false, retryAfterSeconds: Math.max(1, retryAfterSeconds) };
      return { ok: true, count: Math.max(user.count, address.count) };
    },
    async succeed(keys) {
      await Promise.all([byUser.reset(keys.user), byAddress.subtract(keys.address)]);
    },
    async abandon(keys) {
      await Promise.all([byUser.subtract(keys.user), byAddress.subtract(keys.address)]);
    },
  };
}
