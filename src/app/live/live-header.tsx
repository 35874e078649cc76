import { useId, useState } from 'react';
import type { EnvironmentInfo, Role } from '../../kyc/contract/api.ts';
import { readsFullRecord } from '../../kyc/contract/roles.ts';
import { Link } from '../navigation.tsx';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { TimeStamp } from '../ui/time-stamp.tsx';
import {
  browserNotificationsOn,
  browserNotificationsSupported,
  disableBrowserNotifications,
  enableBrowserNotifications,
} from './browser-notifications.ts';
import { liveEventHref, liveEventId, liveEventLabel } from './live-event-text.ts';
import { type LiveNotification, type LiveState, useLiveNotifications, useLiveState } from './live-stream.ts';

const INDICATOR: Record<LiveState, { text: string; dot: string }> = {
  on: { text: 'Live', dot: 'bg-emerald-600' },
  connecting: { text: 'Connecting…', dot: 'bg-slate-400' },
  reconnecting: { text: 'Reconnecting…', dot: 'bg-amber-500' },
  off: { text: 'Live updates off', dot: 'border border-slate-500 bg-white' },
};

/** The state shown for an environment: off when it has no live updates, else the stream's. */
export function liveStateFor(info: EnvironmentInfo | undefined, state: LiveState): LiveState {
  return info?.live === false ? 'off' : state;
}

/** "Live", "Reconnecting…" or "Live updates off": in words (the dot only repeats them). */
export function LiveIndicator({ info }: { info: EnvironmentInfo | undefined }) {
  const shown = INDICATOR[liveStateFor(info, useLiveState())];
  return (
    <span
      role="status"
      aria-label={shown.text}
      data-testid="live-indicator"
      className="inline-flex items-center gap-1.5 text-sm text-slate-700"
    >
      <span aria-hidden="true" className={cn('size-2 rounded-full', shown.dot)} />
      {shown.text}
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
  return (
    <div className="relative">
      <button type="button" className={className} aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
        Notifications
        <span className="rounded-full bg-slate-200 px-1.5 text-xs text-slate-800">
          {notifications.length}
          <span className="sr-only"> received</span>
        </span>
      </button>
      <section
        id={panelId}
        hidden={!open}
        aria-label="Notifications"
        className="absolute right-0 z-30 mt-2 w-96 max-w-[90vw] rounded-lg border border-slate-200 bg-white p-3 shadow-lg"
      >
        {notifications.length === 0 ? (
          <p className="text-sm text-slate-600">No live updates yet in this tab.</p>
        ) : (
          <ul className="max-h-96 space-y-1 overflow-y-auto">
            {notifications.map((notification) => (
              <NotificationItem
                key={notification.key}
                notification={notification}
                role={role}
                defaultName={defaultName}
                onOpen={() => setOpen(false)}
              />
            ))}
          </ul>
        )}
        <BrowserNotificationsSwitch />
      </section>
    </div>
  );
}

function NotificationItem({
  notification: { event },
  role,
  defaultName,
  onOpen,
}: {
  notification: LiveNotification;
  role: Role | undefined;
  defaultName: string | undefined;
  onOpen: () => void;
}) {
  const href = liveEventHref(event, defaultName);
  const target = liveEventId(event);
  // For compliance, "ready to review" is work waiting: set apart by weight, border and its own words.
  const stands = readsFullRecord(role) && event.event === 'user.readyToReview';
  return (
    <li
      data-ready-to-review={stands || undefined}
      className={cn('rounded px-2 py-1 text-sm', stands && 'border-l-4 border-amber-500 bg-amber-50 font-semibold')}
    >
      {stands && <span className="text-amber-900">Needs review: </span>}
      {href && target ? (
        <Link to={href} onClick={onOpen} className="rounded text-blue-800 underline underline-offset-2 focus-ring">
          {liveEventLabel(event)}: <code className="font-mono break-all">{target.id}</code>
        </Link>
      ) : (
        liveEventLabel(event)
      )}{' '}
      <span className="text-xs text-slate-600">({event.environment})</span> <TimeStamp date={new Date(event.at)} />
    </li>
  );
}

/** Browser notifications: off until the user turns them on here; only then is permission asked. */
function BrowserNotificationsSwitch() {
  const [on, setOn] = useState(browserNotificationsOn);
  const [problem, setProblem] = useState<string>();
  if (!browserNotificationsSupported()) return null;
  const toggle = async () => {
    if (on) {
      disableBrowserNotifications();
      setOn(false);
      return;
    }
    const choice = await enableBrowserNotifications();
    setOn(choice === 'on');
    setProblem(choice === 'denied' ? 'The browser did not allow notifications for this site.' : undefined);
  };
  return (
    <div className="mt-3 border-t border-slate-200 pt-3 text-sm">
      <Button variant="secondary" size="sm" aria-pressed={on} onClick={() => void toggle()}>
        Browser notifications
      </Button>
      {problem && <p className="mt-1 text-slate-700">{problem}</p>}
    </div>
  );
}
