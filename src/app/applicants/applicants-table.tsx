import type { ReactNode } from 'react';
import { Link } from '../navigation.tsx';
import type { Applicant, ApplicantFilter } from '../../kyc/contract/applicants.ts';
import { statusInfo } from '../../kyc/contract/status.ts';
import { candidatePath, environmentPath } from '../routes.ts';
import { buttonClass } from '../ui/button.tsx';
import { Card } from '../ui/card.tsx';
import { cn } from '../ui/cn.ts';
import { LongText } from '../ui/long-text.tsx';
import { StatusBadge } from '../ui/status-badge.tsx';
import { useNow } from '../ui/use-now.ts';
import { useZoneMode } from '../ui/zone-mode.ts';
import { ArchivedCell, NameCell, otherUnreadable, SinceCell, TriageNote, Unreadable } from './applicant-cells.tsx';

const ID_LIMIT = 64;

/** Where a row leads: by recordId, or by refId when the service gave no recordId. */
export function applicantLink(applicant: Applicant, environment?: string): string | undefined {
  if (applicant.recordId) return environmentPath(environment, candidatePath('recordId', applicant.recordId));
  if (applicant.refId) return environmentPath(environment, candidatePath('refId', applicant.refId));
  return undefined;
}

/** The "since" column's heading: the date that matches the tab, or each row's own on All. */
export function sinceHeading(filter: ApplicantFilter | undefined): string {
  return filter ? `${statusInfo(filter).label} since` : 'Since';
}

/**
 * One page of the queue: the status chip, the name (compliance users, where the service listed whole
 * records), since when (with the age, and the SLA flag), refId, recordId and archived. The whole row
 * opens its candidate: its id is a real link (its recordId, else its refId), stretched over the row.
 */
export function ApplicantsTable({
  records,
  caption,
  environment,
  changed,
  filter,
  slaHours,
  names,
}: {
  records: Applicant[];
  caption: string;
  /** The reader may see names (compliance): a Name column when a record of the page has one. */
  names: boolean;
  /** Ids of candidates that changed a moment ago: their rows stand out briefly. */
  changed?: ReadonlySet<string>;
  /** The queue's environment: rows open candidates in it. */
  environment: string | undefined;
  filter: ApplicantFilter | undefined;
  /** Rows of a queue status waiting longer are flagged. */
  slaHours?: number | undefined;
}) {
  const now = useNow();
  const zone = useZoneMode();
  // Never for support users, whatever the answer holds: the server gives them none, and the page does not show one either.
  const nameColumn = names && records.some((applicant) => applicant.name !== undefined);
  const heading = (text: string) => (
    <th scope="col" className="px-4 py-2">
      {text}
    </th>
  );
  return (
    <Card padding="none" className="overflow-x-auto">
      <table data-stack className="w-full text-left text-sm sm:min-w-[44rem]">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <tr>
            {heading('Status')}
            {nameColumn && heading('Name')}
            {heading(sinceHeading(filter))}
            {heading('refId')}
            {heading('recordId')}
            {heading('Archived')}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rowKeys(records).map(([key, applicant]) => (
            <ApplicantRow
              key={key}
              applicant={applicant}
              environment={environment}
              names={names}
              nameColumn={nameColumn}
              highlighted={Boolean(changed && [applicant.refId, applicant.recordId].some((id) => id && changed.has(id)))}
              since={<SinceCell applicant={applicant} now={now.getTime()} zone={zone} slaHours={slaHours} />}
              sinceLabel={sinceHeading(filter)}
            />
          ))}
        </tbody>
      </table>
    </Card>
  );
}

/** Stable row keys from the ids; a record listed twice (the list moved between pages) gets a suffix. */
function rowKeys(records: Applicant[]): Array<[string, Applicant]> {
  const seen = new Map<string, number>();
  return records.map((applicant) => {
    const base = [applicant.recordId, applicant.refId, applicant.blockPassID].join('\u0000');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return [n === 0 ? base : `${base}\u0000${n}`, applicant];
  });
}

