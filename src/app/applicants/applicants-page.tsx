import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { Link, navigate, useLocation } from '../navigation.tsx';
import { AGE_ORDERED_FILTERS, APPLICANTS_PAGE_SIZE, type ApplicantFilter } from '../../kyc/contract/applicants.ts';
import { environmentPath, splitEnvironmentPath } from '../routes.ts';
import { Button } from '../ui/button.tsx';
import { Card } from '../ui/card.tsx';
import { cn } from '../ui/cn.ts';
import { TimeStamp } from '../ui/time-stamp.tsx';
import { useNow } from '../ui/use-now.ts';
import { sessionQueries } from '../session/session-query.ts';
import { SkippedNote } from './applicant-cells.tsx';
import { IdlessNote } from './idless-note.tsx';
import { applicantsQueries } from './applicants-queries.ts';
import { ApplicantsTable, Paging } from './applicants-table.tsx';
import { overSlaOf, QUEUE_TABS, QueueTabs, tabKey } from './applicants-tabs.tsx';
import { type QueueLocation, queueHref, readQueueLocation } from './queue-location.ts';
import { QueueError, QueueFreshness, QueueNotOffered, QueueOrderNote, QueueSkeleton, RefusedFiltersNote } from './queue-states.tsx';
import { listLimitText } from './queue-limit.ts';
import { statusInfo } from '../../kyc/contract/status.ts';
import { seesCertificateOutcomes } from '../../kyc/contract/roles.ts';
import { useQueue } from './use-queue.ts';
import { useLiveQueue } from './live-queue.ts';
import { useQueueReturn, useRowKeys } from './queue-focus.ts';
import { useEnvironment } from '../environment/use-environment.ts';
import type { QueueFilters } from './applicants-queries.ts';
import { filtersText, QueueFilterToggles } from './queue-filters.tsx';
import { useZoneMode } from '../ui/zone-mode.ts';

/** Whether the environment has an SLA, as the last view of any tab said (the toggle stays while another tab loads). */
const latestSla = (queue: ReturnType<typeof useQueue>) => (Object.values(queue.overSla).some((over) => over !== undefined) ? 1 : undefined);

const EMPTY: Record<string, string> = {
  all: 'The KYC service lists no candidates.',
  waiting: 'No candidates are waiting for review.',
  inreview: 'No candidates are in review.',
  approved: 'No candidates are approved.',
};
const emptyText = (filter: ApplicantFilter | undefined) =>
  EMPTY[tabKey(filter)] ?? `No candidates have the status “${statusInfo(filter ?? '').label}”.`;

type HrefOf = (location: QueueLocation) => string;

