import {
  APPLICANT_FILTERS,
  type ApplicantFilter,
  type ApplicantsQuery,
  type QueueCounts,
  type QueueTabKey,
  queueTabKey,
} from '../../kyc/contract/applicants.ts';
import type { ApiFailure } from '../http/api-failure.ts';
import type { Fetched, Page } from './queue-page.ts';

/** The tabs of the queue: all candidates, then every filter. */
const TABS: readonly (ApplicantFilter | undefined)[] = [undefined, ...APPLICANT_FILTERS];

/** One tab's one-record page, in a slot of the user's own (none free in time: the failure), or `gone` when the view was dropped. */
export type TabPage = (query: ApplicantsQuery, signal: AbortSignal) => Promise<Fetched | ApiFailure | 'gone'>;

/**
 * Every other tab's count for the view of `query` (the page answers its own): the `total` and `overSla`
 * of a one-record page each, as the queue would answer it, all asked at once within the user's upstream
 * slots. A tab whose count fails is `unavailable`, never the view's failure; an undocumented filter the
 * service answers 400 or 404 is refused. `signal` drops the counts still under way (the page failed).
 */
export async function otherTabCounts(
  query: ApplicantsQuery,
  tabPage: TabPage,
  isRefused: (filter: ApplicantFilter | undefined, upstreamStatus: number | null) => boolean,
  signal: AbortSignal,
): Promise<QueueCounts> {
  const view: QueueCounts = { counts: {}, overSlaByTab: {}, overSlaPartialTabs: [], refused: [] };
  const others = TABS.filter((filter) => filter !== query.status);
  const answers = await Promise.all(others.map((status) => tabPage({ status, skip: 0, limit: 1 }, signal)));
  others.forEach((filter, index) => {
    const answer = answers[index]!;
    const fetched = typeof answer === 'object' && 'ok' in answer ? answer : undefined;
    if (fetched && !fetched.ok && filter && isRefused(filter, fetched.upstreamStatus)) view.refused.push(filter);
    tally(view, queueTabKey(filter), fetched?.ok ? fetched.page : undefined);
  });
  return view;
}

/** The view's counts with the page's own tab: its total and over-SLA count; the refused filters in the tabs' order. */
export function withPageCount(view: QueueCounts, query: ApplicantsQuery, page: Page | undefined, refused: boolean): QueueCounts {
  const whole: QueueCounts = {
    counts: { ...view.counts },
    overSlaByTab: { ...view.overSlaByTab },
    overSlaPartialTabs: [...view.overSlaPartialTabs],
    refused: [...view.refused],
  };
  tally(whole, queueTabKey(query.status), page);
  if (refused && query.status) whole.refused.push(query.status);
  whole.refused = APPLICANT_FILTERS.filter((filter) => whole.refused.includes(filter));
  return whole;
}

function tally(view: QueueCounts, key: QueueTabKey, page: Page | undefined): void {
  view.counts[key] = page ? page.total : 'unavailable';
  if (page?.overSla !== undefined) view.overSlaByTab[key] = page.overSla;
  if (page?.overSlaPartial) view.overSlaPartialTabs.push(key);
}
