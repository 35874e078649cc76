/**
 * The crawler's requests to the service (queue-crawler.ts), several at once and paced: at most
 * `perSecond` started a second, evenly (one every 1000/perSecond ms, not a burst at each second's
 * start), at most `concurrency` under way, none while the service's wait lasts (its 429: the upstream
 * client's `pausedUntil`, service-wait.ts). Pages of the list go before lookups: the list says what
 * exists, a lookup only dates one row. A job that says RETRY (it was not sent: the wait began, no slot
 * was free) is queued again at the front, after a short rest.
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
  /** Until when the service asked to be left alone (ms on `clock`). */
  pausedUntil: () => number;
  /** Stops every job not started: each resolves undefined. */
  signal: AbortSignal;
  /** The rest after a RETRY when no wait was asked for (default 1000 ms). */
  retryMs?: number;
  onError?: (error: unknown) => void;
}

type Priority = 'page' | 'lookup';
interface Job {
  run: () => Promise<unknown>;
  settle: (value: unknown) => void;
}

export class CrawlPool {
  private readonly queues: Record<Priority, Job[]> = { page: [], lookup: [] };
  private workers = 0;
  private nextTurn = 0;
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
        await this.turn();
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
        if (this.options.pausedUntil() <= clock.now()) await clock.sleep(this.options.retryMs ?? 1000, signal);
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

  /** Waits out the service's wait, then for this job's turn of the rate. */
  private async turn(): Promise<void> {
    const { clock, signal, pausedUntil } = this.options;
    for (let paused = pausedUntil(); paused > clock.now() && !signal.aborted; paused = pausedUntil()) {
      await clock.sleep(paused - clock.now(), signal);
    }
    const at = Math.max(clock.now(), this.nextTurn);
    this.nextTurn = at + 1000 / Math.max(this.options.perSecond, 0.001);
    if (at > clock.now()) await clock.sleep(at - clock.now(), signal);
  }
}
