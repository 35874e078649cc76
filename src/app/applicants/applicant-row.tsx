import type { MouseEvent, ReactNode } from 'react';
import type { EnvironmentInfo } from '../../kyc/contract/api.ts';
import type { Applicant, ApplicantFilter } from '../../kyc/contract/applicants.ts';
import { DashboardLink } from '../handoff/dashboard-link.tsx';
import { ViewerInitials } from '../live/presence-badges.tsx';
import { Link, navigate } from '../navigation.tsx';
import type { QueueHandOver } from '../routes.ts';
import { cn } from '../ui/cn.ts';
import { LongText } from '../ui/long-text.tsx';
import { OpenedMark } from '../ui/opened-mark.tsx';
import { StatusBadge } from '../ui/status-badge.tsx';
import { ArchivedCell, NameCell, otherUnreadable, TriageNote, Unreadable } from './applicant-cells.tsx';
import { rememberRowScroll } from '../recent/row-return.ts';
import { applicantLink, queueHref } from './queue-location.ts';
import { mayBeDoubleClick, type PendingOpen, useRowOpen } from './row-open.ts';

const ID_LIMIT = 64;
/** The longest id kept on one line. */
const UNBROKEN_ID = 40;

/** The row's link: Tab reaches it, Enter opens it; a click anywhere on the row opens it too (row-open.ts). */
const OPEN_LINK_CLASS =
  'rounded text-blue-800 underline decoration-blue-300 underline-offset-2 hover:decoration-blue-700 focus-ring-offset';

/**
 * An id of an ordinary length (a recordId's 24, a UUID's 36) never breaks in the table: a reviewer compares
 * ids by their ends, and a lone last character on a line of its own reads as another id ("cust_0004 / 82"
 * at 200 % zoom). Where the table would not fit, its rows stack (useStackToFit), and there an id breaks only
 * when it is longer than its line. A longer id wraps anywhere rather than scroll the table sideways.
 */
function idClass(value: string, linked: boolean): string {
  return cn(
    'font-mono',
    value.length <= UNBROKEN_ID ? 'whitespace-nowrap' : 'break-all',
    // Stacked (by the hook, or by the phone's stylesheet below 40rem): each id on a line of its own.
    'group-data-stacked/queue:break-normal group-data-stacked/queue:wrap-anywhere group-data-stacked/queue:whitespace-normal',
    'max-sm:break-normal max-sm:wrap-anywhere max-sm:whitespace-normal',
    !linked && 'text-slate-800',
  );
}

/**
 * Fades back as the highlight ends; with reduced motion it simply goes. The text cursor over the ids and
 * dates says they can be selected; elsewhere the pointer says a click opens the row. A row clicked and
 * waiting to open (row-open.ts) is marked at once, with no fade, as a selected row: a tint and a bar at
 * its start, and the busy cursor everywhere on it.
 */
function rowClass(opens: boolean, chosen: boolean, highlighted: boolean): string {
  if (chosen)
    return 'align-top cursor-progress bg-blue-100 shadow-[inset_4px_0_0_var(--color-blue-600)] [&_code]:cursor-progress [&_time]:cursor-progress';
  return cn(
    'align-top transition-colors duration-1000 motion-reduce:transition-none',
    opens && 'cursor-pointer [&_code]:cursor-text [&_time]:cursor-text',
    highlighted ? 'bg-amber-100' : 'hover:bg-slate-50',
  );
}

/** A double-click on an id selects all of it, not the word under the pointer (the toggle of a long one stays out). */
const selectWhole = (event: MouseEvent<HTMLElement>) => window.getSelection()?.selectAllChildren(event.currentTarget);

/** Back to queue returns to this scroll position, with this row focused. */
function rememberPlaceScroll(place: QueueHandOver['queue'], environment: string | undefined): void {
  const { filter, page, overSla, attention } = place;
  rememberRowScroll(
    queueHref({ filter: (filter as ApplicantFilter | null) ?? undefined, page, overSla, attention }, environment),
    window.scrollY,
  );
}

