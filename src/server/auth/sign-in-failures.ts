import type { Counter, SharedStore } from '../state/store.ts';

/** Failures are counted over this window; the key that reaches its limit is locked this long from then. */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

/** A key for one username tried from one client, and a key for everything one client tries. */
export interface SignInKeys {
  user: string;
  address: string;
}

export interface SignInFailures {
  /** Seconds until the keys may try again; 0 when neither is locked. */
  lockedFor(keys: SignInKeys): Promise<number>;
  /** Counts a failure on both keys; returns the larger count (the wait before answering grows with it). */
  fail(keys: SignInKeys): Promise<number>;
  /** A success forgets the username's failures from that client. */
  succeed(keys: SignInKeys): Promise<void>;
}

/**
 * Failed sign-ins in the shared store, so that a lock holds on every instance: ten for one username from
 * one client address, or fifty from one address, lock for 15 minutes. (Per address too, not per username
 * alone: anyone could otherwise lock any colleague out.) Every method rejects with
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
    async fail(keys) {
      const [user, address] = await Promise.all([byUser.add(keys.user), byAddress.add(keys.address)]);
      return Math.max(user.count, address.count);
    },
    async succeed(keys) {
      await byUser.reset(keys.user);
    },
  };
}
