import type { ApiErrorCode } from '../../kyc/contract/api.ts';
import { UNREACHABLE_CODES } from '../../kyc/contract/batch.ts';
import { MAX_SERVICE_WAIT_SECONDS } from '../upstream/service-wait.ts';

/**
 * Runs a batch's lookups with bounded concurrency, in input order of starting. When the service says
 * to slow down (its 429), every worker pauses for the time it asked, then the id is tried again: the
 * batch goes on rather than failing. The wait the service asked for is the environment's (its upstream
 * client remembers it, `servicePausedUntil`), so a batch also waits for one that another batch, a user's
 * lookup or the queue's filler was told: no request of any row reaches the service before it ends.
 * After a pause one lookup asks first, and the others start once it was answered otherwise than 429:
 * eight workers waking together raced each new wait (one 429, seven refused unsent). A row is tried
 * again for as long as the service has been limiting the batch without a break, up to
 * `maxLimitedSeconds` (the longest wait honoured, 300 s), not a number of tries (five were spent in
 * 28 s, most of them refused here unsent); past it, the row fails and the batch stops starting lookups.
 * When the client goes away, nothing new is started; nor once several lookups in a row found the
 * service unreachable: a batch of 500 ids does not hammer a service that is down, and the browser can
 * retry the rest later.
 */

export type OneResult<Row> = { ok: true; row: Row } | { ok: false; code: ApiErrorCode; message: string; retryAfterSeconds?: number };
type Failed<Row> = Extract<OneResult<Row>, { ok: false }>;

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
  /**
   * The batch stopped starting lookups: the last of the failures in a row that said the service could
   * not be reached, or the 429 met once the service had limited the batch for `maxLimitedSeconds`.
   */
  onStop?(result: Failed<Row>, inARow: number): void;
  /** Results in a row that found the service unreachable, after which nothing new starts (default 5). */
  stopAfterUnreachable?: number;
  /** Aborted when the client went away. */
  signal: AbortSignal;
  /**
   * How long the service may limit the batch without a break (its 429s, stated waits or not, with no
   * other answer between) before a row says so and the batch stops (default MAX_SERVICE_WAIT_SECONDS).
   */
  maxLimitedSeconds?: number;
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
  const stop = (result: Failed<Row>, count: number) => {
    if (stopped) return;
    stopped = true;
    onStop?.(result, count);
  };
  return {
    get stopped() {
      return stopped;
    },
    count(result: OneResult<Row>): void {
      inARow = !result.ok && UNREACHABLE_CODES.has(result.code) ? inARow + 1 : 0;
      if (!result.ok && inARow >= limit) stop(result, inARow);
    },
    /** Stops at once: the service limited the batch for longer than it may. */
    stop,
  };
}

export async function runBatch<Row>(options: BatchRunOptions<Row>): Promise<void> {
  const streak = unreachableStreak(options.stopAfterUnreachable ?? 5, options.onStop);
  let next = 0;
  const over = () => options.signal.aborted || streak.stopped;
  const pause = batchPause(options, over);

  const worker = async () => {
    while (!over() && next < options.count) {
      const index = next++;
      // The service's 429s to this row: its own backoff doubles with them too.
      for (let limited = 1; ; limited++) {
        const lookup = await pause.turn();
        if (over()) return lookup.answered();
        const result = await options.lookup(index);
        // Said before the others go on: a 429 sets the next pause first.
        const verdict =
          !result.ok && result.code === 'upstream_rate_limited' ? pause.after(result, lookup.startedAt, limited) : pause.ended();
        lookup.answered();
        if (verdict === 'again') continue;
        options.onResult(index, result);
        streak.count(result);
        if (verdict === 'limited too long' && !result.ok) streak.stop(result, pause.limitedInARow);
        break;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, options.count)) }, worker));
}

/**
 * The batch's pauses: the service's (the environment's) and its own backoff; each announced once, when a
 * worker meets it. While the service limits the batch, a lookup starts only when none is under way: after
 * a pause one asks, and the others wait for its answer (a 429 sets the next pause before they look).
 */
