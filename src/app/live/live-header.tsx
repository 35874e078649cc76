import { Suspense, useCallback, useId, useRef, useState } from 'react';
import type { EnvironmentInfo, Role } from '../../kyc/contract/api.ts';
import { cn } from '../ui/cn.ts';
import { lazyNamed } from '../ui/lazy-named.ts';
import { useDismiss } from '../ui/use-dismiss.ts';
import { type LiveState, useLiveNotifications, useLiveState } from './live-stream.ts';

/** The list is fetched the first time the menu opens: it is not part of the first load (bundle-size.test.ts). */
const NotificationsPanel = lazyNamed(() => import('./notifications-panel.tsx'), 'NotificationsPanel');

/** What the indicator shows: the stream's state, or `held`, the stream open but the environment's deliveries not checked for now. */
type Shown = LiveState | 'held';

const INDICATOR: Record<Shown, { text: string; dot: string }> = {
  on: { text: 'Live', dot: 'bg-emerald-600' },
  held: { text: 'Live held', dot: 'bg-amber-500' },
  connecting: { text: 'Connecting…', dot: 'bg-slate-400' },
  reconnecting: { text: 'Reconnecting…', dot: 'bg-amber-500' },
  off: { text: 'Live updates off', dot: 'border border-slate-500 bg-white' },
};

/**
 * The state shown for an environment: off when it has no live updates; held when its stream is open but
 * the server does not check its webhook deliveries for now (`liveHeld`: no page would be told of one, so
 * "Live" in green promised updates that were not coming); else the stream's.
 */
export function liveStateFor(info: EnvironmentInfo | undefined, state: LiveState): Shown {
  if (info?.live === false) return 'off';
  return state === 'on' && info?.liveHeld ? 'held' : state;
}

/** Before the server's reason for held live updates, in the indicator's description and tooltip. */
const HELD_LEAD =
  "Live updates are held: this server receives the KYC service's changes but does not check them with the service for now, so no page is told of them. Why:";

/**
 * "Live", "Live held", "Reconnecting…" or "Live updates off": in words (the dot only repeats them), on one
 * line. The longer words take their room from the header's search box (its basis, app-shell.tsx), not a
 * second row. Held, it is described by the server's reason (and shows it on hover).
 */
export function LiveIndicator({ info }: { info: EnvironmentInfo | undefined }) {
  const state = liveStateFor(info, useLiveState());
  const shown = INDICATOR[state];
  const reasonId = useId();
  const reason = state === 'held' ? `${HELD_LEAD} ${info?.liveHeld}` : undefined;
  return (
    <span
      role="status"
      aria-label={shown.text}
      aria-describedby={reason ? reasonId : undefined}
      title={reason}
      data-testid="live-indicator"
      className="inline-flex items-center gap-1.5 text-sm whitespace-nowrap text-slate-700"
    >
      <span aria-hidden="true" className={cn('size-2 rounded-full', shown.dot)} />
      {shown.text}
      {reason && (
        <span id={reasonId} hidden>
          {reason}
        </span>
      )}
    </span>
  );
}

/** The header's list of this tab's live events, newest first, each opening its candidate. */
export function NotificationsMenu({
  role,
  defaultName,
  className,
}: {
  role: Role | undefined;
  defaultName: string | undefined;
  className: string;
}) {
  const notifications = useLiveNotifications();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, panel, button);
  return (
    <div className="relative">
      <button ref={button} type="button" className={className} aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
        {/* A bell on screen (the row's room: app-shell.tsx), the word for screen readers and voice control. */}
        <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4 fill-current">
          <path d="M8 1.5a4.5 4.5 0 0 0-4.5 4.5v3L2 11.5h12L12.5 9V6A4.5 4.5 0 0 0 8 1.5Zm-1.75 11a1.75 1.75 0 0 0 3.5 0Z" />
        </svg>
        <span className="sr-only">Notifications</span>
        <span className="rounded-full bg-slate-200 px-1.5 text-xs text-slate-800">
          {notifications.length}
          <span className="sr-only"> received</span>
        </span>
      </button>
      <section
        ref={panel}
        id={panelId}
        hidden={!open}
        aria-label="Notifications"
        // On a phone the button sits mid-row in the menu: the panel spans the screen rather than hanging off its left edge.
        className="absolute right-0 z-30 mt-2 w-96 max-w-[90vw] rounded-lg border border-slate-200 bg-white p-3 shadow-lg max-sm:fixed max-sm:inset-x-2 max-sm:w-auto max-sm:max-w-none"
      >
        {open && (
          <Suspense fallback={<p className="text-sm text-slate-600">Loading…</p>}>
            <NotificationsPanel notifications={notifications} role={role} defaultName={defaultName} onOpen={() => setOpen(false)} />
          </Suspense>
        )}
      </section>
    </div>
  );
}
