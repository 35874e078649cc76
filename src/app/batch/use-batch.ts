import { useCallback, useEffect, useRef, useState } from 'react';
import { type BatchEvent, type BatchRow, UNREACHABLE_CODES } from '../../kyc/contract/batch.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import type { BatchLine } from '../../kyc/view/batch-export.ts';
import type { IdEntry } from '../../kyc/view/id-list.ts';
import { ApiError } from '../api/api-error.ts';
import type { PersonalLines } from './personal-list.tsx';
import { type BudgetEvent, streamBatch } from './stream-batch.ts';

export interface BatchState {
  kind: LookupKind;
  /** Each id once: what is looked up. */
  ids: string[];
  /** The pasted entries, repeats included, numbered as the pasted lines: what the table and the files show. */
  entries: IdEntry[];
  /** The pasted lines "Leave them out" left out (they read like personal data): no rows, so the results say which. */
  leftOut?: Pick<PersonalLines, 'lines' | 'rule'>;
  /** In input order; undefined while that id's row has not arrived. */
  rows: Array<BatchRow | undefined>;
  done: number;
  phase: 'idle' | 'running' | 'finished' | 'cancelled' | 'failed' | 'stopped';
  /** The service asked to wait (or the batch backs off): this many seconds, until then (this browser's clock). */
  pause?: BatchPause;
  problem?: string;
  /** The failure's code: `unauthenticated` when the session ended (the page offers to sign in again, then goes on). */
  problemCode?: string;
  /** The failure, when it said when to ask again (this server's batch budget): Retry waits until then. */
  refused?: ApiError;
  /** The failure is one the same request meets again (the request itself was refused): no Retry is offered. */
  refusedAgain?: boolean;
  /**
   * This server's batch budget, once a batch was refused as larger than it: the most ids it looks up in a
   * minute's batches. The page then offers the first that many of the rows left, not all of them again.
   */
  idsAtMost?: number;
  /**
   * What was left of this server's batch budget once the last request's ids were reserved: the page
   * offers a next part larger than `idsLeft` only once the budget is whole again (`wholeAt`, this
   * browser's clock), as pressing it before met the budget's refusal. Until then no batch can give it more
   * room (a refusal gives back only the id it took), so it is kept for the next list too.
   */
  budget?: { idsLeft: number; wholeAt: Date };
  /** The server stopped the batch: this many lookups in a row found the service unreachable (or limited for too long). */
  stop?: Omit<Extract<BatchEvent, { type: 'stopped' }>, 'type'>;
  /** When the service's wait ends that its rows refused with 429 (`upstream_rate_limited`) said (this browser's clock): Retry is held until then. */
  limitedUntil?: Date;
}

export interface BatchPause {
  seconds: number;
  until: Date;
}

const IDLE: BatchState = { kind: 'refId', ids: [], entries: [], rows: [], done: 0, phase: 'idle' };

/** Each pasted entry with its row: a repeat shows the row of the id's one lookup. */
export function batchLines(state: BatchState): BatchLine[] {
  const place = new Map(state.ids.map((id, index) => [id, index]));
  return state.entries.map(({ line, id, repeatOf }) => ({
    line,
    id,
    row: state.rows[place.get(id) ?? -1],
    ...(repeatOf === undefined ? {} : { repeatOf }),
  }));
}

/**
 * Rows held back by this server's own limits (too many lookups at once or in a minute, as a batch meets
 * them while the service is slow; every connection to the service in use; full lookups held while the
 * server checks whether its key deletes identity data): nothing is wrong with their ids, and a later try
 * can find them.
 */
const HELD_BACK_CODES: ReadonlySet<string> = new Set(['rate_limited', 'server_busy', 'archiving_check_unavailable']);

/** Rows the service refused with its 429 for as long as the batch tries: nothing is wrong with their ids either, and they can be asked once its wait is over. */
const LIMITED_CODES: ReadonlySet<string> = new Set(['upstream_rate_limited']);

/** The rows left to look up: those not looked up yet, those the service could not answer or limited, those this server held back. */
export function leftCounts(state: BatchState): {
  left: number;
  notLookedUp: number;
  unreachable: number;
  heldBack: number;
  limited: number;
} {
  const left = rowsToRetry(state);
  const failedWith = (codes: ReadonlySet<string>) =>
    left.filter((index) => codeOf(state.rows[index]) && codes.has(codeOf(state.rows[index])!)).length;
  const notLookedUp = left.filter((index) => !state.rows[index]).length;
  const [unreachable, heldBack, limited] = [UNREACHABLE_CODES, HELD_BACK_CODES, LIMITED_CODES].map(failedWith) as [number, number, number];
  return { left: left.length, notLookedUp, unreachable, heldBack, limited };
}

const codeOf = (row: BatchRow | undefined) => (row && !row.ok ? row.code : undefined);

/**
 * Whether the same request would be refused again: the server refused the request itself (a 4xx), not
 * the session (signing in again goes on), the moment (a wait) or a body that came too slowly.
 */
const refusedAgain = (error: ApiError) =>
  error.status !== undefined &&
  error.status >= 400 &&
  error.status < 500 &&
  error.code !== 'unauthenticated' &&
  ![408, 429].includes(error.status);

/** The rows Retry looks up again: those not looked up, those the service could not answer or limited, those this server held back. */
export function rowsToRetry(state: BatchState): number[] {
  return state.ids.flatMap((_, index) => {
    const code = codeOf(state.rows[index]);
    const again = code && (UNREACHABLE_CODES.has(code) || HELD_BACK_CODES.has(code) || LIMITED_CODES.has(code));
    return !state.rows[index] || again ? [index] : [];
  });
}

