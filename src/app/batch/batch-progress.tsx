import { useId } from 'react';
import { RetryButton, RetryCountdown, ServerWait, useWaiting, waitLength } from '../candidate/retry-wait.tsx';
import { cn } from '../ui/cn.ts';
import { TimeStamp } from '../ui/time-stamp.tsx';
import { useNow } from '../ui/use-now.ts';
import type { OutcomeFocus } from './focus-after-run.ts';
import { leftOutText } from './personal-list.tsx';
import { type BatchPause, type BatchState, leftCounts } from './use-batch.ts';

/**
 * How far the batch is, and what it came to. Every count on it is read from the same rows, so the
 * sentence and the Retry button never disagree: "8 left: 5 could not reach the service, 3 not looked
 * up" beside "Retry the 8 left", not the server's count of the ids it never started beside the button's.
 */
export function BatchProgress({
  state,
  onRetry,
  onLookUpFirst,
  focus,
}: {
  state: BatchState;
  onRetry: () => void;
  onLookUpFirst: () => void;
  /** Where the keyboard goes once the batch stops running, if it was on Cancel (focus-after-run.ts). */
  focus?: OutcomeFocus;
}) {
  const total = state.ids.length;
  const found = state.rows.filter((row) => row?.ok).length;
  // Told apart: with the service down, "8 not found or failed" read as 8 candidates the service does not know.
  const notFound = state.rows.filter((row) => row !== undefined && !row.ok && row.code === 'not_found').length;
  const failed = state.done - found - notFound;
  const ended = state.phase === 'stopped' || state.phase === 'failed' || state.phase === 'cancelled' || state.phase === 'finished';
  const offered = ended ? offer(state) : undefined;
  const waitId = useId();
  // Refused with a wait (the batch budget): said with its number counted down, and Retry held until then.
  const refused = state.phase === 'failed' ? state.refused : undefined;
  const part = offered && offeredPart(state, offered);
  // No room in the budget for the part offered (the last answer said what was left), or rows the service
  // limited whose wait is not over: held until then.
  const roomAt = part && !refused ? latest(budgetWait(state, part.size), limitedWait(state)) : undefined;
  const waiting = useWaiting(refused?.retryAt ?? roomAt);
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-3">
        {/* How far it went, not how well: Chromium's own green read as success at "12 of 12" beside "0 found". Amber once it stopped short. */}
        <progress
          value={state.done}
          max={total}
          aria-label="Batch progress"
          data-stopped-short={state.phase === 'stopped' || state.phase === 'failed' || undefined}
          className={cn(
            'h-2 w-64 max-w-full appearance-none overflow-hidden rounded-full bg-slate-200 [&::-moz-progress-bar]:rounded-full [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:rounded-full',
            state.phase === 'stopped' || state.phase === 'failed'
              ? '[&::-moz-progress-bar]:bg-amber-500 [&::-webkit-progress-value]:bg-amber-500'
              : '[&::-moz-progress-bar]:bg-blue-600 [&::-webkit-progress-value]:bg-blue-600',
          )}
        />
        <span data-testid="batch-progress" className="text-sm font-medium text-slate-800 tabular-nums">
          {state.done} of {total}
        </span>
        {/* Once done, the sentence below says the counts (and is read out): not twice, a line apart. */}
        {state.phase !== 'finished' && <span className="text-sm text-slate-600">{countsText(found, notFound, failed)}</span>}
      </div>
      {state.leftOut && (
        <p data-testid="batch-left-out" className="text-sm text-slate-600">
          {leftOutText(state.leftOut)}
        </p>
      )}
      {state.pause && state.phase === 'running' && <BatchWait pause={state.pause} />}
      <div className="flex flex-wrap items-center gap-3">
        <p ref={focus?.outcome} role="status" tabIndex={-1} className="rounded text-sm text-slate-700 focus-ring">
          {refused ? (
            <>
              <ServerWait error={refused} id={waitId} over="The wait is over." /> {leftText(state, waiting)}
            </>
          ) : (
            outcomeText(state, countsText(found, notFound, failed), waiting)
          )}
          {roomAt && waiting && (
            <>
              {' '}
              <RetryCountdown seconds={0} retryAt={roomAt} lead="" act={`The ${part!.words}`} over="" id={waitId} />
            </>
          )}
        </p>
        {offered && (
          <RetryButton
            ref={focus?.offer}
            variant="secondary"
            onRetry={offered === 'first' ? onLookUpFirst : onRetry}
            retrying={false}
            retryAt={refused?.retryAt ?? roomAt}
            describedBy={waitId}
          >
            {offered === 'first'
              ? `Look up the ${part!.words}`
              : `${state.phase === 'cancelled' ? 'Go on with' : 'Retry'} the ${part!.words}`}
          </RetryButton>
        )}
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
      The KYC service is limiting requests (HTTP 429): the batch waits {waitLength(pause.seconds)} and resumes at{' '}
      <TimeStamp date={pause.until} seconds clock />
      <span aria-hidden="true"> (in {waitLength(left)})</span>.
    </p>
  );
}

