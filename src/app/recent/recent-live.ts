import { useLiveEvents } from '../live/live-stream.ts';
import { noteRecentStatus } from './recent-lookups.ts';

/**
 * The recent lookups follow the service's news wherever the tab is: a live update's status (a webhook
 * the server confirmed with the service) is noted on the entries of that candidate, by either id, as the
 * candidate page notes what it shows. Otherwise a decision taken after the reviewer left the page (or
 * before its own re-check came back) left the home page's list on the old status.
 */
export function useRecentFollowsLive(): void {
  useLiveEvents((event) => {
    if (!event.status) return;
    for (const [kind, id] of [
      ['refId', event.refId],
      ['recordId', event.recordId],
    ] as const) {
      if (id) noteRecentStatus({ kind, id, status: event.status, environment: event.environment });
    }
  });
}
