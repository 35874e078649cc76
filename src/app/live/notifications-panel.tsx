import { useState } from 'react';
import type { Role } from '../../kyc/contract/api.ts';
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
import { liveEventHref, liveEventLabel, liveEventName } from './live-event-text.ts';
import type { LiveNotification } from './live-stream.ts';

/** The open Notifications menu: this tab's live events, newest first, each opening its candidate, and the browser's own notifications. */
export function NotificationsPanel({
  notifications,
  role,
  defaultName,
  onOpen,
}: {
  notifications: readonly LiveNotification[];
  role: Role | undefined;
  defaultName: string | undefined;
  onOpen: () => void;
}) {
  return (
    <>
      {notifications.length === 0 ? (
        <p className="text-sm text-slate-600">No live updates yet in this tab.</p>
      ) : (
        <ul className="max-h-96 space-y-1 overflow-y-auto">
          {notifications.map((notification) => (
            <NotificationItem key={notification.key} notification={notification} role={role} defaultName={defaultName} onOpen={onOpen} />
          ))}
        </ul>
      )}
      <BrowserNotificationsSwitch />
    </>
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
  const name = liveEventName(event);
  // For compliance, "ready to review" is work waiting: set apart by weight, border and its own words.
  const stands = readsFullRecord(role) && event.event === 'user.readyToReview';
  return (
    <li
      data-ready-to-review={stands || undefined}
      className={cn('rounded px-2 py-1 text-sm', stands && 'border-l-4 border-amber-500 bg-amber-50 font-semibold')}
    >
      {stands && <span className="text-amber-900">Needs review: </span>}
      {href && name ? (
        <Link to={href} onClick={onOpen} className="rounded text-blue-800 underline underline-offset-2 focus-ring">
          {liveEventLabel(event)}: <code className="font-mono break-all">{name}</code>
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
