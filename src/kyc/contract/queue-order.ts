import { APPLICANT_FILTERS, type ApplicantFilter } from './applicants.ts';

/**
 * The queue's order (issue 32), shared by the server's index (queue-entry.ts, queue-view.ts) and the
 * page that moves a row when a live event says a candidate changed (app/applicants/queue-move.ts): both
 * must place a candidate where the other would.
 */

/** Statuses the index keeps a group of their own for (a tab each); any other status is in `other`. */
export type QueueGroup = ApplicantFilter | 'other';
/** The groups in the order the All tab lists them, the tabs' order: the work first, then the decisions, then Incomplete (never dated) and the rest. */
export const QUEUE_GROUPS: readonly QueueGroup[] = [
  'waiting',
  'inreview',
  'review_requested',
  'approved',
  'rejected',
  'blocked',
  'incomplete',
  'other',
];
/** Tabs of decisions: the newest first (the latest decisions are what a reviewer looks for); every other oldest first. */
export const NEWEST_FIRST_GROUPS: readonly QueueGroup[] = ['approved', 'rejected', 'blocked'];

export const groupOf = (status: string): QueueGroup =>
  (APPLICANT_FILTERS as readonly string[]).includes(status) ? (status as ApplicantFilter) : 'other';
