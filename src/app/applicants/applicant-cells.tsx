import { AGE_ORDERED_FILTERS, type Applicant, type Skipped, statusDateFields } from '../../kyc/contract/applicants.ts';
import { DATE_DOUBT_AGE, DATE_DOUBT_WORDS, dateDoubt } from '../../kyc/contract/date-doubt.ts';
import { isUndatedStatus } from '../../kyc/contract/status.ts';
import { formatAge, formatDateTime, type ZoneMode } from '../../kyc/view/time.ts';
import { OutcomeChip } from '../ui/outcome-chip.tsx';

/**
 * The parts of a queue row that depend on what the service's record held: a list record may lack any
 * field but its status and one id (docs/api.md), and one of the wrong type is named on its field. Absent
 * is said in words, never left blank, and never mistaken for "No".
 */

/** A field the service sent but that could not be read: what was expected (the value is never passed on). */
export function Unreadable({ field, expected }: { field: string; expected: string }) {
  return (
    <span className="text-amber-800 italic" data-unreadable={field} title={`${field}: ${expected}`}>
      not readable ({expected})
    </span>
  );
}

/** The archive flag: yes, no, not given (early list records have none), or not readable. */
export function ArchivedCell({ applicant }: { applicant: Applicant }) {
  const problem = applicant.unreadable?.isArchived;
  if (problem) return <Unreadable field="isArchived" expected={problem} />;
  if (applicant.isArchived === undefined) return <span className="text-slate-500 italic">not given</span>;
  return <>{applicant.isArchived ? 'Yes' : 'No'}</>;
}

/** Whether a row has waited longer than the SLA: only statuses a reviewer works through, with a known date that can be right. */
export function isOverSla(applicant: Applicant, now: number, slaHours: number | undefined): boolean {
  if (slaHours === undefined || !applicant.since || !AGE_ORDERED_FILTERS.some((status) => status === applicant.status)) return false;
  const since = Date.parse(applicant.since);
  return dateDoubt(since, now) === undefined && now - since > slaHours * 3_600_000;
}

/** A status date that cannot be right (date-doubt.ts): as sent, its doubt in place of an age, and the row needs attention. */
function DoubtfulSince({ since, doubt }: { since: string; doubt: keyof typeof DATE_DOUBT_AGE }) {
  return (
    <div className="space-y-0.5" data-doubtful-date={doubt} title={DATE_DOUBT_WORDS[doubt]}>
      <span className="block font-mono text-xs text-slate-800">{since}</span>
      <span className="rounded bg-amber-50 px-1.5 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-300" data-age>
        <span aria-hidden="true">⚠ </span>
        {DATE_DOUBT_AGE[doubt]}
      </span>
    </div>
  );
}

/**
 * Since when the row has its status (its own date, or the queue index's), with the age and the SLA flag.
 * Without one: "not known yet" only where a date can still come (the index has not read it yet); a status
 * the service never dates (`incomplete`) says so, as "not known yet" would wait for ever, and so does a
 * record looked up that holds no date ("no date in the service's record").
 */
export function SinceCell({
  applicant,
  now,
  zone,
  slaHours,
}: {
  applicant: Applicant;
  now: number;
  zone: ZoneMode;
  slaHours: number | undefined;
}) {
  if (!applicant.since) {
    const field = statusDateFields(applicant.status).find((name) => applicant.unreadable?.[name]);
    if (field) return <Unreadable field={field} expected={applicant.unreadable![field]!} />;
    if (isUndatedStatus(applicant.status)) {
      return (
        <span className="text-slate-500 italic" data-undated-status>
          not dated by the service
        </span>
      );
    }
    if (applicant.dateless) {
      return (
        <span className="text-slate-500 italic" data-dateless>
          no date in the service's record
        </span>
      );
    }
    return <span className="text-slate-500 italic">not known yet</span>;
  }
  const date = new Date(applicant.since);
  const doubt = dateDoubt(date.getTime(), now);
  if (doubt) return <DoubtfulSince since={applicant.since} doubt={doubt} />;
  return (
    <div className="space-y-0.5">
      <time dateTime={date.toISOString()} className="block text-slate-800">
        {formatDateTime(date, { zone })}
      </time>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium text-slate-900 tabular-nums" data-age>
          {formatAge(now - date.getTime())}
        </span>
        {isOverSla(applicant, now, slaHours) && (
          <span
            className="rounded bg-red-50 px-1.5 py-0.5 text-xs font-semibold text-red-800 ring-1 ring-red-200"
            title={`In this status for more than ${slaHours} hours`}
            data-over-sla
          >
            <span aria-hidden="true">⚠ </span>
            Over SLA
          </span>
        )}
      </div>
    </div>
  );
}

/** The fields the row's columns show (or stand for): any other one that could not be read is named under the status. */
export function otherUnreadable(applicant: Applicant, names: boolean): Array<[string, string]> {
  const shown = new Set(['isArchived', 'recordId', '_id', 'refId', ...statusDateFields(applicant.status)]);
  return Object.entries(applicant.unreadable ?? {}).filter(([field]) => !shown.has(field) && (names || !field.startsWith('identities')));
}

/** The name column: the candidate's name where the service listed a whole record, for compliance users. */
export function NameCell({ applicant }: { applicant: Applicant }) {
  if (applicant.name) return <span className="font-medium text-slate-900">{applicant.name}</span>;
  return <span className="text-slate-500 italic">not in the list</span>;
}

/** The service's records left out of the list: how many, and why, so that a short page is not a mystery. */
export function SkippedNote({ skipped }: { skipped: Skipped | undefined }) {
  if (!skipped) return null;
  const records = skipped.count === 1 ? '1 record' : `${skipped.count.toLocaleString()} records`;
  return (
    <p role="note" className="text-sm text-amber-900" data-testid="skipped-records">
      {records} of this list could not be read and {skipped.count === 1 ? 'is' : 'are'} not shown: {skipped.reasons.join('; ')}.
    </p>
  );
}

/**
 * For compliance users, what one of their lookups showed of the candidate (issue 32): the worst outcome of
 * its certificates, as the decision summary reads it, and a record without pictures said so. Nothing when
 * nobody has looked it up yet.
 */
export function TriageNote({ applicant }: { applicant: Applicant }) {
  if (applicant.certificate === undefined && applicant.pictures !== false) return null;
  return (
    <div className="mt-1 flex flex-wrap items-center gap-1 text-xs" data-triage>
      {/* The word beside the chip, not in it: in the narrow status column the chip cut it to "Certifica…". */}
      {applicant.certificate && (
        <span className="inline-flex flex-wrap items-center gap-1">
          <span className="text-slate-600">Certificates</span>
          <OutcomeChip value={applicant.certificate} />
        </span>
      )}
      {applicant.pictures === false && <span className="text-slate-600 italic">no pictures</span>}
    </div>
  );
}