/** The end of the service's wait a row refused with its 429 says, if later than the one known. */
function limitedUntil(s: BatchState, row: BatchRow): Date | undefined {
  if (row.ok || row.code !== 'upstream_rate_limited' || row.retryAfterSeconds === undefined) return s.limitedUntil;
  const until = Date.now() + row.retryAfterSeconds * 1000;
  return s.limitedUntil && s.limitedUntil.getTime() >= until ? s.limitedUntil : new Date(until);
}

/** An event of a request for the rows at `places` applied to the batch's state (its index is the request's). */
function applyEvent(s: BatchState, event: BatchEvent | BudgetEvent, places: number[]): BatchState {
  if (event.type === 'budget') {
    const budget = { idsLeft: event.idsLeft, wholeAt: new Date(Date.now() + event.wholeInSeconds * 1000) };
    return { ...s, budget, idsAtMost: event.idsAtMost };
  }
  if (event.type === 'wait') return { ...s, pause: { seconds: event.seconds, until: new Date(Date.now() + event.seconds * 1000) } };
  if (event.type === 'stopped') {
    const { type: _stopped, ...stop } = event;
    return { ...s, phase: 'stopped', stop, pause: undefined };
  }
  if (event.type === 'done') return s.phase === 'stopped' ? s : { ...s, phase: 'finished', pause: undefined };
  const place = places[event.index];
  if (place === undefined || s.rows[place]) return s;
  const rows = s.rows.slice();
  rows[place] = { ...event, index: place };
  // A row that was under way when the pause began does not end it: the pause lasts as long as it said.
  const pause = s.pause && s.pause.until.getTime() > Date.now() ? s.pause : undefined;
  return { ...s, rows, done: s.done + 1, pause, limitedUntil: limitedUntil(s, event) };
}

/** The batch's state once its request failed with `error`. */
function failedWith(s: BatchState, error: unknown): BatchState {
  if (!(error instanceof ApiError))
    return { ...s, phase: 'failed', problem: 'The batch failed.', problemCode: undefined, pause: undefined };
  return {
    ...s,
    phase: 'failed',
    problem: error.message,
    problemCode: error.code,
    refused: error.retryAt ? error : undefined,
    refusedAgain: refusedAgain(error),
    // Kept from an earlier refusal: the rows left after the first ones are offered that many at a time too.
    idsAtMost: error.idsAtMost ?? s.idsAtMost,
    pause: undefined,
  };
}

/**
 * A new batch, none of it looked up yet. The budget is the user's, not the list's: what the last answer
 * said of it still holds for this one until it is whole again.
 */
function started(
  { kind, ids, entries, leftOut }: Pick<BatchState, 'kind' | 'ids' | 'entries' | 'leftOut'>,
  budget: BatchState['budget'],
): BatchState {
  const rows = new Array<BatchRow | undefined>(ids.length).fill(undefined);
  return { kind, ids, entries, ...(leftOut && { leftOut }), ...(budget && { budget }), rows, done: 0, phase: 'running' };
}

/** One batch at a time: start, follow its rows as they stream in, cancel, retry what the service could not answer. */
export function useBatch(environment: string | undefined, initial?: BatchState) {
  const [state, setState] = useState<BatchState>(initial ?? IDLE);
  const controller = useRef<AbortController | undefined>(undefined);

  // Leaving the page cancels the batch: nothing more is started for a page nobody sees.
  useEffect(() => () => controller.current?.abort(), []);

  /** Asks for the ids at `places` of the batch `kind`/`ids`, into a state where those rows are empty. */
  const run = useCallback(
    (kind: LookupKind, ids: string[], places: number[]) => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      const onEvent = (event: BatchEvent | BudgetEvent) => {
        if (!current.signal.aborted) setState((s) => applyEvent(s, event, places));
      };
      streamBatch(environment, { kind, ids: places.map((place) => ids[place]!) }, onEvent, current.signal).catch((error: unknown) => {
        if (current.signal.aborted) return;
        setState((s) => failedWith(s, error));
      });
    },
    [environment],
  );

  const start = useCallback(
    (kind: LookupKind, ids: string[], entries: IdEntry[], leftOut?: BatchState['leftOut']) => {
      setState(({ budget }) => started({ kind, ids, entries, leftOut }, budget));
      run(
        kind,
        ids,
        ids.map((_, index) => index),
      );
    },
    [run],
  );

  /**
   * Goes on from where the batch stopped (or broke off): the rows not looked up, and those the service
   * could not answer; `atMost`, only the first that many of them (a batch larger than the server's budget).
   */
  const lookUpLeft = useCallback(
    (atMost?: number) => {
      const places = rowsToRetry(state).slice(0, atMost);
      if (places.length === 0) return;
      const rows = state.rows.map((row, index) => (places.includes(index) ? undefined : row));
      setState({
        ...state,
        rows,
        done: state.done - places.filter((place) => state.rows[place]).length,
        phase: 'running',
        stop: undefined,
        pause: undefined,
        limitedUntil: undefined,
        problem: undefined,
        problemCode: undefined,
        refused: undefined,
        refusedAgain: undefined,
      });
      run(state.kind, state.ids, places);
    },
    [state, run],
  );
  const retry = useCallback(() => lookUpLeft(), [lookUpLeft]);
  const lookUpFirst = useCallback(() => lookUpLeft(state.idsAtMost), [lookUpLeft, state.idsAtMost]);

  const cancel = useCallback(() => {
    controller.current?.abort();
    setState((s) => (s.phase === 'running' ? { ...s, phase: 'cancelled', pause: undefined } : s));
  }, []);

  /** Forgets the batch (someone else signed in: its rows are not theirs to see). */
  const reset = useCallback(() => {
    controller.current?.abort();
    setState(IDLE);
  }, []);

  return { state, start, cancel, retry, lookUpFirst, reset };
}
