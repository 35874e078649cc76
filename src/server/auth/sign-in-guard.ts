import type { SignInFailures } from './sign-in-failures.ts';

/**
 * What stands between a password guesser and the users file: failures counted and slowed, locks, and a
 * limit on sign-ins checked at once.
 *
 * Failed sign-ins are counted per username at one client address and per client address (in the shared
 * store: see sign-in-failures.ts): each failure doubles the wait; ten for one username from one address,
 * or fifty from one address, lock for 15 min.
 *
 * Sign-ins being checked: one at a time per username, a few per address (colleagues behind one NAT sign
 * in together), a few more in all: scrypt is slow on purpose, and parallel guesses must not slip past
 * the count of failures.
 */

export interface SignInGuardOptions {
  /** Where failures are counted: in the shared store, so that with Redis a lock holds on every instance. */
  failures: SignInFailures;
  /** The wait after a first failed sign-in; it doubles with each further failure. */
  baseDelayMs: number;
}

export type Attempt<T> =
  | { ok: true; value: T }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number }
  | { ok: false; reason: 'busy' }
  | { ok: false; reason: 'failed' };

const MAX_DELAY_MS = 8000;
const IN_PROGRESS_LIMITS = { user: 1, address: 4, all: 8 };

export class SignInGuard {
  private readonly checking = new Map<string, number>();

  constructor(private readonly options: SignInGuardOptions) {}

  /**
   * Runs `check` (which verifies the password and gives what a sign-in yields, or undefined) unless the
   * username or address is locked or too many checks are running. A failure is counted, and its answer
   * held back, before it is returned. Rejects with StoreUnavailableError when failures cannot be
   * counted: the sign-in then fails closed.
   */
  async attempt<T>(username: string, clientAddress: string, check: () => Promise<T | undefined>): Promise<Attempt<T>> {
    const address = `address:${clientAddress}`;
    const user = `user:${username.toLowerCase()}`;
    const failureKeys = { user: `${user}|${address}`, address };
    const locked = await this.options.failures.lockedFor(failureKeys);
    if (locked > 0) return { ok: false, reason: 'locked', retryAfterSeconds: locked };
    const held = [user, address, 'all'];
    if (
      this.busy(user) >= IN_PROGRESS_LIMITS.user ||
      this.busy(address) >= IN_PROGRESS_LIMITS.address ||
      this.busy('all') >= IN_PROGRESS_LIMITS.all
    ) {
      return { ok: false, reason: 'busy' };
    }
    this.hold(held, +1);
    try {
      const value = await check();
      if (value === undefined) {
        const count = await this.options.failures.fail(failureKeys);
        const delay = Math.min(this.options.baseDelayMs * 2 ** (count - 1), MAX_DELAY_MS);
        await new Promise((resolve) => setTimeout(resolve, delay));
        return { ok: false, reason: 'failed' };
      }
      await this.options.failures.succeed(failureKeys);
      return { ok: true, value };
    } finally {
      this.hold(held, -1);
    }
  }

  private busy(key: string): number {
    return this.checking.get(key) ?? 0;
  }

  private hold(keys: string[], delta: number): void {
    for (const key of keys) {
      const count = this.busy(key) + delta;
      if (count > 0) this.checking.set(key, count);
      else this.checking.delete(key);
    }
  }
}
