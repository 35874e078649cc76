import type { QueueIndexState } from '../../kyc/contract/applicants.ts';
import { formatClock } from '../../kyc/view/time.ts';

/**
 * The service limits the crawler's list (its 429 to a page, `index.limited`): when the list is read
 * again, not "in a moment". Said by the freshness line and by a tab with none read yet.
 */
export function listLimitText(index: QueueIndexState | undefined): string | undefined {
  if (!index?.limited) return undefined;
  return `The KYC service is limiting requests; the list will be read again at ${formatClock(new Date(index.limited.until), { seconds: true })}.`;
}

/** The wait a failure of the crawler named (`index.error.until`), still running: when the list is read again. */
export function waitText(until: string): string {
  return `The list will be read again after ${formatClock(new Date(until), { seconds: true })}.`;
}