/** `/applicants`: the service's candidates by status, a page at a time, each opening its candidate page. */
export function ApplicantsPage() {
  const { pathname, search } = useLocation();
  const idPrefix = useId();
  const location = readQueueLocation(new URLSearchParams(search));
  const { filter, page } = location;
  const environment = splitEnvironmentPath(pathname).environment;
  // Names and the certificates' triage: compliance users and leads (the batch's rule); never support users.
  const names = seesCertificateOutcomes(useQuery(sessionQueries.current()).data?.role);
  // Attention is for compliance users and leads: a support user's link that asks for it shows the tab whole.
  const filters: QueueFilters = {
    ...(location.overSla ? { overSla: true } : {}),
    ...(location.attention && names ? { attention: true } : {}),
  };
  const hrefOf: HrefOf = (to) => queueHref({ ...filters, ...to }, environment);
  const queue = useQueue(filter, page, environment, filters);
  const { changed, said } = useLiveQueue(environment);
  // As the header's indicator reads it (live-header.tsx): off only where the server says so.
  const live = useEnvironment().info?.live !== false;
  const { error } = queue;
  const queryClient = useQueryClient();
  const rows = useRef<HTMLDivElement>(null);
  useQueueReturn(hrefOf({ filter, page }), queue.current?.records, rows);
  useRowKeys(rows);

  useEffect(() => {
    document.title = 'Applicants · Candidate Lookup';
    // A page with names (whole records listed to a compliance user) leaves memory with the page, as a candidate does.
    return () =>
      queryClient.removeQueries({
        queryKey: applicantsQueries.all(),
        predicate: (query) => (query.state.data as { records?: { name?: string }[] } | undefined)?.records?.some((r) => r.name) === true,
      });
  }, [queryClient]);

  // The list itself is missing (a documented filter, or All, refused); another filter refused is only that tab.
  if (error?.code === 'applicants_unavailable' && !queue.refused.some((tab) => tab.filter === filter)) {
    return (
      <div className="space-y-5">
        <QueueHeader />
        <QueueNotOffered homeHref={environmentPath(environment, '/')} />
      </div>
    );
  }
  const panelId = `${idPrefix}-panel`;
  return (
    <div className="space-y-5">
      <QueueHeader fetchedAt={queue.current ? queue.list.dataUpdatedAt : undefined} fetching={queue.fetching} onRefresh={queue.refresh} />
      <div className="space-y-4">
        <QueueTabs
          tabs={queue.tabs}
          active={filter}
          counts={queue.counts}
          // The open tab's page says whether its count is partial (use-queue's counts are plain numbers).
          overSla={{ ...queue.overSla, [tabKey(filter)]: overSlaOf(queue.current) }}
          panelId={panelId}
          idPrefix={idPrefix}
          onSelect={(next) =>
            navigate(
              hrefOf({ filter: next, page: 1, overSla: filters.overSla && next !== undefined && AGE_ORDERED_FILTERS.includes(next) }),
            )
          }
        />
        <RefusedFiltersNote refused={queue.refused} />
        <QueueFreshness index={queue.current?.index} fetchedAt={queue.list.dataUpdatedAt} live={live} tab={tabKey(filter)} />
        {/* Live changes, said to screen readers as the rows move (the highlight is for the eyes). */}
        <p aria-live="polite" className="sr-only" data-testid="queue-live-said">
          {said}
        </p>
        <div ref={rows} role="tabpanel" id={panelId} aria-labelledby={`${idPrefix}-${tabKey(filter)}`} className="space-y-3">
          <QueueFilterToggles
            filter={filter}
            filters={filters}
            slaHours={queue.list.data?.slaHours ?? latestSla(queue)}
            compliance={names}
            onChange={(next) => navigate(queueHref({ filter, page: 1, ...next }, environment))}
          />
          <QueuePanel
            queue={queue}
            filter={filter}
            page={page}
            environment={environment}
            hrefOf={hrefOf}
            changed={changed}
            names={names}
            filters={filters}
            filtered={filtersText(filters)}
          />
        </div>
      </div>
    </div>
  );
}

/** The selected tab's page: loading, what went wrong, nothing there, or the table and its paging. */
function QueuePanel({
  queue,
  filter,
  page,
  environment,
  hrefOf,
  changed,
  names,
  filters,
  filtered,
}: {
  queue: ReturnType<typeof useQueue>;
  names: boolean;
  /** The toggles the tab is filtered by, handed with each row to the candidate page it opens. */
  filters: QueueFilters;
  /** What the toggles leave out, in words (none: the tab whole). */
  filtered: string | undefined;
  filter: ApplicantFilter | undefined;
  page: number;
  environment: string | undefined;
  hrefOf: HrefOf;
  changed: ReadonlySet<string>;
}) {
  const { list, error } = queue;
  const { info } = useEnvironment();
  const zone = useZoneMode();
  const now = useNow();
  // Only a filter the service refused reaches here with this code (the page says so for the list as a whole).
  if (error?.code === 'applicants_unavailable') {
    return (
      <Card as="p" tone="dashed" className="text-sm" data-testid="filter-refused">
        {error.message}
      </Card>
    );
  }
  if (error) return <QueueError error={error} onRetry={() => void list.refetch()} retrying={list.isFetching} />;
  if (!list.data) return <QueueSkeleton />;
  const label = QUEUE_TABS.find((tab) => tab.filter === filter)!.label;
  // A page whose records could not be read, or opened, at all says so, rather than that there is no such page.
  if (list.data.records.length === 0 && (list.data.skipped || list.data.idless)) {
    return (
      <div className="space-y-3">
        <IdlessNote idless={list.data.idless} />
        <SkippedNote skipped={list.data.skipped} />
      </div>
    );
  }
  if (list.data.records.length === 0) {
    return (
      <EmptyPage
        total={list.data.total}
        filter={filter}
        page={page}
        hrefOf={hrefOf}
        crawling={list.data.index?.crawling === true && (listLimitText(list.data.index, zone, now) ?? true)}
        withheld={list.data.index?.error?.withheld === true}
        filtered={filtered}
      />
    );
  }
  return (
    <div className={cn('space-y-3', list.isPlaceholderData && 'opacity-60')} aria-busy={list.isPlaceholderData}>
      <QueueOrderNote order={list.data.order} filter={filter} undated={list.data.index?.undated} />
      <IdlessNote idless={list.data.idless} />
      <SkippedNote skipped={list.data.skipped} />
      <ApplicantsTable
        names={names}
        environment={environment}
        info={info}
        page={page}
        records={list.data.records}
        changed={changed}
        filter={filter}
        filters={filters}
        slaHours={list.data.slaHours}
        caption={`${label} candidates, page ${page}`}
      />
      <div className="mt-3">
        <Paging
          page={page}
          pageCount={Math.ceil(list.data.total / APPLICANTS_PAGE_SIZE)}
          total={list.data.total}
          shown={list.data.records.length}
          skip={list.data.skip}
          hrefOf={(to) => hrefOf({ filter, page: to })}
        />
      </div>
    </div>
  );
}