function batchPause<Row>(options: BatchRunOptions<Row>, over: () => boolean) {
  const now = options.now ?? Date.now;
  const spell = limitedSpell(options, now);
  const pauses = pauseSleeper(options, now, () => Math.max(spell.ownUntil, options.servicePausedUntil?.() ?? 0), over);
  let underWay = 0;
  // Settled when a lookup under way is answered (or the batch is left): the workers held back look again.
  let answered = signal();
  options.signal.addEventListener('abort', () => answered.resolve(), { once: true });
  const start = () => {
    underWay++;
    return {
      startedAt: now(),
      answered: () => {
        underWay--;
        answered.resolve();
        answered = signal();
      },
    };
  };
  return {
    get limitedInARow() {
      return spell.inARow;
    },
    /** Resolves once no pause holds, with the lookup's start (`answered` is called once it is answered). */
    async turn(): Promise<ReturnType<typeof start>> {
      for (;;) {
        // While the service limits the batch, the lookups under way are answered before a pause is slept.
        const held = () => spell.limited && underWay > 0 && !over();
        if (held()) {
          // The pause is said at once, while the lookups under way end: the page shows it as the 429 comes.
          pauses.announce();
          await answered.promise;
        } else if (await pauses.sleep()) spell.began();
        else if (!held()) return start();
      }
    },
    /** Answered otherwise than 429: the service is not limiting the batch. */
    ended: (): 'done' => spell.ended(),
    /** A 429: tried again after the pause, unless the service has limited the batch for too long. */
    after: (result: Failed<Row>, startedAt: number, ofRow: number) => spell.limitedBy(result, startedAt, ofRow),
  };
}

/**
 * The time the service has been limiting the batch without a break: since its first 429 (or a wait of the
 * environment's slept through) with no other answer after it. Its own pauses, for a 429 that says no
 * wait (or without the environment's): 1, 2, 4, 8… s, one step per pause, not per row that met it (the
 * lookups under way when it began meet it too), and at least one per 429 of the row itself.
 */
function limitedSpell<Row>(options: BatchRunOptions<Row>, now: () => number) {
  const maxWait = options.maxWaitSeconds ?? MAX_SERVICE_WAIT_SECONDS;
  const bound = (options.maxLimitedSeconds ?? MAX_SERVICE_WAIT_SECONDS) * 1000;
  let since: number | undefined;
  let steps = 0;
  const state = {
    ownUntil: 0,
    inARow: 0,
    get limited() {
      return since !== undefined;
    },
    began(): void {
      since ??= now();
    },
    ended(): 'done' {
      since = undefined;
      state.inARow = 0;
      steps = 0;
      return 'done';
    },
    /** The `ofRow`th 429 of a row, its lookup started at `startedAt`: one started before the batch's own pause does not lengthen it. */
    limitedBy(result: Failed<Row>, startedAt: number, ofRow: number): 'again' | 'limited too long' {
      const at = now();
      since ??= at;
      state.inARow++;
      const asked = result.retryAfterSeconds;
      // The service's wait holds for every worker already, when it said one (the environment's); else the batch's own.
      let own = state.ownUntil;
      if ((asked === undefined || !options.servicePausedUntil) && own <= startedAt) {
        const step = Math.max(steps, ofRow - 1);
        steps = step + 1;
        own = at + Math.min(maxWait, asked ?? BACKOFF_BASE_SECONDS * 2 ** step) * 1000;
      }
      // Past the bound the batch stops: no pause of its own is begun for it.
      if (Math.max(at, own, options.servicePausedUntil?.() ?? 0) - since > bound) return 'limited too long';
      state.ownUntil = own;
      return 'again';
    },
  };
  return state;
}

/**
 * Sleeps until no pause holds (a pause may grow while it is slept: a later 429 of another worker), or the
 * batch is over (left, or stopped); true when it slept.
 */
function pauseSleeper<Row>(options: BatchRunOptions<Row>, now: () => number, until: () => number, over: () => boolean) {
  const sleep = options.sleep ?? abortableSleep;
  let announced = 0;
  // When the answer last said something of the pause: the workers sleeping through it say it once.
  let said = 0;
  /** Says a pause that holds, once (a longer one anew), and keeps the answer alive through it; its end, or undefined. */
  const announce = (): number | undefined => {
    const end = until();
    if (end <= now() || over()) return undefined;
    if (end > announced) {
      announced = end;
      said = now();
      options.onWait(Math.ceil((end - said) / 1000));
    } else if (now() - said >= KEEP_ALIVE_MS) {
      said = now();
      options.onStillWaiting?.();
    }
    return end;
  };
  return {
    announce,
    async sleep(): Promise<boolean> {
      let slept = false;
      for (let end = announce(); end !== undefined; end = announce()) {
        slept = true;
        await sleep(Math.min(end - now(), KEEP_ALIVE_MS), options.signal);
      }
      return slept;
    },
  };
}

/** A promise with the function that settles it. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((settle) => (resolve = settle));
  return { promise, resolve };
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
