import { addressKey } from '../http/connection-guard.ts';

/**
 * Turns to check a sign-in. scrypt is slow on purpose, and guesses for one username must be checked one
 * at a time so that none slips past the count of failures; so only a few checks run at once: one per
 * username, one or a few per client (an IPv4 address, or an IPv6 /64: one host holds a whole /64, and
 * rotating through it must not make one client many), a few more in all. A sign-in that finds no free
 * turn waits for one instead of being refused: a guesser cannot keep a colleague's sign-in out by keeping
 * a turn busy. The turns go round the clients waiting, one each, in arrival order within a client: one
 * client's line, however long, does not hold up another client's sign-in. A turn is held for the password
 * check only, never for the wait that follows a failure. To keep one client from filling the line, each
 * may have only a few sign-ins waiting, and none waits longer than a few seconds.
 */
export interface QueueLimits {
  /** Checks at once per username, per client (an IPv4 address or an IPv6 /64), and in all. */
  user: number;
  address: number;
  all: number;
  /** Sign-ins of one client that may wait for a turn; more are refused at once. */
  waitingPerAddress: number;
  /** A sign-in that has not had its turn by then is refused. */
  maxWaitMs: number;
}

/**
 * scrypt runs in libuv's thread pool (four threads: the project never sets `UV_THREADPOOL_SIZE`), as do
 * the audit log's writes and every other file call: two checks at once, one per client, leave two threads
 * to them. Eight at once took all four, and a flood of wrong passwords held every audit write, and every
 * lookup with it, behind scrypt (red team).
 */
// Sixteen of a client may wait (a check is about 100 ms): an office behind one NAT address or one IPv6 /64
// signing in at nine o'clock is one client, checked one at a time.
export const DEFAULT_QUEUE_LIMITS: QueueLimits = { user: 1, address: 1, all: 2, waitingPerAddress: 16, maxWaitMs: 10_000 };

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
  // Each client's line, in the order their turns come round (a Map keeps the order it was given).
  private readonly lines = new Map<string, Waiter[]>();
  private waiting = 0;

  constructor(private readonly limits: QueueLimits = DEFAULT_QUEUE_LIMITS) {}

  /** How many sign-ins wait for a turn now. */
  get waitingCount(): number {
    return this.waiting;
  }

  /** A turn for `username` from `address`: at once if one is free, else when it comes; undefined if it does not. */
  enter(username: string, address: string): Promise<Leave | undefined> {
    const keys = { user: `user:${username.toLowerCase()}`, address: `address:${addressKey(address)}` };
    // Nobody waiting could take a free turn (they are given out as soon as they are free): taking it skips nobody.
    if (this.free(keys)) return Promise.resolve(this.start(keys));
    const line = this.lines.get(keys.address) ?? [];
    if (line.length >= this.limits.waitingPerAddress) return Promise.resolve(undefined);
    return new Promise((admit) => {
      const waiter: Waiter = {
        keys,
        admit,
        timer: setTimeout(() => {
          this.remove(waiter);
          admit(undefined);
        }, this.limits.maxWaitMs),
      };
      line.push(waiter);
      this.lines.set(keys.address, line);
      this.waiting += 1;
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

  /** Out of its client's line; a line left empty leaves the round. */
  private remove(waiter: Waiter): void {
    const line = this.lines.get(waiter.keys.address);
    const at = line?.indexOf(waiter) ?? -1;
    if (!line || at === -1) return;
    line.splice(at, 1);
    if (line.length === 0) this.lines.delete(waiter.keys.address);
    this.waiting -= 1;
  }

  /**
   * While a turn is free: the next client in the round with a sign-in whose username and client have a
   * free turn gives its first such sign-in the turn, and goes to the back of the round.
   */
  private admitWaiting(): void {
    for (let waiter = this.next(); waiter; waiter = this.next()) {
      const { address } = waiter.keys;
      const line = this.lines.get(address)!;
      this.remove(waiter);
      // The client goes to the back of the round, with what it has left in line.
      if (this.lines.delete(address)) this.lines.set(address, line);
      clearTimeout(waiter.timer);
      waiter.admit(this.start(waiter.keys));
    }
  }

  private next(): Waiter | undefined {
    if (this.count('all') >= this.limits.all) return undefined;
    for (const line of this.lines.values()) {
      const waiter = line.find((one) => this.free(one.keys));
      if (waiter) return waiter;
    }
    return undefined;
  }
}
