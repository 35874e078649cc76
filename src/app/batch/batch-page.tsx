import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useLocation } from '../navigation.tsx';
import { MAX_BATCH_IDS } from '../../kyc/contract/batch.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { describeRemoved, type IdList, splitIdList } from '../../kyc/view/id-input.ts';
import { useEnvironmentPath } from '../environment/use-environment.ts';
import type { BatchHandOver } from '../routes.ts';
import { KindPicker } from '../ui/kind-picker.tsx';
import { Button } from '../ui/button.tsx';
import { Card } from '../ui/card.tsx';
import { BatchActions } from './batch-actions.tsx';
import { BatchTable } from './batch-table.tsx';
import { TimeStamp } from '../ui/time-stamp.tsx';
import { useNow } from '../ui/use-now.ts';
import { type BatchPause, type BatchState, rowsToRetry, useBatch } from './use-batch.ts';

function handOverOf(state: unknown): BatchHandOver['batch'] | undefined {
  const batch = (state as Partial<BatchHandOver> | null)?.batch;
  return batch && Array.isArray(batch.ids) && (batch.kind === 'refId' || batch.kind === 'recordId') ? batch : undefined;
}

/** `/batch`: up to 500 ids at status level, for every role; rows stream in as they finish. */
export function BatchPage() {
  const { environment, to } = useEnvironmentPath();
  const location = useLocation();
  const handedOver = handOverOf(location.state);
  const [kind, setKind] = useState<LookupKind>(handedOver?.kind ?? 'refId');
  const [text, setText] = useState(handedOver ? handedOver.ids.join('\n') : '');
  const [problem, setProblem] = useState<string>();
  const { state, start, cancel, retry } = useBatch(environment);
  const list = useMemo(() => splitIdList(text), [text]);
  const textId = useId();
  const hintId = useId();

  useEffect(() => {
    document.title = 'Batch lookup · Candidate Lookup';
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (list.ids.length === 0) return setProblem('Paste at least one id.');
    if (list.ids.length > MAX_BATCH_IDS) return setProblem(`A batch holds at most ${MAX_BATCH_IDS} ids; this list has ${list.ids.length}.`);
    setProblem(undefined);
    start(kind, list.ids);
  };

  const running = state.phase === 'running';
  const lines = state.ids.map((id, index) => ({ id, row: state.rows[index] }));
  return (
    <div className="space-y-5">
      <Card as="section" padding="lg" aria-labelledby="batch-heading">
        <h1 id="batch-heading" className="text-2xl font-semibold text-slate-900">
          Batch status lookup
        </h1>
        <p className="mt-1 mb-4 text-sm text-slate-600">
          Up to {MAX_BATCH_IDS} ids, one per line (a single line is split at commas, spaces or tabs). Every id is looked up at status level:
          status, since when, submissions and the other id. A refId that is not found and looks like a recordId is tried as one.
        </p>
        <form onSubmit={submit} noValidate className="space-y-3">
          <KindPicker kind={kind} onChange={setKind} name="batch-kind" />
          <label htmlFor={textId} className="block text-sm font-medium text-slate-700">
            {kind === 'refId' ? 'refIds' : 'recordIds'} to look up
          </label>
          <textarea
            id={textId}
            value={text}
            onChange={(event) => setText(event.target.value)}
            rows={8}
            spellCheck={false}
            autoComplete="off"
            aria-describedby={hintId}
            aria-invalid={problem ? true : undefined}
            className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 focus-visible:border-blue-600 focus-ring"
          />
          <ListHint id={hintId} list={list} />
          {problem && (
            <p role="alert" className="text-sm font-medium text-red-700">
              {problem}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" size="lg" disabled={running}>
              Look up all
            </Button>
            {running && (
              <Button variant="secondary" onClick={cancel}>
                Cancel
              </Button>
            )}
          </div>
        </form>
      </Card>
      {state.phase !== 'idle' && <BatchProgress state={state} onRetry={retry} />}
      {state.ids.length > 0 && (
        <>
          <BatchActions lines={lines} kind={state.kind} />
          <BatchTable lines={lines} kind={state.kind} pending={running ? 'Looking up…' : 'Not looked up'} to={to} />
        </>
      )}
    </div>
  );
}

/** How many ids the box holds, and by which rule the text was split: the user sees at once whether a line with spaces stayed whole. */
function ListHint({ id, list }: { id: string; list: IdList }) {
  const removed = describeRemoved(list.removed);
  const count = list.ids.length;
  const rule =
    count === 0
      ? ''
      : list.rule === 'lines'
        ? ', one per line (spaces inside a line are part of its id)'
        : ', split at commas, spaces and tabs';
  return (
    <p id={id} data-testid="batch-hint" className="text-sm text-slate-600">
      {count} {count === 1 ? 'id' : 'ids'}
      {rule}
      {list.links > 0 &&
        `, ${list.links} dashboard ${list.links === 1 ? 'link' : 'links'} read as ${list.links === 1 ? 'its recordId' : 'their recordIds'}`}
      {list.duplicates > 0 && `, ${list.duplicates} repeated ${list.duplicates === 1 ? 'one' : 'ones'} left out`}
      {removed && `; removed ${removed}`}
      {count > MAX_BATCH_IDS && ` (at most ${MAX_BATCH_IDS})`}
    </p>
  );
}

function BatchProgress({ state, onRetry }: { state: BatchState; onRetry: () => void }) {
  const total = state.ids.length;
  const found = state.rows.filter((row) => row?.ok).length;
  const failed = state.done - found;
  const retryable = (state.phase === 'stopped' || state.phase === 'failed') && rowsToRetry(state).length;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-3">
        <progress value={state.done} max={total} aria-label="Batch progress" className="h-2 w-64 max-w-full" />
        <span data-testid="batch-progress" className="text-sm font-medium text-slate-800 tabular-nums">
          {state.done} of {total}
        </span>
        <span className="text-sm text-slate-600">
          {found} found, {failed} not found or failed
        </span>
      </div>
      {state.pause && state.phase === 'running' && <BatchWait pause={state.pause} />}
      <div className="flex flex-wrap items-center gap-3">
        <p role="status" className="text-sm text-slate-700">
          {outcomeText(state, found, failed)}
        </p>
        {retryable ? (
          <Button variant="secondary" onClick={onRetry}>
            Retry the {retryable} left
          </Button>
        ) : null}
      </div>
    </div>
  );
}

/** The batch waits for the service (its 429): how long, until when, and a count of the seconds left that is not read out each second. */
function BatchWait({ pause }: { pause: BatchPause }) {
  const now = useNow(1000);
  const left = Math.ceil((pause.until.getTime() - now.getTime()) / 1000);
  if (left <= 0) return null;
  return (
    <p role="status" data-testid="batch-wait" className="text-sm text-amber-900">
      The KYC service is limiting requests (HTTP 429): the batch waits {pause.seconds} s and resumes at{' '}
      <TimeStamp date={pause.until} seconds />
      <span aria-hidden="true"> (in {left} s)</span>.
    </p>
  );
}

/** What the batch came to, once it is no longer running. */
function outcomeText(state: BatchState, found: number, failed: number): string {
  const total = state.ids.length;
  if (state.phase === 'finished') return `Done: ${found} found, ${failed} not found or failed.`;
  if (state.phase === 'cancelled') return `Cancelled after ${state.done} of ${total}: the rest were not looked up.`;
  if (state.phase === 'failed') return state.problem ?? 'The batch failed.';
  if (state.phase === 'stopped' && state.stop) {
    const { inARow, notLookedUp, message } = state.stop;
    const ids = notLookedUp === 1 ? '1 id was' : `${notLookedUp} ids were`;
    return `Stopped after ${inARow} lookups in a row failed: ${message} ${ids} not looked up; Retry goes on from there.`;
  }
  return '';
}
