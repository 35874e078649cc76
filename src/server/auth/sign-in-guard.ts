/**
 * What stands between a password guesser and the users file: failures counted and slowed, locks, and a
 * limit on sign-ins checked at once.
 *
 * Failed sign-ins are counted per username at one client address and per client address: each failure
 * doubles the wait; ten for one username from one address, or fifty from one address, lock for 15 min.
 * (Per address too, not per username alone: anyone could otherwise lock any colleague out.)
 *
 * Sign-ins being checked: one at a time per username, a few per address (colleagues behind one NAT sign
 * in together), a few more in all: scrypt is slow on purpose, and parallel guesses must not slip past
 * the count of failures.
 */

export interface SignInGuardOptions {
  now: () => number;
  /** The wait after a first failed sign-in; it doubles with each further failure. */
  baseDelayMs: number;
}

export type Attempt<T> =
  | { ok: true; value: T }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number }
  | { ok: false; reason: 'busy' }
  | { ok: false; reason: 'failed' };

const WINDOW_MS = 15 * 60_000;
const MAX_DELAY_MS = 8000;
const IN_PROGRESS_LIMITS = { user: 1, address: 4, all: 8 };

export class SignInGuard {
  private readonly failures = new Map<string, { count: number; last: number }>();
  private readonly checking = new Map<string, number>();

  constructor(private readonly options: SignInGuardOptions) {}

  /**
   * Runs `check` (which verifies the password and gives what a sign-in yields, or undefined) unless the
   * username or address is locked or too many checks are running. A failure is counted, and its answer
   * held back, before it is returned.
   */
  async attempt<T>(username: string, clientAddress: string, check: () => Promise<T | undefined>): Promise<Attempt<T>> {
    const address = `address:${clientAddress}`;
    const user = `user:${username.toLowerCase()}`;
    const failureKeys = [`${user}|${address}`, address];
    const locked = this.lockedFor(failureKeys);
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
        const delay = this.fail(failureKeys);
        await new Promise((resolve) => setTimeout(resolve, delay));
        return { ok: false, reason: 'failed' };
      }
      this.failures.delete(failureKeys[0]!);
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

  private current(key: string) {
    const entry = this.failures.get(key);
    if (entry && this.options.now() - entry.last > WINDOW_MS) {
      this.failures.delete(key);
      return undefined;
    }
    return entry;
  }

  private lockedFor(keys: string[]): number {
    let seconds = 0;
    for (const key of keys) {
      const entry = this.current(key);
      if (entry && entry.count >= lockAfter(key)) {
        seconds = Math.max(seconds, Math.ceil((entry.last + WINDOW_MS - this.options.now()) / 1000));
      }
    }
    return seconds;
  }

  /** Records a failure and returns how long to hold the answer back. */
  private fail(keys: string[]): number {
    if (this.failures.size > 10_000) {
      for (const key of this.failures.keys()) this.current(key);
    }
    let count = 0;
    for (const key of keys) {
      const entry = this.current(key) ?? { count: 0, last: 0 };
      entry.count += 1;
      entry.last = this.options.now();
      this.failures.set(key, entry);
      count = Math.max(count, entry.count);
    }
    return Math.min(this.options.baseDelayMs * 2 ** (count - 1), MAX_DELAY_MS);
  }
}

function lockAfter(key: string): number {
  return key.startsWith('address:') ? 50 : 10;
}
