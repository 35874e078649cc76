import { ApiFailure } from '../http/api-failure.ts';
import { secondsLeft } from '../http/wait-left.ts';
import { secondsOf } from '../upstream/answer-deadline.ts';
import { stillWaiting } from '../upstream/service-wait.ts';

/**
 * A lookup's wait for its turn, all of it (its user's upstream slot, then this gate) within one budget:
 * from `since` (when it began to wait) to `until` (`limits.upstreamTimeoutMs` later). Before, each wait
 * had its own, and one lookup waited 15 s for a slot then 15 s here.
 */
export interface Waiting {
  since: number;
  until: number;
  /** Whose (the user's rate-limit key): their lookups waiting here hold their upstream slots. */
  who?: string;
}

/**
 * The check's holder's end, exactly once that counts: `opened` (its answer showed the key does not
 * archive: open for good), or the hand-over to the next one waiting; with `failure`, the service failed it
 * (no answer, unreachable, an error status, a body that broke off), and every lookup waiting behind it is
 * told that failure rather than sent into the same. Called again later (the record ended without the
 * field, then the body whole), it only opens.
 */
export interface Hold {
  /** The service's status line came: it is answering, and the check waits for its record. */
  answering(): void;
  done(end: { opened: boolean; failure?: ApiFailure }): void;
}

/** Not let through: the failure of the check waited behind (`waited` false), or what held it back until its wait ran out. */
export interface HeldBack {
  failure: ApiFailure;
  waited: boolean;
}

interface Waiter {
  who: string | undefined;
  turn(outcome: Hold | HeldBack): void;
}

/** The holder of a gate that is open: it holds nothing back. */
export const FREE: Hold = { answering: () => {}, done: () => {} };

/**
 * Failures of the service, not of the candidate asked for: the lookups behind the check would meet the
 * same. Another (`not_found`, a record too large) says nothing of the service: the next one checks.
 */
const OF_THE_SERVICE: ReadonlySet<string> = new Set([
  'upstream_timeout',
  'upstream_unreachable',
  'upstream_error',
  'upstream_unauthorized',
  'upstream_misconfigured',
  'upstream_redirected',
  'upstream_rate_limited',
  'server_busy',
]);

/**
 * How long the last check's failure of the service is said as the queue's reason (crawler-full-key.ts):
 * two of the crawler's reads. Past it the queue says again that a lookup is awaited, the step that
 * unblocks it, rather than "cannot be reached" about a service that may have come back meanwhile.
 */
export const SERVICE_AWAY_SAID_MS = 2 * 60_000;

/** How long a check's 429 that named no wait holds: a minute, the page's own "wait a minute" (upstream-failures.ts). */
export const UNSTATED_LIMIT_MS = 60_000;

/**
 * How long a check's failure of the service stands, from when it came: SERVICE_AWAY_SAID_MS, but a 429
 * only for the wait it named (no longer than that), or UNSTATED_LIMIT_MS when it named none. A 429 says
 * when the service will take requests again: past it a lookup may show the key, and held for the two
 * minutes it refused the lookups that waited behind the check, and the queue said the limit, long after
 * the service had said it was over.
 */
function standsFor(failure: ApiFailure): number {
  if (failure.code !== 'upstream_rate_limited') return SERVICE_AWAY_SAID_MS;
  if (failure.retryAfterSeconds === undefined) return UNSTATED_LIMIT_MS;
  return Math.min(failure.retryAfterSeconds * 1000, SERVICE_AWAY_SAID_MS);
}

/**
 * A check's failure as it is told later, `at` being when it came: a 429 that named its wait with the
 * seconds left of it (stillWaiting: the lookup told it is not sent), never the wait as said back then;
 * any other as it was. Undefined for a 429 whose wait has passed: it holds nothing back any more.
 */
function toldNow(remembered: { failure: ApiFailure; at: number }, now: number): ApiFailure | undefined {
  const { failure, at } = remembered;
  if (failure.code !== 'upstream_rate_limited') return failure;
  if (now - at >= standsFor(failure)) return undefined;
  if (failure.retryAfterSeconds === undefined) return failure;
  return stillWaiting(secondsLeft({ seconds: failure.retryAfterSeconds, at }, now));
}

/**
 * One full-level request at a time, in this process, until one of them shows the key does not archive,
 * first come first served. `enter` gives the holder's Hold at once or in its turn, or why not: the
 * failure of the check it waited behind, or, its wait over (`Waiting.until`), what holds it back
 * (`heldBack`); `gone` when the browser left while waiting.
 */
