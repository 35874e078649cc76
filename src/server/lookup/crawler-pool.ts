import type { ServiceOperation } from '../upstream/service-wait.ts';

/**
 * The crawler's requests to the service (queue-crawler.ts), several at once and paced: at most
 * `perSecond` started a second, evenly (one every 1000/perSecond ms, not a burst at each second's
 * start), at most `concurrency` under way, none while the service's wait of their operation lasts (its
 * 429: the upstream client's `pausedUntil`, service-wait.ts), nor during the crawler's own rest after a
 * 429 (limited). Pages of the list go before lookups: the list says what exists, a lookup only dates one
 * row. A job that says RETRY (it was not sent: the wait began, no slot was free) is queued again at the
 * front, after a short rest.
 */

export const RETRY = Symbol('retry');

export interface CrawlClock {
  now(): number;
  /** Resolves after `ms` (or at once when `signal` is aborted). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: CrawlClock = {
  now: Date.now,
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(done, Math.max(0, ms));
      timer.unref();
      signal?.addEventListener('abort', done, { once: true });
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
    }),
};

export interface PoolOptions {
  perSecond: number;
  concurrency: number;
  clock: CrawlClock;
  /** Until when the service asked to be left alone with an operation (ms on `clock`). */
  pausedUntil: (operation: ServiceOperation) => number;
  /** Stops every job not started: each resolves undefined. */
  signal: AbortSignal;
  /** The rest after a RETRY when no wait was asked for (default 1000 ms). */
  retryMs?: number;
  onError?: (error: unknown) => void;
}

type Priority = 'page' | 'lookup';
/** What each kind of job asks the service: a page of its list, or a lookup. */
const OPERATION: Record<Priority, ServiceOperation> = { page: 'list', lookup: 'lookup' };

/**
 * The crawler's rest after a 429, past the service's own wait: 5 s after the first in a row, doubled
 * after each next one, at most 5 minutes (the longest wait the service is obeyed for), each cut by a
 * random part of up to half. Asking again the moment the service's wait ended, a list that answered
 * 429 for ever was asked at every end, and no one else got a turn; and several instances' crawlers, or
 * one's requests under way, no longer come back at the same moment.
 */
const REST_FIRST_MS = 5000;
const REST_LONGEST_MS = 300_000;
interface Job {
  run: () => Promise<unknown>;
  settle: (value: unknown) => void;
}

export class CrawlPool {
  private readonly queues: Record<Priority, Job[]> = { page: [], lookup: [] };
  private workers = 0;
  private nextTurn = 0;
  /** Per kind of job: the 429s answered in a row, and until when the crawler rests (ms on `clock`). */
  private readonly rests: Record<Priority, { inARow: number; until: number }> = {
    page: { inARow: 0, until: 0 },
    lookup: { inARow: 0, until: 0 },
  };
  private readonly options: PoolOptions;

  constructor(options: PoolOptions) {
    this.options = options;
    options.signal.addEventListener('abort', () => {
      for (const queue of Object.values(this.queues)) for (const job of queue.splice(0)) job.settle(undefined);
    });
  }

  /** Jobs waiting or under way. */
  get pending(): number {
    return this.queues.page.length + this.queues.lookup.length + this.workers;
  }

  /**
   * The service answered one of these jobs 429 (told from inside the job, before its worker takes the
   * next): the crawler rests past the service's wait, longer than after the last one. A 429 that comes
   * during a rest was asked before it began: it adds nothing.
   */
  limited(priority: Priority): void {
    const rest = this.rests[priority];
    const now = this.options.clock.now();
    if (rest.until > now) return;
    rest.inARow++;
    const step = Math.min(REST_LONGEST_MS, REST_FIRST_MS * 2 ** (rest.inARow - 1));
    rest.until = Math.max(now, this.options.pausedUntil(OPERATION[priority])) + step * (1 - Math.random() / 2);
  }

  /** When the next of these jobs may be sent: past the service's wait and the crawler's rest. */
  restUntil(priority: Priority): number {
    return Math.max(this.options.pausedUntil(OPERATION[priority]), this.rests[priority].until);
  }

  /** The service answered one of these jobs: the next 429 starts from the shortest rest again. */
  answered(priority: Priority): void {
    this.rests[priority].inARow = 0;
  }

  /** Runs `run` in its turn; its answer (RETRY: run again later), or undefined once the pool is stopped. */
  run<T>(priority: Priority, run: () => Promise<T | typeof RETRY>): Promise<T | undefined> {
    if (this.options.signal.aborted) return Promise.resolve(undefined);
    return new Promise<T | undefined>((resolve) => {
      this.queues[priority].push({ run, settle: resolve as (value: unknown) => void });
      if (this.workers < Math.max(1, this.options.concurrency)) void this.work();
    });
  }

  private async work(): Promise<void> {
    this.workers++;
    try {
      for (let next = this.take(); next; next = this.take()) {
        const { job, from } = next;
        await this.turn(from);
        if (this.options.signal.aborted) return job.settle(undefined);
        let result: unknown;
        try {
          result = await job.run();
        } catch (error) {
          // A job answers its failures; one that throws is told, and counts as done.
          this.options.onError?.(error);
          result = undefined;
        }
        if (result !== RETRY) {
          job.settle(result);
          continue;
        }
        this.queues[from].unshift(job);
        const { clock, signal } = this.options;
        if (this.options.pausedUntil(OPERATION[from]) <= clock.now()) await clock.sleep(this.options.retryMs ?? 1000, signal);
      }
    } finally {
      this.workers--;
    }
  }

  /** The next job, out of its queue while it runs (put back at the front if it must be tried again). */
  private take(): { job: Job; from: Priority } | undefined {
    if (this.options.signal.aborted) return undefined;
    const from: Priority = this.queues.page.length > 0 ? 'page' : 'lookup';
    const job = this.queues[from].shift();
    return job ? { job, from } : undefined;
  }

  /** Waits out the service's wait and the crawler's rest, then for this job's turn of the rate, then for a rest begun meanwhile. */
  private async turn(priority: Priority): Promise<void> {
    const { clock, signal } = this.options;
    await this.heldBack(priority);
    const at = Math.max(clock.now(), this.nextTurn);
    this.nextTurn = at + 1000 / Math.max(this.options.perSecond, 0.001);
    if (at > clock.now()) await clock.sleep(at - clock.now(), signal);
    await this.heldBack(priority);
  }

  private async heldBack(priority: Priority): Promise<void> {
    const { clock, signal, pausedUntil } = this.options;
    const until = () => Math.max(pausedUntil(OPERATION[priority]), this.rests[priority].until);
    for (let held = until(); held > clock.now() && !signal.aborted; held = until()) {
      await clock.sleep(held - clock.now(), signal);
    }
  }
}
