import type { EnvironmentInfo } from '../../kyc/contract/api.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { queueHandOverOf, useQueuePlace } from '../applicants/queue-place.ts';
import { batchRowHandOverOf, useBatchPlace } from '../batch/batch-place.ts';
import { dashboardHref } from '../../kyc/view/dashboard-link.ts';
import { DashboardLink } from '../handoff/dashboard-link.tsx';
import { ViewersLine } from '../live/presence-badges.tsx';
import { useShowCandidate, useShownRooms, useViewers, viewersOf } from '../live/presence.ts';
import { Link, navigate, useLocation } from '../navigation.tsx';
import { type ListPlace, type ListStep, rememberStep } from '../recent/list-place.ts';
import { markVisited } from '../recent/visited.ts';
import { QUEUE_KEYS } from '../routes.ts';
import { buttonClass } from '../ui/button.tsx';
import { askForHeading } from '../ui/focus-heading.ts';
import { usePageKeys } from '../ui/page-keys.ts';
import { useFlash } from '../ui/use-flash.ts';
import { candidateIdsOf, type ShownIds } from './dashboard-place.ts';
import { noteStep } from './step-settle.ts';
import { useEffect, useState } from 'react';

/**
 * The place of the candidate in the list it was opened from, the queue or a batch's found rows, as the
 * history entry names it (each hook idle for the other). The page's: its bar steps through it, and its
 * skeleton says which candidate of it is being opened.
 */
export function useListPlace(kind: LookupKind, id: string, environment: string | undefined, ids: ShownIds | undefined) {
  const { state } = useLocation();
  const shown = { kind, id, refId: ids?.refId, recordId: ids?.recordId };
  const queuePlace = useQueuePlace(queueHandOverOf(state), environment, shown);
  const batchPlace = useBatchPlace(batchRowHandOverOf(state), environment, shown);
  return queuePlace ?? batchPlace;
}

interface ReviewBarProps {
  kind: LookupKind;
  id: string;
  /** What the server says of the environment. */
  info: EnvironmentInfo | undefined;
  /** The candidate's ids once the record (or its status level) is in. */
  ids: ShownIds | undefined;
  /** The list it was opened from (useListPlace). */
  place: ListPlace | undefined;
  /** The service said it has no such candidate: no dashboard address for it. */
  notFound?: boolean;
  /** The bar holds the dashboard link (dashboardPlace); else the hand-off row does, or nothing yet. */
  dashboard: boolean;
  /**
   * The page stays on this candidate (step-settle.ts): until then, a step passing through, the candidate
   * is neither marked Opened nor said to colleagues as viewed.
   */
  settled?: boolean;
}

/**
 * The reviewer's loop, above the candidate (issue 33): where it is in the list it was opened from, the
 * queue ("3 of 21 · Waiting, oldest first") or a batch's found rows ("2 of 5 · Found rows of this batch"),
 * Previous and Next (`k`, `j`) and Back to queue or to batch (`u`); who else has it open; and, with a list
 * or after a failed lookup (dashboardPlace), the KYC service's dashboard, where the decision is taken.
 * Shown while the record loads too, and when it failed: the list and the dashboard are the way on (not the
 * dashboard of a candidate the service said it does not have).
 */
export function ReviewBar({ kind, id, info, ids, place, notFound = false, dashboard, settled = true }: ReviewBarProps) {
  const { refId, recordId } = candidateIdsOf(kind, id, ids);
  const name = info?.name;
  useShowCandidate(settled ? name : undefined, refId, recordId);
  useEffect(() => {
    if (name !== undefined && settled) markVisited(name, [refId, recordId]);
  }, [name, refId, recordId, settled]);
  const viewers = viewersOf(useViewers(), name, useShownRooms(name, refId, recordId));
  const edge = useLoopKeys(place, `${kind}:${id}`);
  // Nothing to show (no list, nobody else, no dashboard link here: the hand-off row holds it, or a refId the
  // service did not answer for has no address): no empty box. The bar's elements stay, without boxes of
  // their own, so that its live region is there before someone comes, as a live region must be to be heard.
  const dashboardIds = notFound || !dashboard ? {} : { refId, recordId };
  const empty = !place && viewers.length === 0 && !dashboardHref(info?.dashboardUrl, dashboardIds);
  return (
    <div
      data-testid="review-bar"
      className={
        empty
          ? 'contents'
          : 'flex flex-wrap items-center justify-between gap-x-4 gap-y-2 rounded-xl border border-slate-200 bg-white px-4 py-2 print:hidden'
      }
    >
      {place ? <ListNav place={place} /> : !empty && <span />}
      <div className={empty ? 'contents' : 'flex flex-wrap items-center gap-x-4 gap-y-2'}>
        {/*
          Said when someone comes or goes, and when `j` or `k` finds no candidate to go to; a live region
          (not a "status": the page's own messages are those).
        */}
        <div aria-live="polite" className="empty:hidden">
          {edge && (
            <p className="text-sm font-medium text-slate-700" data-testid="queue-edge">
              {edge}
            </p>
          )}
          {viewers.length > 0 && <ViewersLine users={viewers} />}
        </div>
        <DashboardLink info={info} ids={dashboardIds} className="text-sm" />
      </div>
    </div>
  );
}