export function createGate(now: () => number = Date.now) {
  let open = false;
  // The check under way: since when, and whether the service has begun to answer it.
  let check: { since: number; answering: boolean } | undefined;
  // The last check the service failed, and when: a lookup waiting since before then is told so (a 429 only
  // during its wait, with what is left of it: toldNow).
  let failed: { failure: ApiFailure; at: number } | undefined;
  // The last check's failure of the service, and when, until the service answers one or it no longer stands
  // (standsFor: SERVICE_AWAY_SAID_MS, a 429 its own wait): the queue's crawler says it (crawler-full-key.ts).
  let away: { failure: ApiFailure; at: number } | undefined;
  const waiters: Waiter[] = [];

  const holdFor = (): Hold => {
    check = { since: now(), answering: false };
    const held = check;
    let ended = false;
    return {
      answering() {
        held.answering = true;
        away = undefined;
      },
      done({ opened, failure }) {
        open ||= opened;
        // Ended already (the record without the field): a body read whole later only opens.
        if (ended) {
          if (open) letAllThrough();
          return;
        }
        ended = true;
        check = undefined;
        // Not sent (a finding read meanwhile), nothing is learnt of the service; else the service failed it or answered.
        if (failure) away = OF_THE_SERVICE.has(failure.code) ? { failure, at: now() } : undefined;
        if (failure && OF_THE_SERVICE.has(failure.code) && !open) {
          failed = { failure, at: now() };
          for (const waiter of waiters.splice(0)) waiter.turn({ failure, waited: false });
        } else if (open) letAllThrough();
        else {
          const next = waiters.shift();
          if (next) next.turn(holdFor());
        }
      },
    };
  };
  const letAllThrough = () => {
    for (const waiter of waiters.splice(0)) waiter.turn(FREE);
  };

  const gate = {
    isOpen: () => open,
    /**
     * While the gate is shut: the failure of the service that ended the last check (no answer, unreachable,
     * an error status, a 429), until the service answers one, and for SERVICE_AWAY_SAID_MS at most: nothing
     * here asks the service again until a lookup does, so past that it may well be back. A 429 stands for
     * its own wait only, and is said with what is left of it (toldNow).
     */
    serviceFailure(): ApiFailure | undefined {
      if (open || !away || now() - away.at > standsFor(away.failure)) return undefined;
      return toldNow(away, now());
    },
    /**
     * Why a full lookup waiting since `since` is held back now: the check it waited behind failed, or is
     * under way; undefined: neither. With `who`, only when lookups of theirs wait here (holding their
     * slots): a user's slots held by their lookups at the service are not the check's doing.
     */
    heldBack(since: number, who?: string): ApiFailure | undefined {
      if (open) return undefined;
      const told = failed && failed.at > since ? toldNow(failed, now()) : undefined;
      if (told) return told;
      if (!check || (who !== undefined && !waiters.some((waiter) => waiter.who === who))) return undefined;
      const waited = now() - since;
      return check.answering ? checking(waited) : notAnswered(waited, now() - check.since);
    },
    enter(waiting: Waiting, gone?: AbortSignal): Promise<Hold | HeldBack | 'gone'> {
      if (open) return Promise.resolve(FREE);
      const told = failed && failed.at > waiting.since ? toldNow(failed, now()) : undefined;
      if (told) return Promise.resolve({ failure: told, waited: false });
      if (!check) return Promise.resolve(holdFor());
      if (gone?.aborted) return Promise.resolve('gone');
      return waitTurn(waiters, waiting, gone, () => gate.heldBack(waiting.since) ?? checking(now() - waiting.since), now);
    },
  };
  return gate;
}

/** A lookup's place in line behind the check, until its turn, its wait's end (`late` says why not) or the browser leaving. */
function waitTurn(
  waiters: Waiter[],
  waiting: Waiting,
  gone: AbortSignal | undefined,
  late: () => ApiFailure,
  now: () => number,
): Promise<Hold | HeldBack | 'gone'> {
  return new Promise((resolve) => {
    const stop = () => {
      clearTimeout(timer);
      gone?.removeEventListener('abort', left);
      const index = waiters.indexOf(waiter);
      if (index !== -1) waiters.splice(index, 1);
    };
    const left = () => {
      stop();
      resolve('gone');
    };
    const waiter: Waiter = {
      who: waiting.who,
      turn: (outcome) => {
        stop();
        resolve(outcome);
      },
    };
    const timer = setTimeout(
      () => {
        stop();
        resolve({ failure: late(), waited: true });
      },
      Math.max(0, waiting.until - now()),
    );
    gone?.addEventListener('abort', left, { once: true });
    waiters.push(waiter);
  });
}

/**
 * The check's answer is coming, and this lookup's wait ran out before it showed whether the key archives.
 * Not `rate_limited`: the user did nothing too often (Retry-After: the code's 5 s).
 */
function checking(waitedMs: number): ApiFailure {
  return new ApiFailure(
    'archiving_check_unavailable',
    `The KYC service is still sending its answer to another full lookup, the one that shows whether this server's API key deletes identity data ("archive after extract"). Until one answer has shown it, full lookups go one at a time: this one waited ${secondsOf(waitedMs)} s for it and was not sent to the KYC service. Try again in a moment.`,
  );
}

/** The service has not begun to answer the check, and this lookup's wait ran out: the service is slow or away, and says so. */
function notAnswered(waitedMs: number, askedMs: number): ApiFailure {
  return new ApiFailure(
    'upstream_timeout',
    `The KYC service has not answered another full lookup, sent ${secondsOf(askedMs)} s ago, that must first show whether this server's API key deletes identity data ("archive after extract"). This one waited ${secondsOf(waitedMs)} s for it and was not sent.`,
  );
}
