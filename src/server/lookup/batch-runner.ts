import type { ApiErrorCode } from '../../kyc/contract/api.ts';
import { UNREACHABLE_CODES } from '../../kyc/contract/batch.ts';

/**
 * Runs a batch's lookups with bounded concurrency, in input order of starting. When the service says
 * to slow down (its 429), every worker pauses for the time it asked (Retry-After), then the id is tried
 * again: the batch goes on rather than failing. When the client goes away, nothing new is started; nor
 * once several lookups in a row found the service unreachable: a batch of 500 ids does not hammer a
 * service that is down, and the browser can retry the rest later.
 */

export type OneResult<Row> = { ok: true; row: Row } | { ok: false; code: ApiErrorCode; message: string; retryAfterSeconds?: number };

export interface BatchRunOptions<Row> {
  count: number;
  concurrency: number;
  /** Looks up the id at `index` (and writes its audit line). Never rejects. */
  lookup(index: number): Promise<OneResult<Row>>;
  onResult(index: number, result: OneResult<Row>): void;
  /** The batch pauses for this many seconds (the service asked). */
  onWait(seconds: number): void;
  /** The batch stopped starting lookups: the last of the failures in a row that said the service could not be reached. */
  onStop?(result: Extract<OneResult<Row>, { ok: false }>, inARow: number): void;
  /** Results in a row that found the service unreachable, after which nothing new starts (default 5). */
  stopAfterUnreachable?: number;
  /** Aborted when the client went away. */
  signal: AbortSignal;
  /** Tries of one id the service refused with 429 before its row says so (default 5). */
  maxAttempts?: number;
  /** The longest pause honoured at once; a longer Retry-After is cut to this (default 60 s). */
  maxWaitSeconds?: number;
  /** The pauses' clock (default: timers and Date.now; tests give one that does not wait). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
}

/** What a batch's pauses are timed by. */
export type BatchClock = Required<Pick<BatchRunOptions<unknown>, 'sleep' | 'now'>>;

/** Without Retry-After: 1, 2, 4, 8… seconds. */
const BACKOFF_BASE_SECONDS = 1;

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
  const maxWait = options.maxWaitSeconds ?? 60;
  const sleep = options.sleep ?? abortableSleep;
  const now = options.now ?? Date.now;
  let next = 0;
  let pausedUntil = 0;
  const streak = unreachableStreak(options.stopAfterUnreachable ?? 5, options.onStop);

  const pauseFor = (seconds: number) => {
    const until = now() + seconds * 1000;
    if (until <= pausedUntil) return;
    pausedUntil = until;
    options.onWait(seconds);
  };

  const worker = async () => {
    while (!options.signal.aborted && !streak.stopped && next < options.count) {
      const index = next++;
      for (let attempt = 1; ; attempt++) {
        const wait = pausedUntil - now();
        if (wait > 0) await sleep(wait, options.signal);
        if (options.signal.aborted || streak.stopped) return;
        const result = await options.lookup(index);
        if (result.ok || result.code !== 'upstream_rate_limited' || attempt >= maxAttempts) {
          options.onResult(index, result);
          streak.count(result);
          break;
        }
        pauseFor(Math.min(maxWait, result.retryAfterSeconds ?? BACKOFF_BASE_SECONDS * 2 ** (attempt - 1)));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, options.count)) }, worker));
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
