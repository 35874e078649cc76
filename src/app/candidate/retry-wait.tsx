import type { ReactNode } from 'react';
import type { ApiError } from '../api/api-error.ts';
import { Button } from '../ui/button.tsx';
import { TimeStamp } from '../ui/time-stamp.tsx';
import { useNow } from '../ui/use-now.ts';

/** The waits an answer asked for, on the candidate page's error screens (candidate-error.tsx). */

/**
 * The service's own limit (a 429 of its own): on everyone this app sends, not on this reviewer's
 * lookups (those are `rate_limited`, this server's limit), so it is not said as "too many lookups".
 */
const SERVICE_WAIT = 'The KYC service asked this app to wait before asking again: its limit counts every lookup made here, not only yours.';

export function retryText(error: ApiError): ReactNode {
  if (error.retryAfterSeconds === undefined) return `${SERVICE_WAIT} It did not say how long: wait a minute, then try again.`;
  return <RetryCountdown seconds={error.retryAfterSeconds} retryAt={error.retryAt} />;
}

/**
 * Try again; while a wait the answer asked for runs (a 429's), it waits too: pressed before, it would only
 * be told the same again. Its text stays "Try again": the countdown beside it says when.
 */
export function RetryButton({ onRetry, retrying, retryAt }: { onRetry: () => void; retrying: boolean; retryAt: Date | undefined }) {
  const now = useNow(1000);
  const waiting = retryAt !== undefined && retryAt.getTime() > now.getTime();
  return (
    <Button onClick={onRetry} disabled={waiting} busy={retrying} className="inline-flex items-center">
      {retrying ? 'Retrying…' : 'Try again'}
    </Button>
  );
}

/**
 * The wait the service asked for, counted down each second: "Try again in 30 s (at 14:02:31)", then
 * that it is over. The screen is an alert: the count is not read out again each second (aria-live off).
 * The audit page counts this server's own wait with it, in its own words (`lead`, `over`).
 */
export function RetryCountdown({
  seconds,
  retryAt,
  lead = `${SERVICE_WAIT} `,
  over = 'The wait the KYC service asked for is over: try again.',
}: {
  seconds: number;
  retryAt: Date | undefined;
  lead?: string;
  /** What is said once the wait has passed. */
  over?: string;
}) {
  const now = useNow(1000);
  const left = retryAt ? Math.ceil((retryAt.getTime() - now.getTime()) / 1000) : seconds;
  if (retryAt && left <= 0) return over;
  return (
    <span aria-live="off">
      {lead}Try again in {left} s
      {retryAt && (
        <>
          {' '}
          (at <TimeStamp date={retryAt} seconds />)
        </>
      )}
      .
    </span>
  );
}
