import { useRef, type KeyboardEvent } from 'react';
import { cn } from '../ui/cn.ts';
import type { ApplicantFilter } from '../../kyc/contract/applicants.ts';

export interface QueueTab {
  /** Undefined: all candidates. */
  filter: ApplicantFilter | undefined;
  label: string;
}

export const QUEUE_TABS: readonly QueueTab[] = [
  { filter: undefined, label: 'All' },
  { filter: 'waiting', label: 'Waiting' },
  { filter: 'inreview', label: 'In review' },
  { filter: 'approved', label: 'Approved' },
];

export const tabKey = (filter: ApplicantFilter | undefined) => filter ?? 'all';

/** A count, or why there is none yet. */
export type TabCount = number | 'loading' | 'unavailable';

/**
 * The queue's status tabs (ARIA tabs with manual activation: arrows, Home and End move the focus, Enter
 * or Space opens the tab, because opening one asks the service for a page).
 */
export function QueueTabs({
  active,
  counts,
  panelId,
  idPrefix,
  onSelect,
}: {
  active: ApplicantFilter | undefined;
  counts: Record<string, TabCount>;
  panelId: string;
  idPrefix: string;
  onSelect: (filter: ApplicantFilter | undefined) => void;
}) {
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = tabs.current.indexOf(document.activeElement as HTMLButtonElement);
    if (current === -1) return;
    const last = QUEUE_TABS.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? (current + 1) % QUEUE_TABS.length
        : event.key === 'ArrowLeft'
          ? (current + last) % QUEUE_TABS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    tabs.current[next]?.focus();
  };
  return (
    <div role="tablist" aria-label="Candidates by status" className="flex flex-wrap gap-1 border-b border-slate-200" onKeyDown={onKeyDown}>
      {QUEUE_TABS.map((tab, index) => {
        const selected = tab.filter === active;
        const count = counts[tabKey(tab.filter)] ?? 'loading';
        return (
          <button
            key={tabKey(tab.filter)}
            ref={(element) => {
              tabs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-${tabKey(tab.filter)}`}
            aria-selected={selected}
            aria-controls={selected ? panelId : undefined}
            tabIndex={selected ? 0 : -1}
            data-tab={tabKey(tab.filter)}
            onClick={() => onSelect(tab.filter)}
            className={cn(
              '-mb-px inline-flex items-center gap-2 rounded-t-md border-b-2 px-3 py-2 text-sm font-medium focus-ring-offset',
              selected ? 'border-blue-700 text-blue-800' : 'border-transparent text-slate-700 hover:border-slate-300 hover:text-slate-900',
            )}
          >
            {tab.label}
            <TabCountBadge count={count} selected={selected} />
          </button>
        );
      })}
    </div>
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
