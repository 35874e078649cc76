import { useCallback, useEffect, useRef, useState } from 'react';
import type { BatchRow } from '../../kyc/contract/batch.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { ApiError } from '../api/api-error.ts';
import { streamBatch } from './stream-batch.ts';

export interface BatchState {
  kind: LookupKind;
  ids: string[];
  /** In input order; undefined while that id's row has not arrived. */
  rows: Array<BatchRow | undefined>;
  done: number;
  phase: 'idle' | 'running' | 'finished' | 'cancelled' | 'failed';
  /** The service asked to slow down: the batch waits this many seconds before going on. */
  pausedFor?: number;
  problem?: string;
}

const IDLE: BatchState = { kind: 'refId', ids: [], rows: [], done: 0, phase: 'idle' };

/** One batch at a time: start, follow its rows as they stream in, cancel. */
export function useBatch(environment: string | undefined) {
  const [state, setState] = useState<BatchState>(IDLE);
  const controller = useRef<AbortController | undefined>(undefined);

  // Leaving the page cancels the batch: nothing more is started for a page nobody sees.
  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(
    (kind: LookupKind, ids: string[]) => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      setState({ kind, ids, rows: new Array(ids.length).fill(undefined), done: 0, phase: 'running' });
      const onEvent = (event: Parameters<Parameters<typeof streamBatch>[2]>[0]) => {
        if (current.signal.aborted) return;
        setState((s) => {
          if (event.type === 'wait') return { ...s, pausedFor: event.seconds };
          if (event.type === 'done') return { ...s, phase: 'finished', pausedFor: undefined };
          if (event.index < 0 || event.index >= s.rows.length || s.rows[event.index]) return s;
          const rows = s.rows.slice();
          rows[event.index] = event;
          return { ...s, rows, done: s.done + 1, pausedFor: undefined };
        });
      };
      streamBatch(environment, { kind, ids }, onEvent, current.signal).catch((error: unknown) => {
        if (current.signal.aborted) return;
        const problem = error instanceof ApiError ? error.message : 'The batch failed.';
        setState((s) => ({ ...s, phase: 'failed', problem, pausedFor: undefined }));
      });
    },
    [environment],
  );

  const cancel = useCallback(() => {
    controller.current?.abort();
    setState((s) => (s.phase === 'running' ? { ...s, phase: 'cancelled', pausedFor: undefined } : s));
  }, []);

  return { state, start, cancel };
}
