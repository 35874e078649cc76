import { ColumnHeads } from '../ui/column-heads.tsx';
import { Link } from '../navigation.tsx';
import type { EnvironmentInfo } from '../../kyc/contract/api.ts';
import type { Applicant, ApplicantFilter } from '../../kyc/contract/applicants.ts';
import { statusInfo } from '../../kyc/contract/status.ts';
import { useViewers, viewersOf } from '../live/presence.ts';
import { useVisited, wasVisited } from '../recent/visited.ts';
import { buttonClass } from '../ui/button.tsx';
import { cardClass } from '../ui/card.tsx';
import { cn } from '../ui/cn.ts';
import { useStackToFit } from '../ui/stack-to-fit.ts';
import { useNow } from '../ui/use-now.ts';
import { useZoneMode } from '../ui/zone-mode.ts';
import { SinceCell } from './applicant-cells.tsx';
import { ApplicantRow } from './applicant-row.tsx';
import type { PendingOpen } from './row-open.ts';
import type { QueueFilters } from './applicants-queries.ts';
import { useRef } from 'react';

/** The "since" column's heading: the date that matches the tab, or each row's own on All. */
export function sinceHeading(filter: ApplicantFilter | undefined): string {
  return filter ? `${statusInfo(filter).label} since` : 'Since';
}

/**
 * One page of the queue: the status chip (with "Opened" for a candidate this tab opened, and the initials
 * of whoever else has it open), the name (compliance users, where the service listed whole records),
 * since when (with the age, and the SLA flag), refId, recordId, archived, and the KYC service's
 * dashboard. The whole row opens its candidate: its id is a real link (its recordId, else its refId),
 * which tells the candidate page its place (Previous, Next), and a click elsewhere on the row that
 * selected no text opens it too (row-open.ts), so an id or a date can still be selected and copied.
 * Where the table does not fit its card (a narrow window, 200 % zoom), its rows are stacked, as on a
 * phone (useStackToFit).
 */
export function ApplicantsTable({
  records,
  caption,
  environment,
  info,
  changed,
  filter,
  filters,
  page,
  slaHours,
  names,
}: {
  records: Applicant[];
  caption: string;
  /** The reader may see names (compliance): a Name column when a record of the page has one. */
  names: boolean;
  /** Ids of candidates that changed a moment ago: their rows stand out briefly. */
  changed?: ReadonlySet<string>;
  /** The queue's environment (as the URL names it): rows open candidates in it; and what the server says of it. */
  environment: string | undefined;
  info: EnvironmentInfo | undefined;
  filter: ApplicantFilter | undefined;
  /** The toggles the page is filtered by: the candidate page's Previous and Next walk the same list. */
  filters: QueueFilters;
  page: number;
  /** Rows of a queue status waiting longer are flagged. */
  slaHours?: number | undefined;
}) {
  const now = useNow();
  const zone = useZoneMode();
  // Never for support users, whatever the answer holds: the server gives them none, and the page does not show one either.
  const nameColumn = names && records.some((applicant) => applicant.name !== undefined);
  const visited = useVisited();
  const viewers = useViewers();
  const name = info?.name;
  const card = useRef<HTMLDivElement>(null);
  const stacked = useStackToFit(card, records);
  // One for the whole queue, so that of two rows clicked within the wait only the last opens (row-open.ts).
  const pendingOpen: PendingOpen = useRef(undefined);
  return (
    <div ref={card} className={cn(cardClass({ padding: 'none' }), 'overflow-x-auto')}>
      <table data-stack data-stacked={stacked || undefined} className="group/queue w-full text-left text-sm sm:min-w-[44rem]">
        <caption className="sr-only">{caption}</caption>
        <ColumnHeads
          cell="px-4 py-2"
          // Without a dashboard address (a service other than Blockpass's, none configured) no column of empty cells.
          columns={[
            'Status',
            nameColumn && 'Name',
            sinceHeading(filter),
            'refId',
            'recordId',
            'Archived',
            info?.dashboardUrl && 'KYC service',
          ]}
        />
        <tbody className="divide-y divide-slate-100">
          {rowKeys(records).map(([key, applicant], index) => {
            const ids = [applicant.refId, applicant.recordId];
            return (
              <ApplicantRow
                key={key}
                applicant={applicant}
                environment={environment}
                info={info}
                place={{
                  filter: filter ?? null,
                  page,
                  index,
                  ...(filters.overSla ? { overSla: true } : {}),
                  ...(filters.attention ? { attention: true } : {}),
                }}
                names={names}
                nameColumn={nameColumn}
                highlighted={Boolean(changed && ids.some((id) => id && changed.has(id)))}
                visited={name !== undefined && wasVisited(visited, name, ids)}
                viewers={viewersOf(viewers, name, applicant.rooms)}
                since={<SinceCell applicant={applicant} now={now.getTime()} zone={zone} slaHours={slaHours} />}
                sinceLabel={sinceHeading(filter)}
                pendingOpen={pendingOpen}
              />
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Stable row keys from the ids; a record listed twice (the list moved between pages) gets a suffix. */
function rowKeys(records: Applicant[]): Array<[string, Applicant]> {
  const seen = new Map<string, number>();
  return records.map((applicant) => {
    const base = [applicant.recordId, applicant.refId, applicant.blockPassID, applicant.serviceID].join('\u0000');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return [n === 0 ? base : `${base}\u0000${n}`, applicant];
  });
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
