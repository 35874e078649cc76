import type { ApiErrorCode } from '../../kyc/contract/api.ts';
import { UNREACHABLE_CODES } from '../../kyc/contract/batch.ts';
import { MAX_SERVICE_WAIT_SECONDS } from '../upstream/service-wait.ts';

/**
 * Runs a batch's lookups with bounded concurrency, in input order of starting. When the service says
 * to slow down (its 429), every worker pauses for the time it asked, then the id is tried again: the
 * batch goes on rather than failing. The wait the service asked for is the environment's (its upstream
 * client remembers it, `servicePausedUntil`), so a batch also waits for one that another batch, a user's
 * lookup or the queue's filler was told: no request of any row reaches the service before it ends.
 * When the client goes away, nothing new is started; nor once several lookups in a row found the
 * service unreachable: a batch of 500 ids does not hammer a service that is down, and the browser can
 * retry the rest later.
 */

export type OneResult<Row> = { ok: true; row: Row } | { ok: false; code: ApiErrorCode; message: string; retryAfterSeconds?: number };

export interface BatchRunOptions<Row> {
  count: number;
  concurrency: number;
  /** Looks up the id at `index` (and writes its audit line). Never rejects. */
  lookup(index: number): Promise<OneResult<Row>>;
  onResult(index: number, result: OneResult<Row>): void;
  /** The batch pauses for this many seconds (the service asked, or it backs off by itself). */
  onWait(seconds: number): void;
  /** Said every KEEP_ALIVE_MS of a long pause: the answer sends something, so that no proxy drops it as idle. */
  onStillWaiting?(): void;
  /**
   * Until when the service asked the environment to wait (ms on `now`'s clock: the upstream client's
   * pausedUntil). Given, a 429 that says how long is waited for through it; without it (or when the
   * 429 says nothing) the batch pauses by itself.
   */
  servicePausedUntil?: () => number;
  /** The batch stopped starting lookups: the last of the failures in a row that said the service could not be reached. */
  onStop?(result: Extract<OneResult<Row>, { ok: false }>, inARow: number): void;
  /** Results in a row that found the service unreachable, after which nothing new starts (default 5). */
  stopAfterUnreachable?: number;
  /** Aborted when the client went away. */
  signal: AbortSignal;
  /** Tries of one id the service refused with 429 before its row says so (default 5). */
  maxAttempts?: number;
  /** The longest pause of the batch's own; a longer wait is cut to this (default MAX_SERVICE_WAIT_SECONDS, as the service's). */
  maxWaitSeconds?: number;
  /** The pauses' clock (default: timers and Date.now; tests give one that does not wait). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
}

/** What a batch's pauses are timed by. */
export type BatchClock = Required<Pick<BatchRunOptions<unknown>, 'sleep' | 'now'>>;

/** Without a word on how long: 1, 2, 4, 8… seconds. */
const BACKOFF_BASE_SECONDS = 1;

/** A pause is slept in slices of at most this, with `onStillWaiting` between them (under a proxy's usual 60 s read timeout). */
export const KEEP_ALIVE_MS = 15_000;

/** Counts the results that found the service unreachable in a row (in the order they finish); says when to stop. */
function unreachableStreak<Row>(limit: number, onStop: BatchRunOptions<Row>['onStop']) {
  let inARow = 0;
  let stopped = false;
  return {
    get stopped() {
      return stopped;
    },
    count(result: OneResult<Row>): void {
      inARow = !result.ok && UNREACHABLE_CODES.has(result.code) ? inARow + 1 : 0;
      if (result.ok || stopped || inARow < limit) return;
      stopped = true;
      onStop?.(result, inARow);
    },
  };
}

export async function runBatch<Row>(options: BatchRunOptions<Row>): Promise<void> {
  const maxAttempts = options.maxAttempts ?? 5;
  const streak = unreachableStreak(options.stopAfterUnreachable ?? 5, options.onStop);
  const pause = batchPause(options);
  let next = 0;

  const worker = async () => {
    while (!options.signal.aborted && !streak.stopped && next < options.count) {
      const index = next++;
      for (let attempt = 1; ; attempt++) {
        await pause.turn();
        if (options.signal.aborted || streak.stopped) return;
        const result = await options.lookup(index);
        if (result.ok || result.code !== 'upstream_rate_limited' || attempt >= maxAttempts) {
          options.onResult(index, result);
          streak.count(result);
          break;
        }
        pause.after(result, attempt);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, options.count)) }, worker));
}

/** The batch's pauses: the service's (the environment's) and its own backoff; each announced once, when a worker meets it. */
function batchPause<Row>(options: BatchRunOptions<Row>) {
  const maxWait = options.maxWaitSeconds ?? MAX_SERVICE_WAIT_SECONDS;
  const sleep = options.sleep ?? abortableSleep;
  const now = options.now ?? Date.now;
  let ownUntil = 0;
  let announced = 0;
  // When the answer last said something of the pause: the workers sleeping through it say it once.
  let said = 0;
  const until = () => Math.max(ownUntil, options.servicePausedUntil?.() ?? 0);
  return {
    /** Resolves once no pause holds (a pause may grow while it is slept: a later 429 of another worker). */
    async turn(): Promise<void> {
      for (let end = until(); end > now() && !options.signal.aborted; end = until()) {
        if (end > announced) {
          announced = end;
          said = now();
          options.onWait(Math.ceil((end - said) / 1000));
        } else if (now() - said >= KEEP_ALIVE_MS) {
          said = now();
          options.onStillWaiting?.();
        }
        await sleep(Math.min(end - now(), KEEP_ALIVE_MS), options.signal);
      }
    },
    /** A 429: the service's wait holds for every worker already, when it said one; otherwise 1, 2, 4… s. */
    after(result: Extract<OneResult<Row>, { ok: false }>, attempt: number): void {
      const asked = result.retryAfterSeconds;
      if (asked !== undefined && options.servicePausedUntil) return;
      const seconds = Math.min(maxWait, asked ?? BACKOFF_BASE_SECONDS * 2 ** (attempt - 1));
      ownUntil = Math.max(ownUntil, now() + seconds * 1000);
    },
  };
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
