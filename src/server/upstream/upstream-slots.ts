/**
 * Each user's requests to the KYC service under way at once, bounded (UPSTREAM_MAX_IN_FLIGHT_PER_USER):
 * the connections to the service are shared by everyone, and one user's hundreds of slow lookups would
 * otherwise hold them all while everybody else waits. A request over the bound waits its turn, first
 * come first served, for as long as the service itself would be waited for.
 */
export interface UpstreamSlots {
  /**
   * One of the user's slots: resolves a release function once one is free, or undefined when the wait
   * ended first (`signal`, or `maxWaitMs`). Release exactly once, when the service's answer is done with.
   * `behind`: a batch's row, which waits behind the user's own single lookups (a lookup the user is
   * looking at the screen for went after a whole batch's rows, and was refused as waiting too long).
   */
  acquire(key: string, maxWaitMs: number, signal?: AbortSignal, options?: { behind?: boolean }): Promise<(() => void) | undefined>;
}

interface Waiter {
  turn: () => void;
  behind: boolean;
}

interface UserSlots {
  busy: number;
  waiting: Waiter[];
}

/** `perUser` 0 turns the bound off. */
export function createUpstreamSlots(perUser: number): UpstreamSlots {
  const users = new Map<string, UserSlots>();
  const releaseFor = (key: string, slots: UserSlots) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = slots.waiting.shift();
      if (next) return next.turn(); // the slot passes on, still busy
      slots.busy -= 1;
      if (slots.busy === 0) users.delete(key);
    };
  };
  return {
    acquire(key, maxWaitMs, signal, options = {}) {
      if (perUser <= 0) return Promise.resolve(() => {});
      const slots = users.get(key) ?? { busy: 0, waiting: [] };
      users.set(key, slots);
      if (slots.busy < perUser) {
        slots.busy += 1;
        return Promise.resolve(releaseFor(key, slots));
      }
      if (signal?.aborted) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        const turn = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', giveUp);
          resolve(releaseFor(key, slots));
        };
        const giveUp = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', giveUp);
          const index = slots.waiting.indexOf(waiter);
          if (index !== -1) slots.waiting.splice(index, 1);
          resolve(undefined);
        };
        const timer = setTimeout(giveUp, maxWaitMs);
        signal?.addEventListener('abort', giveUp, { once: true });
        const waiter: Waiter = { turn, behind: options.behind === true };
        // First come first served, but a single lookup goes before every batch row still waiting.
        const firstBehind = waiter.behind ? -1 : slots.waiting.findIndex((other) => other.behind);
        if (firstBehind === -1) slots.waiting.push(waiter);
        else slots.waiting.splice(firstBehind, 0, waiter);
      });
    },
  };
}
