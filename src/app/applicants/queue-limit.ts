import type { QueueIndexState } from '../../kyc/contract/applicants.ts';
import { formatSoon, type ZoneMode } from '../../kyc/view/time.ts';

/**
 * The service limits the crawler's list (its 429 to a page, `index.limited`): when the list is read
 * again, not "in a moment", in the zone the reader chose, to the second (a wait is seconds long). Said by
 * the freshness line and by a tab with none read yet.
 */
export function listLimitText(index: QueueIndexState | undefined, zone: ZoneMode): string | undefined {
  if (!index?.limited) return undefined;
  return `The KYC service is limiting requests; the list will be read again at ${formatSoon(new Date(index.limited.until), { zone, seconds: true })}.`;
}

/** The wait a failure of the crawler named (`index.error.until`), still running: when the list is read again. */
export function waitText(until: string, zone: ZoneMode): string {
  return `The list will be read again after ${formatSoon(new Date(until), { zone, seconds: true })}.`;
}
