import { useCallback, useEffect, useRef, useState } from 'react';
import { type BatchEvent, type BatchRow, UNREACHABLE_CODES } from '../../kyc/contract/batch.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { ApiError } from '../api/api-error.ts';
import { streamBatch } from './stream-batch.ts';

export interface BatchState {
  kind: LookupKind;
  ids: string[];
  /** In input order; undefined while that id's row has not arrived. */
  rows: Array<BatchRow | undefined>;
  done: number;
  phase: 'idle' | 'running' | 'finished' | 'cancelled' | 'failed' | 'stopped';
  /** The service asked to wait (or the batch backs off): this many seconds, until then (this browser's clock). */
  pause?: BatchPause;
  problem?: string;
  /** The server stopped the batch: this many lookups in a row found the service unreachable. */
  stop?: Omit<Extract<BatchEvent, { type: 'stopped' }>, 'type'>;
}

export interface BatchPause {
  seconds: number;
  until: Date;
}

const IDLE: BatchState = { kind: 'refId', ids: [], rows: [], done: 0, phase: 'idle' };

/** The rows Retry looks up again: those not looked up, and those that failed because the service could not be reached. */
export function rowsToRetry(state: BatchState): number[] {
  return state.ids.flatMap((_, index) => {
    const row = state.rows[index];
    return !row || (!row.ok && UNREACHABLE_CODES.has(row.code)) ? [index] : [];
  });
}

/** An event of a request for the rows at `places` applied to the batch's state (its index is the request's). */
function applyEvent(s: BatchState, event: BatchEvent, places: number[]): BatchState {
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
  return { ...s, rows, done: s.done + 1, pause };
}

/** One batch at a time: start, follow its rows as they stream in, cancel, retry what the service could not answer. */
export function useBatch(environment: string | undefined) {
  const [state, setState] = useState<BatchState>(IDLE);
  const controller = useRef<AbortController | undefined>(undefined);

  // Leaving the page cancels the batch: nothing more is started for a page nobody sees.
  useEffect(() => () => controller.current?.abort(), []);

  /** Asks for the ids at `places` of the batch `kind`/`ids`, into a state where those rows are empty. */
  const run = useCallback(
    (kind: LookupKind, ids: string[], places: number[]) => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      const onEvent = (event: BatchEvent) => {
        if (!current.signal.aborted) setState((s) => applyEvent(s, event, places));
      };
      streamBatch(environment, { kind, ids: places.map((place) => ids[place]!) }, onEvent, current.signal).catch((error: unknown) => {
        if (current.signal.aborted) return;
        const problem = error instanceof ApiError ? error.message : 'The batch failed.';
        setState((s) => ({ ...s, phase: 'failed', problem, pause: undefined }));
      });
    },
    [environment],
  );

  const start = useCallback(
    (kind: LookupKind, ids: string[]) => {
      setState({ kind, ids, rows: new Array(ids.length).fill(undefined), done: 0, phase: 'running' });
      run(
        kind,
        ids,
        ids.map((_, index) => index),
      );
    },
    [run],
  );

  /** Goes on from where the batch stopped (or broke off): the rows not looked up, and those the service could not answer. */
  const retry = useCallback(() => {
    const places = rowsToRetry(state);
    if (places.length === 0) return;
    const rows = state.rows.map((row, index) => (places.includes(index) ? undefined : row));
    setState({
      ...state,
      rows,
      done: state.done - places.filter((place) => state.rows[place]).length,
      phase: 'running',
      stop: undefined,
      pause: undefined,
    });
    run(state.kind, state.ids, places);
  }, [state, run]);

  const cancel = useCallback(() => {
    controller.current?.abort();
    setState((s) => (s.phase === 'running' ? { ...s, phase: 'cancelled', pause: undefined } : s));
  }, []);

  return { state, start, cancel, retry };
}
