/**
 * Turns to check a sign-in. scrypt is slow on purpose, and guesses for one username must be checked one
 * at a time so that none slips past the count of failures; so only a few checks run at once: one per
 * username, a few per client address, a few more in all. A sign-in that finds no free turn waits for
 * one, in arrival order, instead of being refused: a guesser cannot keep a colleague's sign-in out by
 * keeping a turn busy. A turn is held for the password check only, never for the wait that follows a
 * failure. To keep one client from filling the line, each address may have only a few sign-ins waiting,
 * and none waits longer than a few seconds.
 */
export interface QueueLimits {
  /** Checks at once per username, per client address, and in all. */
  user: number;
  address: number;
  all: number;
  /** Sign-ins of one client address that may wait for a turn; more are refused at once. */
  waitingPerAddress: number;
  /** A sign-in that has not had its turn by then is refused. */
  maxWaitMs: number;
}

export const DEFAULT_QUEUE_LIMITS: QueueLimits = { user: 1, address: 4, all: 8, waitingPerAddress: 8, maxWaitMs: 10_000 };

/** Ends a turn; call it exactly once. */
export type Leave = () => void;

interface Waiter {
  keys: Keys;
  admit: (leave: Leave | undefined) => void;
  timer: NodeJS.Timeout;
}

interface Keys {
  user: string;
  address: string;
}

export class SignInQueue {
  private readonly running = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limits: QueueLimits = DEFAULT_QUEUE_LIMITS) {}

  /** How many sign-ins wait for a turn now. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /** A turn for `username` from `address`: at once if one is free and nobody waits, else when it comes; undefined if it does not. */
  enter(username: string, address: string): Promise<Leave | undefined> {
    const keys = { user: `user:${username.toLowerCase()}`, address: `address:${address}` };
    if (this.waiting.length === 0 && this.free(keys)) return Promise.resolve(this.start(keys));
    if (this.waiting.filter((w) => w.keys.address === keys.address).length >= this.limits.waitingPerAddress) {
      return Promise.resolve(undefined);
    }
    return new Promise((admit) => {
      const waiter: Waiter = {
        keys,
        admit,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          admit(undefined);
        }, this.limits.maxWaitMs),
      };
      this.waiting.push(waiter);
    });
  }

  private free(keys: Keys): boolean {
    return (
      this.count(keys.user) < this.limits.user && this.count(keys.address) < this.limits.address && this.count('all') < this.limits.all
    );
  }

  private count(key: string): number {
    return this.running.get(key) ?? 0;
  }

  private add(keys: Keys, delta: number): void {
    for (const key of [keys.user, keys.address, 'all']) {
      const count = this.count(key) + delta;
      if (count > 0) this.running.set(key, count);
      else this.running.delete(key);
    }
  }

  private start(keys: Keys): Leave {
    this.add(keys, +1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.add(keys, -1);
      this.admitWaiting();
    };
  }

  /** In arrival order, every waiting sign-in whose username and address now have a free turn. */
  private admitWaiting(): void {
    for (let index = 0; index < this.waiting.length; ) {
      const waiter = this.waiting[index]!;
      if (!this.free(waiter.keys)) {
        index++;
        continue;
      }
      this.waiting.splice(index, 1);
      clearTimeout(waiter.timer);
      waiter.admit(this.start(waiter.keys));
    }
  }
}
