import { type FocusEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { cn } from '../ui/cn.ts';
import { APPLICANT_FILTERS, type ApplicantFilter, type ApplicantsPage } from '../../kyc/contract/applicants.ts';
import { statusInfo } from '../../kyc/contract/status.ts';

export interface QueueTab {
  /** Undefined: all candidates. */
  filter: ApplicantFilter | undefined;
  label: string;
}

/** All, then every status the service may be asked for, in the order a reviewer works (documented ones first). */
export const QUEUE_TABS: readonly QueueTab[] = [
  { filter: undefined, label: 'All' },
  ...APPLICANT_FILTERS.map((filter) => ({ filter, label: statusInfo(filter).label })),
];

export const tabKey = (filter: ApplicantFilter | undefined) => filter ?? 'all';

/** A count, or why there is none yet. */
export type TabCount = number | 'loading' | 'unavailable' | 'unread';

/** How many are over the SLA: a plain number is exact; `partial`, only the known dates counted (at least that many). */
export type OverSla = number | { count: number; partial: boolean };

/** A page's over-SLA count as a tab shows it (none: the tab has no SLA count). */
export function overSlaOf(page: Pick<ApplicantsPage, 'overSla' | 'overSlaPartial'> | undefined): OverSla | undefined {
  if (page?.overSla === undefined) return undefined;
  return { count: page.overSla, partial: page.overSlaPartial === true };
}

/**
 * The queue's status tabs (ARIA tabs with manual activation: arrows, Home and End move the focus, Enter
 * or Space opens the tab, because opening one asks the service for a page). Each says how many
 * candidates it has and, where there is an SLA, how many are over it.
 */
export function QueueTabs({
  tabs,
  active,
  counts,
  overSla,
  panelId,
  idPrefix,
  onSelect,
}: {
  /** The tabs offered: those the service refuses are left out. */
  tabs: readonly QueueTab[];
  active: ApplicantFilter | undefined;
  counts: Record<string, TabCount>;
  overSla: Record<string, OverSla | undefined>;
  panelId: string;
  idPrefix: string;
  onSelect: (filter: ApplicantFilter | undefined) => void;
}) {
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);
  // Again once the counts (and the tabs' widths) come.
  const list = useSelectedInView(tabKey(active), Object.values(counts).join());
  useEdgeFade(list);
  // The one tab in the page's Tab order: the one the arrows last moved to, else the selected one; so
  // that Tab from a tab reached with the arrows goes on into the panel, not to the selected tab after it.
  const [roving, setRoving] = useState<string>();
  const inOrder = tabs.some((tab) => tabKey(tab.filter) === roving) ? roving : tabKey(active);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = buttons.current.indexOf(document.activeElement as HTMLButtonElement);
    if (current === -1) return;
    const last = tabs.length - 1;
    const moves: Record<string, number> = {
      ArrowRight: (current + 1) % tabs.length,
      ArrowLeft: (current + last) % tabs.length,
      Home: 0,
      End: last,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    buttons.current[next]?.focus();
  };
  return (
    <div
      role="tablist"
      aria-label="Candidates by status"
      ref={list}
      // On a phone, one line that scrolls sideways on its own (eight tabs took four lines, 185 px above the rows).
      // Its edge fades where more tabs lie past it (useEdgeFade): a tab cut mid-word ("⚠ 1 over S") said nothing of the five after it.
      className={cn(
        'flex gap-1 border-b border-slate-200 [scrollbar-width:thin] max-sm:overflow-x-auto sm:flex-wrap',
        'data-[more=right]:[mask-image:linear-gradient(to_right,#000_calc(100%-2.5rem),transparent)]',
        'data-[more=left]:[mask-image:linear-gradient(to_left,#000_calc(100%-2.5rem),transparent)]',
        'data-[more=both]:[mask-image:linear-gradient(to_right,transparent,#000_2.5rem,#000_calc(100%-2.5rem),transparent)]',
      )}
      onKeyDown={onKeyDown}
      // Focus coming back into the list lands on the selected tab again.
      onBlur={(event: FocusEvent<HTMLDivElement>) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setRoving(undefined);
      }}
    >
      {tabs.map((tab, index) => {
        const selected = tab.filter === active;
        const key = tabKey(tab.filter);
        return (
          <button
            key={key}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-${key}`}
            aria-selected={selected}
            aria-controls={selected ? panelId : undefined}
            tabIndex={key === inOrder ? 0 : -1}
            data-tab={key}
            onFocus={() => setRoving(key)}
            onClick={() => onSelect(tab.filter)}
            className={cn(
              '-mb-px inline-flex shrink-0 items-center gap-2 rounded-t-md border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap focus-ring-offset',
              selected ? 'border-blue-700 text-blue-800' : 'border-transparent text-slate-700 hover:border-slate-300 hover:text-slate-900',
            )}
          >
            {tab.label}
            <TabCountBadge count={counts[key] ?? 'loading'} selected={selected} />
            <OverSlaBadge over={overSla[key]} />
          </button>
        );
      })}
    </div>
  );
}

/**
 * The line scrolled (not the page) so that the selected tab is in it: on a phone it may be past the screen's
 * edge. Again as the counts come (the tabs' widths change), but not once the user has moved the line: a
 * count that changes later (a live update) scrolled it back to the selected tab under their finger.
 */
function useSelectedInView(selected: string, widths: string) {
  const list = useRef<HTMLDivElement>(null);
  // Where this hook last left the line, and for which tab.
  const left = useRef<{ selected: string; at: number }>(undefined);
  useEffect(() => {
    const line = list.current;
    const tab = line?.querySelector<HTMLElement>(`[data-tab="${selected}"]`);
    // `widths`: the counts the tabs say, none yet while they load.
    if (!line || !tab || widths === '') return;
    if (left.current?.selected === selected && line.scrollLeft !== left.current.at) return;
    if (line.scrollWidth > line.clientWidth) {
      line.scrollLeft = tab.offsetLeft - line.offsetLeft - (line.clientWidth - tab.offsetWidth) / 2;
    }
    left.current = { selected, at: line.scrollLeft };
  }, [selected, widths]);
  return list;
}

/** Which sides of a line that scrolls sideways hold more than it shows; undefined when it shows all. */
export function moreOf(line: Pick<HTMLElement, 'scrollLeft' | 'scrollWidth' | 'clientWidth'>): 'left' | 'right' | 'both' | undefined {
  const left = line.scrollLeft > 1;
  const right = line.scrollLeft + line.clientWidth < line.scrollWidth - 1;
  return left && right ? 'both' : left ? 'left' : right ? 'right' : undefined;
}

/**
 * The line's `data-more` (moreOf), kept as it scrolls and as its size or its tabs' widths change, so that
 * its edge fades where more tabs lie (UX review: on a phone the strip ended mid-word, and nothing said that
 * Review requested, Approved, Rejected, Blocked and Incomplete were past it).
 */
function useEdgeFade(list: { current: HTMLDivElement | null }) {
  useEffect(() => {
    const line = list.current;
    if (!line) return;
    const mark = () => {
      const more = moreOf(line);
      if (more) line.dataset.more = more;
      else delete line.dataset.more;
    };
    mark();
    line.addEventListener('scroll', mark, { passive: true });
    const resized = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(mark);
    resized?.observe(line);
    for (const tab of line.children) resized?.observe(tab);
    return () => {
      line.removeEventListener('scroll', mark);
      resized?.disconnect();
    };
  }, [list]);
}

/**
 * "⚠ 3 over SLA": the icon and the words, not the colour alone. While some dates are unknown the count is
 * a floor ("≥ 12 over SLA"), and none known over is no claim that none are.
 */
function OverSlaBadge({ over }: { over: OverSla | undefined }) {
  const { count, partial } = typeof over === 'number' ? { count: over, partial: false } : (over ?? { count: 0, partial: false });
  if (!count) return null;
  return (
    <span
      className="rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-800 ring-1 ring-red-200"
      data-over-sla={count}
      data-over-sla-partial={partial || undefined}
      title={partial ? 'At least this many: the dates of some candidates are not known yet.' : undefined}
    >
      <span aria-hidden="true">⚠ </span>
      {partial && (
        <>
          <span aria-hidden="true">≥</span>
          <span className="sr-only">at least</span>{' '}
        </>
      )}
      {count.toLocaleString()} over SLA
    </span>
  );
}

function TabCountBadge({ count, selected }: { count: TabCount; selected: boolean }) {
  const style = selected ? 'bg-blue-100 text-blue-900' : 'bg-slate-100 text-slate-700';
  if (count === 'loading') {
    return (
      <span className={cn('rounded-full px-2 py-0.5 text-xs', style)} aria-hidden="true">
        …
      </span>
    );
  }
  if (count === 'unread') {
    return (
      <span className={cn('rounded-full px-2 py-0.5 text-xs', style)} title="Not read from the KYC service yet." data-count="unread">
        <span aria-hidden="true">…</span>
        <span className="sr-only">(not read yet)</span>
      </span>
    );
  }
  if (count === 'unavailable') {
    return (
      <span className={cn('rounded-full px-2 py-0.5 text-xs', style)} title="The count could not be fetched.">
        <span aria-hidden="true">–</span>
        <span className="sr-only">(count unavailable)</span>
      </span>
    );
  }
  return (
    <span className={cn('rounded-full px-2 py-0.5 text-xs tabular-nums', style)} data-count={count}>
      {count.toLocaleString()}
    </span>
  );
}
