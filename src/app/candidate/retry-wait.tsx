import { type ReactNode, type Ref, useEffect, useState } from 'react';
import { formatDuration } from '../../kyc/view/time.ts';
import type { ApiError } from '../api/api-error.ts';
import { Button } from '../ui/button.tsx';
import { TimeStamp } from '../ui/time-stamp.tsx';

/**
 * The waits an answer asked for: on the candidate page's error screens (candidate-error.tsx), and, as the
 * entry other features import, on the audit page, the applicants list and the batch page. One countdown
 * and one held button, so that a wait reads and behaves the same on every page.
 */

/**
 * The service's own limit (a 429 of its own): on everyone this app sends, not on this reviewer's
 * lookups (those are `rate_limited`, this server's limit), so it is not said as "too many lookups".
 */
const SERVICE_WAIT = 'The KYC service asked this app to wait before asking again: its limit counts every lookup made here, not only yours.';

export function retryText(error: ApiError, id?: string): ReactNode {
  if (error.retryAfterSeconds === undefined) return `${SERVICE_WAIT} It did not say how long: wait a minute, then try again.`;
  return <RetryCountdown seconds={error.retryAfterSeconds} retryAt={error.retryAt} id={id} />;
}

/**
 * Whether the moment has not come yet, looked at again each second until it has. Each user of a wait
 * reads the clock when it renders, so the countdown and the button it holds turn at the same tick.
 */
export function useWaiting(until: Date | undefined): boolean {
  const [, tick] = useState(0);
  const waiting = until !== undefined && until.getTime() > Date.now();
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => tick((count) => count + 1), 1000);
    return () => clearInterval(timer);
  }, [waiting]);
  return waiting;
}

/**
 * Try again; while a wait the answer asked for runs (a 429's), it waits too: pressed before, it would only
 * be told the same again. It is held, not `disabled`: a disabled button loses the keyboard's focus (it
 * falls to the document), so it says so as `aria-disabled`, ignores presses, and is described by the
 * countdown (`describedBy`) until the wait ends. Its text stays "Try again": the countdown says when.
 */
export function RetryButton({
  onRetry,
  retrying,
  retryAt,
  describedBy,
  children,
  variant,
  ref,
}: {
  onRetry: () => void;
  retrying: boolean;
  retryAt: Date | undefined;
  describedBy?: string;
  /** The button's words, when not "Try again" ("Retrying…" while retrying): given, they stay while retrying too. */
  children?: ReactNode;
  variant?: 'primary' | 'secondary';
  ref?: Ref<HTMLButtonElement>;
}) {
  const waiting = useWaiting(retryAt);
  return (
    <Button
      ref={ref}
      onClick={onRetry}
      busy={retrying || waiting}
      aria-describedby={waiting ? describedBy : undefined}
      variant={variant}
      className="inline-flex items-center"
    >
      {children ?? (retrying ? 'Retrying…' : 'Try again')}
    </Button>
  );
}

/** How long a wait still runs, counted in seconds under an hour: "46 s", "1 min 10 s", "2 min", then "1 h 5 min". */
export function waitLength(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds >= 3600) return formatDuration(seconds * 1000);
  const rest = seconds % 60;
  return `${Math.floor(seconds / 60)} min${rest ? ` ${rest} s` : ''}`;
}

/**
 * The wait asked for, counted down each second: "Try again in 1 min 10 s, at 14:03:11 UTC" (the date too
 * when it ends on another day: TimeStamp's `clock`), then that it is over.
 * The count is not read out each second (aria-live off); its end is, politely, once (the polite region
 * around it), so that a screen reader hears when the held button can be used again. `lead` comes before
 * it and `act` says what waits ("Try again", "3 ids can start").
 */
export function RetryCountdown({
  seconds,
  retryAt,
  lead = `${SERVICE_WAIT} `,
  act = 'Try again',
  over = 'The wait the KYC service asked for is over: try again.',
  id,
}: {
  seconds: number;
  retryAt: Date | undefined;
  lead?: string;
  act?: string;
  /** What is said once the wait has passed. */
  over?: string;
  /** For the button the wait holds (`aria-describedby`). */
  id?: string;
}) {
  useWaiting(retryAt);
  const left = retryAt ? Math.ceil((retryAt.getTime() - Date.now()) / 1000) : seconds;
  return (
    <span id={id} aria-live="polite">
      {retryAt && left <= 0 ? (
        over
      ) : (
        <span aria-live="off">
          {lead}
          {act} in {waitLength(left)}
          {retryAt && (
            <>
              , at <TimeStamp date={retryAt} seconds clock />
            </>
          )}
          .
        </span>
      )}
    </span>
  );
}

/**
 * The wait the server named for a failure (its `Retry-After`, `retryAfterSeconds`), counted down on its
 * own: "Try again in 12 s, at 14:02:13 UTC." after a sentence that does not end on the wait itself ("Try
 * again in a moment.": `archiving_check_unavailable`, `server_busy`; the queue's tab held back). A
 * RetryCountdown without a lead: the count is not read out each second, its end once, politely, and `id`
 * describes the button the wait holds. Nothing when the server named no wait.
 */
export function SaidWait({ error, over, act, id }: { error: ApiError; over: string; act?: string; id?: string }) {
  if (error.retryAfterSeconds === undefined || !error.retryAt) return null;
  return <RetryCountdown seconds={error.retryAfterSeconds} retryAt={error.retryAt} lead="" act={act} over={over} id={id} />;
}

/** A wait at the end of the server's sentence: "… Try again in 46 s.", "…: 3 ids can start in 12 s." */
const SAID_WAIT = /^(.*?[.:] )?([^.:]+) in \d+ s\.$/s;

/** Whether the server's sentence ends on the wait it asked for ("… Try again in 46 s."), which ServerWait counts down. */
export const saysItsWait = (error: ApiError): boolean => SAID_WAIT.test(error.message);

/**
 * The server's sentence with the wait it ends on counted down: the number it said is true only the
 * moment it was said. A refusal that said no wait, or not in those words, is its sentence as it is.
 */
export function ServerWait({ error, over, id }: { error: ApiError; over: string; id?: string }) {
  const said = SAID_WAIT.exec(error.message);
  if (!said || !error.retryAt) return <span id={id}>{error.message}</span>;
  const [, lead = '', act = ''] = said;
  return <RetryCountdown seconds={error.retryAfterSeconds ?? 0} retryAt={error.retryAt} lead={lead} act={act} over={over} id={id} />;
}