export function ApplicantRow({
  applicant,
  environment,
  info,
  place,
  names,
  nameColumn,
  highlighted,
  visited,
  viewers,
  since,
  sinceLabel,
  pendingOpen,
}: {
  applicant: Applicant;
  environment: string | undefined;
  info: EnvironmentInfo | undefined;
  /** Where the row is, handed to the candidate page it opens. */
  place: QueueHandOver['queue'];
  names: boolean;
  nameColumn: boolean;
  highlighted: boolean;
  /** Opened in this tab already. */
  visited: boolean;
  /** The users who have it open now. */
  viewers: readonly string[];
  since: ReactNode;
  /** The since column's name, which a stacked row (on a phone) shows beside its value. */
  sinceLabel: string;
  /** The queue's one open waiting for the double-click time: clicking this row cancels another row's. */
  pendingOpen: PendingOpen;
}) {
  const href = applicantLink(applicant, environment);
  // The row opens by its recordId, else its refId (queue-location.ts).
  const linkOn = applicant.recordId ? 'recordId' : 'refId';
  const state = { queue: place } satisfies QueueHandOver;
  const rememberScroll = () => rememberPlaceScroll(place, environment);
  const rowOpen = useRowOpen((replace) => {
    if (!href) return;
    rememberScroll();
    navigate(href, { state, replace });
  }, pendingOpen);
  const cell = (field: 'refId' | 'recordId') => {
    const value = applicant[field];
    if (!value) {
      // The service sent an id of the wrong type: it is said so, not "not given" (the row is opened by its other id).
      const problem = field === 'refId' ? applicant.unreadable?.refId : (applicant.unreadable?.recordId ?? applicant.unreadable?._id);
      if (problem) return <Unreadable field={field} expected={problem} />;
      // Either id may be left out of the service's records: a row without a refId does not say the candidate has none.
      return <span className="text-slate-500 italic">not given</span>;
    }
    const linked = href && field === linkOn;
    const wrap = (content: ReactNode) =>
      linked ? (
        <Link
          to={href}
          state={state}
          className={OPEN_LINK_CLASS}
          data-open={field}
          // Chromium starts no selection on a link (a drag drags it out): a double-click selects the whole id.
          draggable={false}
          onDoubleClick={selectWhole}
          // A mouse click waits with the row's (it may be a double-click selecting the id); Enter and a tap open at once.
          onClick={(event) => (mayBeDoubleClick(event) ? event.preventDefault() : rememberScroll())}
        >
          {content}
        </Link>
      ) : (
        // Chromium's double-click selects a word, and a hyphen ends one ("user-7781" gave "7781"): the whole id.
        // biome-ignore lint/a11y/noStaticElementInteractions: a mouse's selection made whole; nothing to do by keyboard.
        <span onDoubleClick={selectWhole}>{content}</span>
      );
    // A long id's "Show all" sits outside the link: it shows the rest, and opens nothing.
    return (
      <code className={idClass(value, Boolean(linked))}>
        <LongText text={value} limit={ID_LIMIT} wrap={wrap} toggleClassName="font-sans" />
      </code>
    );
  };
  return (
    <tr
      data-changed={highlighted || undefined}
      data-visited={visited || undefined}
      {...(href ? rowOpen.handlers : {})}
      // Clicked, waiting to tell a click from a double-click: chosen at once, and busy until its page shows.
      data-opening={rowOpen.chosen || undefined}
      aria-busy={rowOpen.chosen || undefined}
      className={rowClass(Boolean(href), rowOpen.chosen, highlighted)}
    >
      <td className="px-4 py-2">
        <div className="flex flex-wrap items-center gap-1.5">
          <StatusBadge status={applicant.status} size="sm" />
          {highlighted && <span className="sr-only"> (just updated)</span>}
          {visited && <OpenedMark />}
          <ViewerInitials users={viewers} />
        </div>
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
      <td className="max-w-96 px-4 py-2" data-label="refId">
        {cell('refId')}
      </td>
      <td className="max-w-72 px-4 py-2" data-label="recordId">
        {cell('recordId')}
      </td>
      <td className="px-4 py-2" data-label="Archived">
        <ArchivedCell applicant={applicant} />
      </td>
      {info?.dashboardUrl && (
        <td className="px-4 py-2" data-label="KYC service">
          {/* A link of its own: it opens the dashboard and not the candidate (row-open.ts leaves it be). */}
          <DashboardLink
            info={info}
            ids={applicant}
            className="text-sm whitespace-nowrap"
            name={`for ${applicant.recordId ?? applicant.refId ?? 'this candidate'}`}
          >
            Dashboard
          </DashboardLink>
        </td>
      )}
    </tr>
  );
}
