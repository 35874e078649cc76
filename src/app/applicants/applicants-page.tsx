import { keepPreviousData, useIsFetching, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { APPLICANTS_PAGE_SIZE, type ApplicantFilter, type ApplicantsQuery } from '../../kyc/contract/applicants.ts';
import { LookupError } from '../candidate/lookup-error.ts';
import { splitEnvironmentPath } from '../routes.ts';
import { TimeStamp } from '../ui/time-stamp.tsx';
import { useNow } from '../ui/use-now.ts';
import { applicantsQueries } from './applicants-queries.ts';
import { ApplicantsTable, Paging } from './applicants-table.tsx';
import { QUEUE_TABS, QueueTabs, tabKey, type TabCount } from './applicants-tabs.tsx';
import { type QueueLocation, queueHref, readQueueLocation } from './queue-location.ts';
import { QueueError, QueueNotOffered, QueueSkeleton } from './queue-states.tsx';

const EMPTY: Record<string, string> = {
  all: 'The KYC service lists no candidates.',
  waiting: 'No candidates are waiting for review.',
  inreview: 'No candidates are in review.',
  approved: 'No candidates are approved.',
};

const asLookupError = (error: unknown) =>
  error instanceof LookupError ? error : new LookupError('malformed', 'The list could not be read.', { detail: String(error) });

/** `/applicants`: the service's candidates by status, a page at a time, each opening its candidate page. */
export function ApplicantsPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const now = useNow();
  const idPrefix = useId();
  const { filter, page } = readQueueLocation(params);
  const environment = splitEnvironmentPath(useLocation().pathname).environment;
  const hrefOf = (location: QueueLocation) => queueHref(location, environment);
  const query: ApplicantsQuery = { status: filter, skip: (page - 1) * APPLICANTS_PAGE_SIZE, limit: APPLICANTS_PAGE_SIZE };

  const list = useQuery({
    ...applicantsQueries.page(query, environment),
    // Moving between pages of one tab keeps the rows in place until the next page arrives.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === tabKey(filter) ? keepPreviousData(previous) : undefined),
  });
  // The other tabs' counts: the `total` of a one-record page each.
  const others = QUEUE_TABS.filter((tab) => tab.filter !== filter);
  const countQueries = useQueries({
    queries: others.map((tab) => applicantsQueries.page({ status: tab.filter, skip: 0, limit: 1 }, environment)),
  });
  const fetching = useIsFetching({ queryKey: applicantsQueries.all() }) > 0;

  useEffect(() => {
    document.title = 'Applicants · Candidate Lookup';
  }, []);

  const counts: Record<string, TabCount> = {};
  others.forEach((tab, index) => {
    const count = countQueries[index]!;
    counts[tabKey(tab.filter)] = count.data ? count.data.total : count.isError ? 'unavailable' : 'loading';
  });
  counts[tabKey(filter)] = list.data && !list.isPlaceholderData ? list.data.total : list.isError ? 'unavailable' : 'loading';

  const error = list.isError ? asLookupError(list.error) : undefined;
  const select = (next: ApplicantFilter | undefined) => navigate(hrefOf({ filter: next, page: 1 }));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: applicantsQueries.all() });
  const panelId = `${idPrefix}-panel`;

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">Applicants</h1>
          <p className="mt-1 text-sm text-slate-600">
            The KYC service's candidates by status, {APPLICANTS_PAGE_SIZE} a page. Status only: open a candidate to see more.
          </p>
        </div>
        {error?.kind !== 'not_offered' && (
          <div className="flex flex-wrap items-center gap-3">
            <p className="text-sm text-slate-600" aria-live="polite" data-testid="fetched-at">
              {list.data && !list.isPlaceholderData ? (
                <>
                  {/* The clock ticks every 30 s: a page fetched since is "now", never "in 1 second". */}
                  Fetched <TimeStamp date={new Date(list.dataUpdatedAt)} now={new Date(Math.max(now.getTime(), list.dataUpdatedAt))} />
                </>
              ) : null}
            </p>
            <button
              type="button"
              onClick={refresh}
              disabled={fetching}
              className="inline-flex items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-wait disabled:text-slate-500"
            >
              {fetching ? 'Refreshing…' : 'Refresh'}
            </button>
          </div>
        )}
      </div>
      {error?.kind === 'not_offered' ? (
        <QueueNotOffered />
      ) : (
        <div className="space-y-4">
          <QueueTabs active={filter} counts={counts} panelId={panelId} idPrefix={idPrefix} onSelect={select} />
          <div role="tabpanel" id={panelId} aria-labelledby={`${idPrefix}-${tabKey(filter)}`} className="space-y-3">
            {error ? (
              <QueueError error={error} onRetry={() => void list.refetch()} retrying={list.isFetching} />
            ) : !list.data ? (
              <QueueSkeleton />
            ) : list.data.records.length === 0 ? (
              <EmptyPage total={list.data.total} filter={filter} page={page} hrefOf={hrefOf} />
            ) : (
              <div className={list.isPlaceholderData ? 'opacity-60' : ''} aria-busy={list.isPlaceholderData}>
                <ApplicantsTable
                  environment={environment}
                  records={list.data.records}
                  caption={`${QUEUE_TABS.find((tab) => tab.filter === filter)!.label} candidates, page ${page}`}
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
            )}
          </div>
        </div>
      )}
    </div>
  );
}

function EmptyPage({
  total,
  filter,
  page,
  hrefOf,
}: {
  total: number;
  filter: ApplicantFilter | undefined;
  page: number;
  hrefOf: (location: QueueLocation) => string;
}) {
  if (total === 0) {
    return <p className="rounded-xl border border-dashed border-slate-300 bg-white p-5 text-sm text-slate-700">{EMPTY[tabKey(filter)]}</p>;
  }
  const last = Math.max(1, Math.ceil(total / APPLICANTS_PAGE_SIZE));
  return (
    <p className="rounded-xl border border-dashed border-slate-300 bg-white p-5 text-sm text-slate-700">
      There is no page {page}: this list has {last} {last === 1 ? 'page' : 'pages'}.{' '}
      <Link
        to={hrefOf({ filter, page: last })}
        className="rounded font-medium text-blue-800 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-blue-600"
      >
        Go to the last page
      </Link>
    </p>
  );
}
