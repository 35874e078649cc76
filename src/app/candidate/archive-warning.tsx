import { formatDateTime, formatDuration } from '../../kyc/view/time.ts';
import { useZoneMode } from '../ui/zone-mode.ts';
import { cardClass } from '../ui/card.tsx';
import { useNow } from '../ui/use-now.ts';

/**
 * The key that fetched this record deletes the candidate's identity data shortly after each lookup
 * ("archive after extract"): said loudly, with the exact time (in the page's zone, or UTC when the header's
 * "UTC times" is on) and a countdown on the server's clock
 * (`clockOffsetMs` is how far this browser's clock runs behind it).
 */
export function ArchiveWarning({ at, accepted, clockOffsetMs = 0 }: { at: Date; accepted: boolean | undefined; clockOffsetMs?: number }) {
  const now = new Date(useNow(1000).getTime() + clockOffsetMs);
  // Whole seconds, rounded towards the deadline: "in 10 s" right after a 10 s lookup, not "in 9 s".
  const remaining = Math.ceil((at.getTime() - now.getTime()) / 1000) * 1000;
  // Like every time on the page: in the zone it shows, with the zone, to the second as the countdown counts.
  const when = formatDateTime(at, { zone: useZoneMode(), seconds: true });
  return (
    <div role="alert" data-testid="archive-warning" className={cardClass({ tone: 'alert' })}>
      <h2 className="text-lg font-semibold">
        <span aria-hidden="true">⚠ </span>
        {remaining > 0 ? (
          <>
            This API key archives identity data after each lookup: the service deletes this candidate's identity data at{' '}
            <time dateTime={at.toISOString()}>{when}</time> (in {formatDuration(remaining)})
          </>
        ) : (
          <>
            This API key archives identity data after each lookup: the service was due to delete this candidate's identity data at{' '}
            <time dateTime={at.toISOString()}>{when}</time> ({formatDuration(remaining)} ago)
          </>
        )}
      </h2>
      <p className="mt-2 font-semibold">This lookup started the deletion; it cannot be undone.</p>
      <p className="mt-1 text-sm">
        {accepted
          ? 'The administrator has accepted this ("archiveOnExtract": "accept"): every candidate opened here loses its identity data shortly after.'
          : 'Opening candidates with this key deletes what reviewers look at, so Candidate Lookup now refuses further full lookups. An administrator must give it a key without "archive after extract", or set "archiveOnExtract": "accept" for this environment.'}
      </p>
    </div>
  );
}
