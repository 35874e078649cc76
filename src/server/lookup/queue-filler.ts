import type { Counter } from '../state/store.ts';
import type { QueueFacts } from '../state/queue-index-store.ts';
import type { QueueIndex, QueueKey } from '../state/queue-index.ts';
import type { QueueLookup } from './queue-lookup.ts';

/**
 * Fills the queue index's dates with status-level lookups, at a bounded rate: at most
 * `lookupsPerSecond` for the environment, counted in the shared store's counter (so with REDIS_URL the
 * bound holds for every instance together). The ids wanted are those a list showed without a known
 * date, at most `maxPending` of them (the newest wishes replace none: the first ones asked are looked
 * up first).
 */
export interface QueueFiller {
  /** The keys (`recordId:<id>` or `refId:<id>`) of candidates whose date the index lacks; looked up at the next rounds. */
  want(ids: readonly QueueKey[]): void;
  /** One round: as many lookups as the rate allows now; how many were made. */
  drain(): Promise<number>;
  pending(): number;
  close(): void;
}

export interface QueueFillerOptions {
  environment: string;
  index: QueueIndex;
  lookup: QueueLookup;
  /** Points per second, keyed by environment (0: no lookups at all). */
  counter: Counter | undefined;
  maxPending: number;
  /** How often a round runs while ids are wanted (default 1000 ms). */
  intervalMs?: number;
  /** Told of a round that failed (the shared store down): the next round tries again. */
  onError?: (error: unknown) => void;
  /**
   * The service asked to wait (its 429, remembered by the environment's upstream client): no round asks
   * it meanwhile, and a round told to wait puts its ids not yet looked up back, to be asked after it.
   */
  servicePaused?: () => boolean;
}

export function createQueueFiller(options: QueueFillerOptions): QueueFiller {
  const wanted = new Set<QueueKey>();
  // Asked of the service now: a list shown meanwhile still lacks their dates, and must not ask again.
  const asking = new Set<QueueKey>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<number> | undefined;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  const paused = () => options.servicePaused?.() === true;
  const round = async (): Promise<number> => {
    // While the service's wait lasts, the round takes no turn at all: the ids stay wanted, the timer runs on.
    if (paused()) return 0;
    const ids = await takeTurns(options, [...wanted]);
    for (const id of ids) {
      wanted.delete(id);
      asking.add(id);
    }
    const found = new Map<QueueKey, QueueFacts>();
    let asked = 0;
    try {
      for (const id of ids) {
        if (paused()) break;
        asked++;
        const facts = await options.lookup(id);
        if (facts) found.set(id, facts);
      }
      await options.index.record(options.environment, found);
    } finally {
      for (const id of ids) asking.delete(id);
    }
    // Told to wait during the round: the id whose lookup was refused, and those not asked, are asked after the wait.
    const again = paused() ? ids.slice(Math.max(0, asked - 1)).filter((id) => !found.has(id)) : [];
    for (const id of again) wanted.add(id);
    if (wanted.size === 0) stop();
    return asked;
  };
  const drain = () => {
    running ??= round().finally(() => {
      running = undefined;
    });
    return running;
  };
  return {
    want(ids) {
      if (!options.counter) return;
      for (const id of ids) {
        if (wanted.size >= options.maxPending) break;
        if (!asking.has(id)) wanted.add(id);
      }
      if (wanted.size > 0 && !timer) {
        timer = setInterval(() => void drain().catch((error: unknown) => options.onError?.(error)), options.intervalMs ?? 1000);
        timer.unref();
      }
    },
    drain,
    pending: () => wanted.size,
    close: stop,
  };
}

/** The ids this round may look up: one point of the environment's counter each, taken before any lookup. */
async function takeTurns(options: QueueFillerOptions, ids: QueueKey[]): Promise<QueueKey[]> {
  const turns: QueueKey[] = [];
  if (!options.counter) return turns;
  for (const id of ids) {
    const state = await options.counter.add(options.environment);
    if (state.refused) break;
    turns.push(id);
  }
  return turns;
}
