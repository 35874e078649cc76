/** Verification statuses of the facts doc. The list is open: unknown values render neutrally, as given. */
export const KNOWN_STATUSES = ['incomplete', 'waiting', 'inreview', 'approved', 'rejected', 'blocked', 'review_requested'] as const;
export type KnownStatus = (typeof KNOWN_STATUSES)[number];

/** Colour family of a status badge; the label always carries the meaning too. */
export type StatusTone = 'neutral' | 'pending' | 'progress' | 'success' | 'danger' | 'warning';

export interface StatusInfo {
  status: string;
  known: boolean;
  label: string;
  description: string;
  tone: StatusTone;
}

const STATUS_INFO: Record<KnownStatus, Omit<StatusInfo, 'status' | 'known'>> = {
  incomplete: { label: 'Incomplete', tone: 'pending', description: 'Provider checks are still pending.' },
  waiting: { label: 'Waiting', tone: 'pending', description: 'Submitted; waiting for an operator to review.' },
  inreview: { label: 'In review', tone: 'progress', description: 'An operator is reviewing the submission.' },
  approved: { label: 'Approved', tone: 'success', description: 'Verification approved.' },
  rejected: {
    label: 'Rejected',
    tone: 'warning',
    description: 'One or more attributes were rejected; the candidate must resubmit.',
  },
  blocked: { label: 'Blocked', tone: 'danger', description: 'The candidate is blocked.' },
  review_requested: {
    label: 'Review requested',
    tone: 'progress',
    description: 'A new review was requested after a previous decision.',
  },
};

export function isKnownStatus(status: string): status is KnownStatus {
  return Object.hasOwn(STATUS_INFO, status);
}

export function statusInfo(status: string): StatusInfo {
  if (isKnownStatus(status)) return { status, known: true, ...STATUS_INFO[status] };
  return { status, known: false, label: status, tone: 'neutral', description: 'A status this tool does not know.' };
}

/** `reviewRequestedDate` -> `review_requested`, `inreviewDate` -> `inreview`. */
export function statusOfDateField(field: string): string {
  return field.replace(/Date$/, '').replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
