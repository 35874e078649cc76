import { useEffect, useState } from 'react';
import { formatBytes } from '../../kyc/contract/bytes.ts';
import { LookupPlaceholder } from './lookup-placeholder.tsx';
import { useNow } from '../ui/use-now.ts';
import type { DownloadProgress } from '../api/fetch-candidate.ts';

/** After this long with nothing received, the page says how long it has waited: a slow service is not a frozen page. */
export const SLOW_ANSWER_MS = 3000;

/** A candidate stepped to (`j`, `k`) whose lookup waits for the step to settle (step-settle.ts): which one it is. */
export interface Opening {
  id: string;
  /** Its place in the list it was opened from, once known: "3 of 20". */
  position?: number | undefined;
  total?: number | undefined;
}

/**
 * "Candidate 3 of 20 — opening…" while the page waits to see whether the reviewer stays: no request has
 * left yet, and "Looking the candidate up…" then said what was not so (a reviewer passing over candidates
 * with `j` read that each was being looked up, that is, written to its Activity).
 */
function openingWords({ id, position, total }: Opening): string {
  const which = position !== undefined && total !== undefined ? `${position.toLocaleString()} of ${total.toLocaleString()}` : id;
  return `Candidate ${which} — opening…`;
}

/**
 * While a lookup runs: the page's shape, for a large response how much has arrived, and while nothing
 * has after a few seconds, how long the service has been waited for (not read out each second). Before
 * it runs (`opening`), which candidate is about to be looked up.
 */
export function CandidateSkeleton({ progress, opening }: { progress?: DownloadProgress; opening?: Opening | undefined }) {
  const asked = opening === undefined;
  const [started, setStarted] = useState(Date.now);
  // The service is waited for from when the request left, not from the step's settle before it.
  useEffect(() => {
    if (asked) setStarted(Date.now());
  }, [asked]);
  const waited = useNow(1000).getTime() - started;
  const received = progress !== undefined && progress.received > 0;
  const percent = progress?.total ? Math.min(100, Math.round((progress.received / progress.total) * 100)) : undefined;
  return (
    <LookupPlaceholder status={opening && openingWords(opening)}>
      {asked && !received && waited >= SLOW_ANSWER_MS && (
        <p className="mt-1 text-sm text-slate-600" aria-live="off" data-testid="waited">
          Waiting for the KYC service's answer: {Math.floor(waited / 1000)} s. A slow service is waited for, up to the server's limit,
          before this page says it did not answer.
        </p>
      )}
      {progress && progress.received > 0 && (
        <div className="mt-3">
          <progress
            className="h-2 w-full overflow-hidden rounded [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-blue-600"
            max={progress.total ?? undefined}
            value={progress.total ? progress.received : undefined}
            aria-label="Download progress"
          />
          <p className="mt-1 text-sm text-slate-600">
            {formatBytes(progress.received)}
            {progress.total ? ` of ${formatBytes(progress.total)} (${percent} %)` : ''} received
          </p>
        </div>
      )}
    </LookupPlaceholder>
  );
}
