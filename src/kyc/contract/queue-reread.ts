import type { QueueTabKey } from './applicants.ts';

/** How often the server's crawler reads each tab of the service's list again, whole (server/lookup/queue-crawler.ts). */
const QUEUE_REREAD_MS = 60_000;

/** The tabs of decisions, and All: they change seldom, and are read again 15 times less often. */
const SLOW_TABS: readonly QueueTabKey[] = ['approved', 'rejected', 'blocked', 'all'];

/** How long after a whole read a tab is read again: a minute (`every`), a decisions' tab 15 times that. */
export function queueRereadMs(tab: QueueTabKey, every = QUEUE_REREAD_MS): number {
  return SLOW_TABS.includes(tab) ? every * 15 : every;
}
