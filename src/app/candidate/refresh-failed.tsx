import { type ApiError, asApiError, type ErrorCode } from '../api/api-error.ts';
import { errorTitle } from '../api/error-titles.ts';
import { Button } from '../ui/button.tsx';
import { TimeStamp } from '../ui/time-stamp.tsx';

/**
 * Failures of a Refresh after which the record fetched before is no longer to be shown: the session
 * ended, this user may no longer see it, or the service says the candidate is not there. Any other
 * failure (the service down, slow, limiting requests, an answer that broke off) says nothing about the
 * record: it stays on screen, with what went wrong above it.
 */
const DROPS_RECORD: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'unauthenticated',
  'not_found',
  'role_forbidden',
  'environment_forbidden',
  'no_such_environment',
]);

/** The error of a failed refresh, when the record fetched before stays on screen beside it; undefined when it does not. */
export function refreshFailure(error: unknown, hasRecord: boolean): ApiError | undefined {
  if (!hasRecord || error === null || error === undefined) return undefined;
  const failure = asApiError(error, 'The response could not be read.');
  return DROPS_RECORD.has(failure.code) ? undefined : failure;
}

/** "Refresh failed: <title>. <what the server said> The page still shows the candidate as fetched at <time>.", with Try again. */
export function RefreshFailed({
  error,
  fetchedAt,
  onRetry,
  retrying,
}: {
  error: ApiError;
  fetchedAt: number;
  onRetry: () => void;
  retrying: boolean;
}) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-3 rounded-xl border border-amber-300 bg-amber-50 px-4 py-2 text-amber-950 print:hidden"
      data-testid="refresh-failed"
      data-error-kind={error.code}
    >
      <p className="min-w-0 flex-1 break-words">
        <span className="font-semibold">Refresh failed: {errorTitle(error.code)}.</span> {error.message} The page still shows the candidate
        as fetched <TimeStamp date={new Date(fetchedAt)} />.
      </p>
      <Button variant="secondary" size="md" onClick={onRetry} busy={retrying}>
        {retrying ? 'Retrying…' : 'Try again'}
      </Button>
    </div>
  );
}
