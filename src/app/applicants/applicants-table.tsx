import { Link } from '../navigation.tsx';
import type { Applicant } from '../../kyc/contract/applicants.ts';
import { candidatePath, environmentPath } from '../routes.ts';
import { buttonClass } from '../ui/button.tsx';
import { Card } from '../ui/card.tsx';
import { cn } from '../ui/cn.ts';
import { LongText } from '../ui/long-text.tsx';
import { StatusBadge } from '../ui/status-badge.tsx';

const ID_LIMIT = 64;

/** Where a row leads: by recordId, or by refId when the service gave no recordId. */
export function applicantLink(applicant: Applicant, environment?: string): string | undefined {
  if (applicant.recordId) return environmentPath(environment, candidatePath('recordId', applicant.recordId));
  if (applicant.refId) return environmentPath(environment, candidatePath('refId', applicant.refId));
  return undefined;
}

/** One page of the queue: the listed fields, each row opening its candidate. */
export function ApplicantsTable({
  records,
  caption,
  environment,
  changed,
}: {
  records: Applicant[];
  caption: string;
  /** Ids of candidates that changed a moment ago: their rows stand out briefly. */
  changed?: ReadonlySet<string>;
  /** The queue's environment: rows open candidates in it. */
  environment: string | undefined;
}) {
  return (
    <Card padding="none" className="overflow-x-auto">
      <table className="w-full min-w-[44rem] text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <tr>
            <th scope="col" className="px-4 py-2">
              refId
            </th>
            <th scope="col" className="px-4 py-2">
              recordId
            </th>
            <th scope="col" className="px-4 py-2">
              blockPassID
            </th>
            <th scope="col" className="px-4 py-2">
              Status
            </th>
            <th scope="col" className="px-4 py-2">
              Archived
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rowKeys(records).map(([key, applicant]) => (
            <ApplicantRow
              key={key}
              applicant={applicant}
              environment={environment}
              highlighted={Boolean(changed && [applicant.refId, applicant.recordId].some((id) => id && changed.has(id)))}
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
  highlighted,
}: {
  applicant: Applicant;
  environment: string | undefined;
  highlighted: boolean;
}) {
  const href = applicantLink(applicant, environment);
  const linkOn = applicant.recordId ? 'recordId' : 'refId';
  const cell = (field: 'refId' | 'recordId' | 'blockPassID') => {
    const value = applicant[field];
    if (!value) {
      return <span className="text-slate-500 italic">{field === 'refId' ? 'none assigned' : 'not given'}</span>;
    }
    const text = (
      <code className="font-mono break-all">
        <LongText text={value} limit={ID_LIMIT} />
      </code>
    );
    if (href && field === linkOn) {
      return (
        <Link
          to={href}
          className="rounded text-blue-800 underline decoration-blue-300 underline-offset-2 hover:decoration-blue-700 focus-ring-offset"
          data-open={field}
        >
          {text}
        </Link>
      );
    }
    return <span className="text-slate-800">{text}</span>;
  };
  return (
    <tr
      data-changed={highlighted || undefined}
      // Fades back as the highlight ends; with reduced motion it simply goes.
      className={cn(
        'align-top transition-colors duration-1000 motion-reduce:transition-none',
        highlighted ? 'bg-amber-100' : 'hover:bg-slate-50',
      )}
    >
      <td className="max-w-72 px-4 py-2">{cell('refId')}</td>
      <td className="max-w-72 px-4 py-2">{cell('recordId')}</td>
      <td className="max-w-72 px-4 py-2">{cell('blockPassID')}</td>
      <td className="px-4 py-2">
        <StatusBadge status={applicant.status} size="sm" />
        {highlighted && <span className="sr-only"> (just updated)</span>}
      </td>
      <td className="px-4 py-2">{applicant.isArchived ? 'Yes' : 'No'}</td>
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
