import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type Applicant, type ApplicantFilter, isApplicantFilter, type QueueOrder } from '../../kyc/contract/applicants.ts';
import type { QueueHandOver } from '../routes.ts';
import { type QueueFilters, queuePageQuery } from './applicants-queries.ts';
import { QUEUE_TABS } from './applicants-tabs.tsx';
import type { ListPlace, ListStep, ListWords, ShownCandidate } from '../recent/list-place.ts';
import { rememberOpenedRow } from '../recent/row-return.ts';
import { applicantLink, queueHref } from './queue-location.ts';

/**
 * The candidate page's place in the queue it was opened from (the applicants feature's entry for the
 * candidate page): "3 of 21 · Waiting, oldest first", its neighbours and the way back.
 */

/** What the history entry says of the queue a candidate page was opened from, if it is what the queue put there. */
export function queueHandOverOf(state: unknown): QueueHandOver['queue'] | undefined {
  const queue = (state as Partial<QueueHandOver> | null)?.queue;
  if (!queue || typeof queue !== 'object') return undefined;
  const { filter, page, index, overSla, attention } = queue;
  const counted = (n: unknown, min: number) => typeof n === 'number' && Number.isInteger(n) && n >= min && n < 1e6;
  if ((filter !== null && typeof filter !== 'string') || !counted(page, 1) || !counted(index, 0)) return undefined;
  // An entry written before the toggles (or without them) is the tab whole.
  return { filter, page, index, ...(overSla === true ? { overSla } : {}), ...(attention === true ? { attention } : {}) };
}

/** What the bar calls the queue, and what `j` or `k` says where the tab has no candidate that way. */
const QUEUE_WORDS: ListWords = {
  nav: 'Queue',
  back: 'Back to queue',
  edge: { next: 'Last candidate in this tab', previous: 'First candidate in this tab' },
};

function isShown(applicant: Applicant, shown: ShownCandidate): boolean {
  return (
    applicant[shown.kind] === shown.id ||
    (Boolean(shown.recordId) && applicant.recordId === shown.recordId) ||
    (Boolean(shown.refId) && applicant.refId === shown.refId)
  );
}

/**
 * Reads the place from the queue's page in the query cache (fetched again if it left memory): the row
 * whose ids are the candidate's. A candidate no longer listed there (it was decided) keeps the place it
 * was opened at: Next opens the row that moved into it. At a page's end the neighbouring page is fetched,
 * so that Next and Previous go on across pages.
 */
export function useQueuePlace(
  handOver: QueueHandOver['queue'] | undefined,
  environment: string | undefined,
  shown: ShownCandidate,
): ListPlace | undefined {
  const filter = handOver?.filter != null && isApplicantFilter(handOver.filter) ? handOver.filter : undefined;
  const valid = handOver !== undefined && (handOver.filter === null || filter !== undefined);
  const page = handOver?.page ?? 1;
  // The list the row was on: the tab as its toggles left it, so that the place and the neighbours are of that list.
  const filters: QueueFilters = {
    ...(handOver?.overSla ? { overSla: true } : {}),
    ...(handOver?.attention ? { attention: true } : {}),
  };
  const list = useQuery({ ...queuePageQuery(filter, page, environment, filters), enabled: valid });
  const records = list.data?.records ?? [];
  const at = records.findIndex((applicant) => isShown(applicant, shown));
  const index = at >= 0 ? at : (handOver?.index ?? 0);
  const moreAfter = list.data !== undefined && list.data.skip + records.length < list.data.total;
  const needsNext = moreAfter && nextOnPage(records, at >= 0 ? index + 1 : index, environment) === undefined;
  const needsPrevious = list.data !== undefined && page > 1 && previousOnPage(records, index - 1, environment) === undefined;
  const after = useQuery({ ...queuePageQuery(filter, page + 1, environment, filters), enabled: valid && needsNext });
  const before = useQuery({ ...queuePageQuery(filter, page - 1, environment, filters), enabled: valid && needsPrevious });
  const back = queueHref({ filter, page, ...filters }, environment);

  useEffect(() => {
    if (valid) rememberOpenedRow(back, [shown.id, shown.refId, shown.recordId], index);
  }, [valid, back, shown.id, shown.refId, shown.recordId, index]);

  if (!valid) return undefined;
  const step = (onPage: number, found: { index: number; applicant: Applicant } | undefined): ListStep | undefined =>
    found && {
      href: applicantLink(found.applicant, environment)!,
      state: { queue: { filter: filter ?? null, page: onPage, index: found.index, ...filters } } satisfies QueueHandOver,
      row: {
        back: queueHref({ filter, page: onPage, ...filters }, environment),
        ids: [found.applicant.refId, found.applicant.recordId],
        index: found.index,
      },
    };
  const afterRecords = after.data?.records ?? [];
  const beforeRecords = before.data?.records ?? [];
  const next = needsNext
    ? step(page + 1, nextOnPage(afterRecords, 0, environment))
    : step(page, nextOnPage(records, at >= 0 ? index + 1 : index, environment));
  const previous = needsPrevious
    ? step(page - 1, previousOnPage(beforeRecords, beforeRecords.length - 1, environment))
    : step(page, previousOnPage(records, index - 1, environment));
  return {
    label: placeLabel(filter, list.data?.order, filters),
    position: at >= 0 && list.data ? list.data.skip + at + 1 : undefined,
    total: list.data?.total,
    previous,
    next,
    back,
    pending: list.isPending || (needsNext && after.isPending) || (needsPrevious && before.isPending),
    words: QUEUE_WORDS,
  };
}

/**
 * "Waiting, oldest first", "Approved, newest first", "All, by status"; a tab in the service's order by its
 * name alone; then its toggles, as the queue names them: "Waiting, oldest first · over SLA only".
 */
function placeLabel(filter: ApplicantFilter | undefined, order: QueueOrder | undefined, filters: QueueFilters): string {
  const tab = QUEUE_TABS.find((candidate) => candidate.filter === filter)?.label ?? 'All';
  const ordered =
    order?.by !== 'age' ? tab : order.byStatus ? `${tab}, by status` : `${tab}, ${order.newestFirst ? 'newest' : 'oldest'} first`;
  const toggles = [...(filters.overSla ? ['over SLA only'] : []), ...(filters.attention ? ['certificate needs attention'] : [])];
  return [ordered, ...toggles].join(' · ');
}

/** The first row from `from` on that opens a candidate (a row with neither id opens nothing, and is passed over). */
function nextOnPage(records: Applicant[], from: number, environment: string | undefined) {
  for (let index = Math.max(0, from); index < records.length; index++) {
    const applicant = records[index]!;
    if (applicantLink(applicant, environment)) return { index, applicant };
  }
  return undefined;
}

/** The last row from `from` back that opens a candidate. */
function previousOnPage(records: Applicant[], from: number, environment: string | undefined) {
  for (let index = Math.min(from, records.length - 1); index >= 0; index--) {
    const applicant = records[index]!;
    if (applicantLink(applicant, environment)) return { index, applicant };
  }
  return undefined;
}
