import { addressKey } from '../http/connection-guard.ts';
import type { SignInFailures } from './sign-in-failures.ts';
import { type QueueLimits, SignInQueue } from './sign-in-queue.ts';

/**
 * What stands between a password guesser and the users file: failures counted and slowed, locks, and a
 * limit on sign-ins checked at once.
 *
 * Failed sign-ins are counted per username at one client and per client (in the shared store: see
 * sign-in-failures.ts): each failure doubles the wait; ten for one username from one client, or fifty
 * from one client, lock for 15 min. A client is an IPv4 address, or an IPv6 /64 (connection-guard.ts's
 * addressKey): one host holds a whole /64, and wrong passwords from rotating addresses of it, each new to
 * the counts, were never locked, and took every turn from a colleague (red team).
 *
 * Sign-ins being checked: one at a time per username, one or a few per client (colleagues behind one NAT
 * sign in together), a few more in all, fewer than libuv has threads (the audit writes need them too), as
 * scrypt is slow on purpose. Parallel guesses must not slip past the count of failures: each sign-in is
 * counted as a failure before it is checked, atomically in the shared store, so that this holds across
 * instances too (the queue alone is per process). A sign-in waits its turn rather than being refused, the
 * turns going round the clients waiting (sign-in-queue.ts), and the turn is given back before the wait
 * that follows a failure: guessing cannot jam a colleague's sign-in.
 */

export interface SignInGuardOptions {
  /** Where failures are counted: in the shared store, so that with Redis a lock holds on every instance. */
  failures: SignInFailures;
  /** The wait after a first failed sign-in; it doubles with each further failure. */
  baseDelayMs: number;
  /** Checks at once, and waiting for a turn (default: DEFAULT_QUEUE_LIMITS). */
  queue?: QueueLimits;
}

export type Attempt<T> =
  | { ok: true; value: T }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number }
  | { ok: false; reason: 'busy' }
  | { ok: false; reason: 'failed' };

const MAX_DELAY_MS = 8000;

export class SignInGuard {
  private readonly queue: SignInQueue;

  constructor(private readonly options: SignInGuardOptions) {
    this.queue = new SignInQueue(options.queue);
  }

  /** How many sign-ins wait their turn to be checked now. */
  get waiting(): number {
    return this.queue.waitingCount;
  }

  /**
   * Runs `check` (which verifies the password and gives what a sign-in yields, or undefined) unless the
   * username or address is locked, or no turn to check it comes soon enough. A failure is counted before
   * the turn is given back, and its answer held back after. Rejects with StoreUnavailableError when
   * failures cannot be counted: the sign-in then fails closed.
   */
  async attempt<T>(username: string, clientAddress: string, check: () => Promise<T | undefined>): Promise<Attempt<T>> {
    const address = `address:${addressKey(clientAddress)}`;
    const failureKeys = { user: `user:${username.toLowerCase()}|${address}`, address };
    const lockedBefore = await this.options.failures.lockedFor(failureKeys);
    if (lockedBefore > 0) return { ok: false, reason: 'locked', retryAfterSeconds: lockedBefore };
    const leave = await this.queue.enter(username, clientAddress);
    if (!leave) return { ok: false, reason: 'busy' };
    let value: T | undefined;
    let failures: number;
    try {
      // Counted before the check, atomically in the shared store: guesses checked at once, on this
      // instance or another, each take their own place in the count, and none past the lock is checked.
      const begun = await this.options.failures.begin(failureKeys);
      if (!begun.ok) return { ok: false, reason: 'locked', retryAfterSeconds: begun.retryAfterSeconds };
      failures = begun.count;
      try {
        value = await check();
      } catch (error) {
        await this.options.failures.abandon(failureKeys).catch(() => {});
        throw error;
      }
      if (value !== undefined) await this.options.failures.succeed(failureKeys);
    } finally {
      leave();
    }
    if (value !== undefined) return { ok: true, value };
    const delay = Math.min(this.options.baseDelayMs * 2 ** (failures - 1), MAX_DELAY_MS);
    await new Promise((resolve) => setTimeout(resolve, delay));
    return { ok: false, reason: 'failed' };
  }
}
