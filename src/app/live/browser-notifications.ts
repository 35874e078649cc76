import type { LiveEvent } from '../../kyc/contract/live-events.ts';
import { liveEventLabel, liveEventName } from './live-event-text.ts';

/**
 * The browser's own notifications, only once the user turned them on in this tab (permission is asked
 * then, never before). In memory: a new tab starts with them off. Ids and status only, as the stream
 * carries: no name reaches the system's notification centre.
 */
let enabled = false;

export type BrowserNotificationsChoice = 'on' | 'denied' | 'unsupported';

export function browserNotificationsSupported(): boolean {
  return typeof Notification !== 'undefined';
}

export async function enableBrowserNotifications(): Promise<BrowserNotificationsChoice> {
  if (!browserNotificationsSupported()) return 'unsupported';
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  enabled = permission === 'granted';
  return enabled ? 'on' : 'denied';
}

export function disableBrowserNotifications(): void {
  enabled = false;
}

export function browserNotificationsOn(): boolean {
  return enabled;
}

export function notifyBrowser(event: LiveEvent): void {
  if (!enabled || !browserNotificationsSupported() || Notification.permission !== 'granted') return;
  const id = liveEventName(event) ?? '';
  new Notification(`Candidate Lookup: ${liveEventLabel(event)}`, { body: id, tag: `${event.environment}:${id}` });
}