function ApplicantRow({
  applicant,
  environment,
  names,
  nameColumn,
  highlighted,
  since,
  sinceLabel,
}: {
  applicant: Applicant;
  environment: string | undefined;
  names: boolean;
  nameColumn: boolean;
  highlighted: boolean;
  since: ReactNode;
  /** The since column's name, which a stacked row (on a phone) shows beside its value. */
  sinceLabel: string;
}) {
  const href = applicantLink(applicant, environment);
  const linkOn = applicant.recordId ? 'recordId' : 'refId';
  const cell = (field: 'refId' | 'recordId') => {
    const value = applicant[field];
    if (!value) {
      // The service sent an id of the wrong type: it is said so, not "none assigned" (the row is opened by its other id).
      const problem = field === 'refId' ? applicant.unreadable?.refId : (applicant.unreadable?.recordId ?? applicant.unreadable?._id);
      if (problem) return <Unreadable field={field} expected={problem} />;
      return <span className="text-slate-500 italic">{field === 'refId' ? 'none assigned' : 'not given'}</span>;
    }
    const linked = href && field === linkOn;
    const wrap = (content: ReactNode) =>
      linked ? (
        <Link
          to={href}
          // The link is stretched over the whole row (the row is its containing block): a click anywhere opens it.
          className="rounded text-blue-800 underline decoration-blue-300 underline-offset-2 after:absolute after:inset-0 after:content-[''] hover:decoration-blue-700 focus-ring-offset"
          data-open={field}
        >
          {content}
        </Link>
      ) : (
        content
      );
    // A long id's "Show all" sits outside the link and above the row's overlay, so that it can be pressed.
    return (
      <code className={cn('font-mono break-all', !linked && 'text-slate-800')}>
        <LongText text={value} limit={ID_LIMIT} wrap={wrap} toggleClassName="relative z-10 font-sans" />
      </code>
    );
  };
  return (
    <tr
      data-changed={highlighted || undefined}
      // Fades back as the highlight ends; with reduced motion it simply goes.
      className={cn(
        'relative align-top transition-colors duration-1000 motion-reduce:transition-none',
        highlighted ? 'bg-amber-100' : 'hover:bg-slate-50',
      )}
    >
      <td className="px-4 py-2">
        <StatusBadge status={applicant.status} size="sm" />
        {highlighted && <span className="sr-only"> (just updated)</span>}
        {names && <TriageNote applicant={applicant} />}
        {otherUnreadable(applicant, names).map(([field, expected]) => (
          <div key={field} className="mt-1 text-xs">
            <code>{field}</code> <Unreadable field={field} expected={expected} />
          </div>
        ))}
      </td>
      {nameColumn && (
        <td className="max-w-72 px-4 py-2 break-words" data-label="Name">
          <NameCell applicant={applicant} />
        </td>
      )}
      <td className="px-4 py-2" data-label={sinceLabel}>
        {since}
      </td>
      <td className="max-w-72 px-4 py-2" data-label="refId">
        {cell('refId')}
      </td>
      <td className="max-w-72 px-4 py-2" data-label="recordId">
        {cell('recordId')}
      </td>
      <td className="px-4 py-2" data-label="Archived">
        <ArchivedCell applicant={applicant} />
      </td>
    </tr>
  );
}

/** "Showing 51–100 of 130", and links to the previous and next pages. */
export function Paging({
  page,
  pageCount,
  total,
  shown,
  skip,
  hrefOf,
}: {
  page: number;
  pageCount: number;
  total: number;
  shown: number;
  skip: number;
  hrefOf: (page: number) => string;
}) {
  const linkClass = buttonClass({ variant: 'secondary' });
  const disabledClass = 'inline-flex items-center rounded-md border border-slate-200 px-3 py-1.5 text-sm text-slate-500';
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-600">
        {shown > 0 ? `Showing ${(skip + 1).toLocaleString()}–${(skip + shown).toLocaleString()} of ${total.toLocaleString()}` : ''}
        {pageCount > 1 ? ` · page ${page} of ${pageCount}` : ''}
      </p>
      {pageCount > 1 && (
        <div className="flex gap-2">
          {page > 1 ? (
            <Link className={linkClass} to={hrefOf(Math.min(page - 1, pageCount))} rel="prev">
              ← Previous page
            </Link>
          ) : (
            <span className={disabledClass} aria-disabled="true">
              ← Previous page
            </span>
          )}
          {page < pageCount ? (
            <Link className={linkClass} to={hrefOf(page + 1)} rel="next">
              Next page →
            </Link>
          ) : (
            <span className={disabledClass} aria-disabled="true">
              Next page →
            </span>
          )}
        </div>
      )}
    </nav>
  );
}
