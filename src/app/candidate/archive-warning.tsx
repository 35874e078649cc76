import { type CandidateRecord, unreadFieldsOf } from '../../kyc/contract/record-reading.ts';
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
export function ArchiveWarning({
  at,
  undated,
  accepted,
  clockOffsetMs = 0,
}: {
  at?: Date;
  undated?: UndatedArchive;
  accepted: boolean | undefined;
  clockOffsetMs?: number;
}) {
  return (
    <div role="alert" data-testid="archive-warning" className={cardClass({ tone: 'alert' })}>
      {at ? <DatedHeading at={at} clockOffsetMs={clockOffsetMs} /> : <UndatedHeading undated={undated} />}
      <p className="mt-2 font-semibold">This lookup started the deletion; it cannot be undone.</p>
      <p className="mt-1 text-sm">
        {accepted
          ? 'The administrator has accepted this ("archiveOnExtract": "accept"): every candidate opened here loses its identity data shortly after.'
          : 'Opening candidates with this key deletes what reviewers look at, so Candidate Lookup now refuses further full lookups. An administrator must give it a key without "archive after extract", or set "archiveOnExtract": "accept" for this environment.'}
      </p>
    </div>
  );
}

/**
 * `willArchiveAtDate` sent, but no timestamp (a number, text that is no date, an object): only a key that
 * archives after extract sends it, so the deletion is under way all the same, at a time not known. `sent`:
 * its value as sent where it can be shown (a number or a date's characters, at most 35: dateAsSent), else
 * `found`, its kind (any other text could be any data).
 */
export interface UndatedArchive {
  sent?: string;
  found: string;
}

function undatedArchiveOf(record: CandidateRecord): UndatedArchive | undefined {
  const entry = unreadFieldsOf(record).find((unread) => unread.field === 'willArchiveAtDate');
  return entry && { found: entry.found, ...(entry.sent === undefined ? {} : { sent: entry.sent }) };
}

/** The warning's props: by the deletion time when the answer dates it, else by the field sent with no date; none without either. */
export function archiveWarningOf(at: Date | undefined, clockOffsetMs: number, record: CandidateRecord | undefined) {
  if (at) return { at, clockOffsetMs };
  const undated = record && undatedArchiveOf(record);
  return undated && { undated };
}

function UndatedHeading({ undated }: { undated: UndatedArchive | undefined }) {
  return (
    <h2 className="text-lg font-semibold">
      <span aria-hidden="true">⚠ </span>
      This API key archives identity data after each lookup: the service will delete this candidate's identity data, at a time this answer
      does not give as a date (willArchiveAtDate:{' '}
      {undated?.sent !== undefined ? (
        <bdi>
          <code>{undated.sent}</code>
        </bdi>
      ) : (
        `${undated?.found ?? 'a value'}, not shown`
      )}
      )
    </h2>
  );
}

function DatedHeading({ at, clockOffsetMs }: { at: Date; clockOffsetMs: number }) {
  const now = new Date(useNow(1000).getTime() + clockOffsetMs);
  // Whole seconds, rounded towards the deadline: "in 10 s" right after a 10 s lookup, not "in 9 s".
  const remaining = Math.ceil((at.getTime() - now.getTime()) / 1000) * 1000;
  // Like every time on the page: in the zone it shows, with the zone, to the second as the countdown counts.
  const when = formatDateTime(at, { zone: useZoneMode(), seconds: true });
  return (
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
  );
}