const ids = (count: number) => (count === 1 ? '1 id' : `${count} ids`);

/**
 * What the button offers once the batch is no longer running: the rows left (`retry`); only the first
 * ones, when they are more than this server's batch budget takes (`first`: all of them would be refused
 * again); nothing, when the server refused the request itself and would refuse the same again.
 */
function offer(state: BatchState): 'retry' | 'first' | undefined {
  const { left } = leftCounts(state);
  if (left === 0) return undefined;
  if (state.idsAtMost !== undefined && left > state.idsAtMost) return 'first';
  return state.phase === 'failed' && state.refusedAgain ? undefined : 'retry';
}

/** The part of the rows left the button looks up: its size, and its words ("first 4", "next 4", "2 left"). */
function offeredPart(state: BatchState, offered: 'retry' | 'first'): { size: number; words: string } {
  if (offered === 'retry') return { size: leftCounts(state).left, words: `${leftCounts(state).left} left` };
  return { size: state.idsAtMost!, words: `${state.done === 0 ? 'first' : 'next'} ${state.idsAtMost}` };
}

/**
 * When the batch budget is whole again, if the last answer left it too little for `size` ids: a batch of
 * them started before then is refused. Once it is whole, `size` fits (the part offered is never more than the budget).
 */
function budgetWait(state: BatchState, size: number): Date | undefined {
  const { budget } = state;
  return budget && budget.idsLeft < size ? budget.wholeAt : undefined;
}

/** When the service's wait ends, if rows left were refused with its 429 and it is not over. */
function limitedWait(state: BatchState): Date | undefined {
  return leftCounts(state).limited > 0 ? state.limitedUntil : undefined;
}

const latest = (a: Date | undefined, b: Date | undefined) => (a && b ? (a > b ? a : b) : (a ?? b));

/** "8 ids left: 5 could not reach the service and 3 were not looked up", the parts that are not zero. */
function leftText(state: BatchState, waiting = false): string {
  const { left, notLookedUp, unreachable, heldBack, limited } = leftCounts(state);
  if (left === 0) return 'Nothing is left to look up.';
  const parts = [
    unreachable > 0 && `${unreachable} could not reach the KYC service`,
    limited > 0 && `${limited} ${limited === 1 ? 'was' : 'were'} refused by the KYC service's limit (HTTP 429)`,
    heldBack > 0 &&
      `${heldBack} ${heldBack === 1 ? 'was' : 'were'} held back by this server, no fault of the ${heldBack === 1 ? 'id' : 'ids'}`,
    notLookedUp > 0 && `${notLookedUp} ${notLookedUp === 1 ? 'was' : 'were'} not looked up`,
  ].filter(Boolean);
  const counts = `${ids(left)} left: ${parts.join(' and ')}.`;
  const offered = offer(state);
  if (offered === 'first') {
    const atMost = state.idsAtMost;
    return `${counts} This server looks up at most ${atMost} ids a minute in batches: look up the ${state.done === 0 ? 'first' : 'next'} ${atMost} ${waiting ? 'once the wait is over' : 'now'}, the rest after.`;
  }
  return offered === 'retry' ? `${counts} Retry looks ${left === 1 ? 'it' : 'them'} up again.` : counts;
}

/** "3 found, 1 not found, 2 failed": the candidates found, those the service does not know, and the lookups that failed. */
function countsText(found: number, notFound: number, failed: number): string {
  return `${found} found, ${notFound} not found, ${failed} failed`;
}

/** What the batch came to, once it is no longer running. */
function outcomeText(state: BatchState, counts: string, waiting: boolean): string {
  const total = state.ids.length;
  if (state.phase === 'finished') {
    const done = `Done: ${counts}.`;
    return leftCounts(state).left > 0 ? `${done} ${leftText(state, waiting)}` : done;
  }
  if (state.phase === 'cancelled') return `Cancelled after ${state.done} of ${total}: the rest were not looked up.`;
  if (state.phase === 'failed') {
    const problem =
      state.problemCode === 'unauthenticated' ? 'The batch stopped: your session ended.' : (state.problem ?? 'The batch failed.');
    // Refused for its size, the server's sentence says what is left and what to do (the button below).
    if (state.refusedAgain && state.idsAtMost !== undefined) return problem;
    return `${problem} ${leftText(state, waiting)}`;
  }
  if (state.phase === 'stopped' && state.stop) {
    const { inARow, message, code } = state.stop;
    // The rows may show more failures than the rule's count: the lookups already under way when it was reached end too.
    const why =
      code === 'upstream_rate_limited'
        ? `No more lookups were started: the KYC service had refused ${inARow} in a row for 5 minutes.`
        : `No more lookups were started once ${inARow} in a row had failed.`;
    return `Stopped: ${message} ${why} ${leftText(state, waiting)}`;
  }
  return '';
}