/** A step to a neighbour, by its link or its key: looked up once stayed on, its row remembered, its heading focused. */
const takeStep = (step: ListStep) => {
  noteStep();
  rememberStep(step);
  askForHeading(step.href);
};

const go = (step: ListStep) => {
  takeStep(step);
  navigate(step.href, { replace: true, state: step.state });
};

/**
 * `j`, `k` and `u` while the candidate was opened from the queue or a batch's found row. A step asked for
 * while its neighbour is still being fetched (the queue's next page, at a page's end) is taken as soon as
 * it is known. A step with nowhere to go answers what it did not do, for a while (UX review: `j` at the
 * last candidate did nothing, and said nothing); that is what this returns, for the candidate `shown` it
 * was said on only (the bar stays as Previous or Next opens another).
 */
function useLoopKeys(place: ListPlace | undefined, shown: string): string | undefined {
  const location = useLocation();
  const [wanted, setWanted] = useState<'next' | 'previous'>();
  const [edge, showEdge] = useFlash<{ on: string; words: string } | undefined>(undefined, 5_000);
  const step = (which: 'next' | 'previous') => {
    const to = place?.[which];
    if (to) go(to);
    else if (place?.pending) setWanted(which);
    else if (place) showEdge({ on: shown, words: place.words.edge[which] });
  };
  usePageKeys(
    place
      ? {
          [QUEUE_KEYS.next]: () => step('next'),
          [QUEUE_KEYS.previous]: () => step('previous'),
          [QUEUE_KEYS.back]: () => navigate(place.back),
        }
      : {},
    location,
  );
  const ready = wanted ? place?.[wanted] : undefined;
  useEffect(() => {
    if (!ready) return;
    setWanted(undefined);
    go(ready);
  }, [ready]);
  // Each list's words are one constant: the effect below does not run again for each render's place.
  const edgeWords = place?.words.edge;
  const settled = wanted !== undefined && edgeWords !== undefined && place !== undefined && !place.pending && !place[wanted];
  useEffect(() => {
    // Nothing there after all (the end of the list): the wish goes, and is answered.
    if (!settled) return;
    setWanted(undefined);
    showEdge({ on: shown, words: edgeWords[wanted] });
  }, [settled, wanted, showEdge, shown, edgeWords]);
  return edge?.on === shown ? edge.words : undefined;
}

const disabledClass = 'inline-flex items-center rounded-md border border-slate-200 px-3 py-1.5 text-sm text-slate-500';

/** "← Back to queue · 3 of 21 · Waiting, oldest first · ← Previous · Next →": real links, also opened in a new tab. */
function ListNav({ place }: { place: ListPlace }) {
  const where =
    place.position !== undefined && place.total !== undefined
      ? `${place.position.toLocaleString()} of ${place.total.toLocaleString()}`
      : place.pending
        ? 'Finding its place…'
        : 'No longer listed';
  const step = (to: ListStep | undefined, rel: 'prev' | 'next') => {
    // One inline box: the disabled form is a flex item, whose edge spaces would be trimmed.
    const label =
      rel === 'prev' ? (
        <span>
          <span aria-hidden="true">← </span>Previous
        </span>
      ) : (
        <span>
          Next<span aria-hidden="true"> →</span>
        </span>
      );
    const key = rel === 'prev' ? QUEUE_KEYS.previous : QUEUE_KEYS.next;
    // Each step replaces the history entry: Back (the browser's) leads from any of them to the list.
    return to ? (
      <Link
        to={to.href}
        state={to.state}
        replace
        onNavigate={() => takeStep(to)}
        className={buttonClass({ variant: 'secondary' })}
        rel={rel}
        aria-keyshortcuts={key}
        data-touch
      >
        {label}
      </Link>
    ) : (
      <span className={disabledClass} aria-disabled="true">
        {label}
      </span>
    );
  };
  return (
    <nav aria-label={place.words.nav} className="flex flex-wrap items-center gap-x-3 gap-y-2">
      <Link
        to={place.back}
        aria-keyshortcuts={QUEUE_KEYS.back}
        data-touch
        className="rounded text-sm font-medium text-blue-800 underline underline-offset-2 focus-ring-offset"
      >
        <span aria-hidden="true">← </span>
        {place.words.back}
      </Link>
      <p className="text-sm text-slate-700" data-testid="queue-place">
        <span className="font-semibold text-slate-900 tabular-nums">{where}</span> · {place.label}
      </p>
      <span className="flex gap-2">
        {step(place.previous, 'prev')}
        {step(place.next, 'next')}
      </span>
    </nav>
  );
}
