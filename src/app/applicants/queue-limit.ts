import type { QueueIndexState } from '../../kyc/contract/applicants.ts';
import { formatSoon, type ZoneMode } from '../../kyc/view/time.ts';

/**
 * The service limits the crawler's list (its 429 to a page, `index.limited`): when the list is read
 * again, not "in a moment", in the zone the reader chose, to the second (a wait is seconds long). Said by
 * the freshness line and by a tab with none read yet; not once that time has passed (the view is asked
 * again then: `waitEnd`), where it would promise a read already due.
 */
export function listLimitText(index: QueueIndexState | undefined, zone: ZoneMode, now: Date): string | undefined {
  if (!index?.limited || Date.parse(index.limited.until) <= now.getTime()) return undefined;
  return `The KYC service is limiting requests; the list will be read again at ${formatSoon(new Date(index.limited.until), { zone, seconds: true })}.`;
}

/** The wait a failure of the crawler named (`index.error.until`), still running: when the list is read again. */
export function waitText(until: string, zone: ZoneMode): string {
  return `The list will be read again after ${formatSoon(new Date(until), { zone, seconds: true })}.`;
}

/**
 * The end of the wait a view of the queue names, while it is still to come (`now`, ms): the list's limit
 * (`index.limited`) or the wait a failed read was told (`index.error.until`), whichever ends last. The
 * crawler reads the list again after it, so the page asks for the view again then (use-queue.ts): the rows
 * read after it show without a Refresh, and no line is left saying a time that has passed.
 */
export function waitEnd(index: QueueIndexState | undefined, now: number): number | undefined {
  const ends = [index?.limited?.until, index?.error?.until].map((until) => (until === undefined ? Number.NaN : Date.parse(until)));
  const end = Math.max(...ends.filter((time) => time > now));
  return Number.isFinite(end) ? end : undefined;
}