/** The title; and, when there is a list, when it was fetched and a way to fetch it again. */
function QueueHeader({ fetchedAt, fetching, onRefresh }: { fetchedAt?: number; fetching?: boolean; onRefresh?: () => void }) {
  const now = useNow();
  return (
    <Card className="flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Applicants</h1>
        <p className="mt-1 text-sm text-slate-600">
          The KYC service's candidates by status, {APPLICANTS_PAGE_SIZE} a page. Open a candidate to see more.
        </p>
      </div>
      {onRefresh && (
        <div className="flex flex-wrap items-center gap-3">
          {/* Not a live region: its "(29 seconds ago)" changes every 30 s, and would be read out each time. */}
          <p className="text-sm text-slate-600" data-testid="fetched-at">
            {fetchedAt !== undefined && (
              <>
                {/* The clock ticks every 30 s: a page fetched since is "now", never "in 1 second". */}
                Fetched <TimeStamp date={new Date(fetchedAt)} now={new Date(Math.max(now.getTime(), fetchedAt))} />
              </>
            )}
          </p>
          <Button variant="secondary" onClick={onRefresh} busy={fetching}>
            {fetching ? 'Refreshing…' : 'Refresh'}
          </Button>
        </div>
      )}
    </Card>
  );
}

function EmptyPage({
  total,
  filter,
  page,
  hrefOf,
  crawling,
  withheld,
  filtered,
}: {
  total: number;
  filtered: string | undefined;
  filter: ApplicantFilter | undefined;
  page: number;
  hrefOf: HrefOf;
  /** The list was never read whole yet: none known is not none there (a text: the service limits its reads). */
  crawling: boolean | string;
  /** Nor is it read, to keep identity data (QueueFreshness says why). */
  withheld: boolean;
}) {
  if (total === 0) {
    return (
      <Card as="p" tone="dashed" className="text-sm" data-testid={crawling ? 'queue-still-reading' : undefined}>
        {crawling && withheld
          ? 'None known: the KYC service’s list is not read (above, why), and no candidate of this tab was looked up here.'
          : crawling
            ? `None read yet: ${typeof crawling === 'string' ? crawling : 'the KYC service’s list is still being read; this list fills in by itself.'}`
            : (filtered ?? emptyText(filter))}
      </Card>
    );
  }
  const last = Math.max(1, Math.ceil(total / APPLICANTS_PAGE_SIZE));
  return (
    <Card as="p" tone="dashed" className="text-sm">
      There is no page {page}: this list has {last} {last === 1 ? 'page' : 'pages'}.{' '}
      <Link to={hrefOf({ filter, page: last })} className="rounded font-medium text-blue-800 underline underline-offset-2 focus-ring">
        Go to the last page
      </Link>
    </Card>
  );
}
