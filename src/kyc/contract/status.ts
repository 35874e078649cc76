import { revealInvisibles } from './invisible.ts';

/**
 * Verification statuses of the facts doc, with their words. The list is open: unknown values render
 * neutrally, as given (unknownStatusLabel); a known one apart from case is that one (readStatus). How each looks (colour, icon) is the browser's business:
 * src/kyc/view/status-tone.ts.
 */
export const KNOWN_STATUSES = ['incomplete', 'waiting', 'inreview', 'approved', 'rejected', 'blocked', 'review_requested'] as const;
export type KnownStatus = (typeof KNOWN_STATUSES)[number];

/**
 * A status longer than this (in UTF-16 code units) is not a status any service sends: a list record
 * holding one is left out and counted (list-record.ts), and the queue index never keeps one.
 */
export const MAX_STATUS_LENGTH = 64;

export interface StatusInfo {
  status: string;
  known: boolean;
  label: string;
  description: string;
}

const STATUS_INFO: Record<KnownStatus, Omit<StatusInfo, 'status' | 'known'>> = {
  incomplete: { label: 'Incomplete', description: 'Provider checks are still pending.' },
  waiting: { label: 'Waiting', description: 'Submitted; waiting for an operator to review.' },
  inreview: { label: 'In review', description: 'An operator is reviewing the submission.' },
  approved: { label: 'Approved', description: 'Verification approved.' },
  rejected: {
    label: 'Rejected',

    description: 'One or more attributes were rejected; the candidate must resubmit.',
  },
  blocked: { label: 'Blocked', description: 'The candidate is blocked.' },
  review_requested: {
    label: 'Review requested',

    description: 'A new review was requested after a previous decision.',
  },
};

/**
 * Statuses the service never dates: no `<status>Date` is documented or seen for them (the documented
 * dates are `waitingDate`, `inreviewDate` and `approvedDate`; `rejectedDate`, `blockedDate` and
 * `reviewRequestedDate` appear). A candidate in one has no date of it to wait for; an unknown status
 * may still have one (`onHoldDate`).
 */
export const UNDATED_STATUSES: readonly KnownStatus[] = ['incomplete'];

export const isUndatedStatus = (status: string): boolean => UNDATED_STATUSES.some((undated) => undated === status);

/** The record's date of a status: `review_requested` -> `reviewRequestedDate`. */
export function statusDateField(status: string): string {
  return `${status.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())}Date`;
}

/**
 * The names a status's date is read under: `onHoldDate`, as the documented dates are written, and
 * `on_holdDate`, the status as written. The timeline reads both as `on_hold`'s (statusOfDateField), so
 * the status level and the queue read both too.
 */
export function statusDateFields(status: string): readonly string[] {
  const documented = statusDateField(status);
  const asWritten = `${status}Date`;
  return documented === asWritten ? [documented] : [documented, asWritten];
}

export function isKnownStatus(status: string): status is KnownStatus {
  return Object.hasOwn(STATUS_INFO, status);
}

/**
 * A status as read from the service: one that is a known status apart from case (`Waiting`, `APPROVED`) is
 * that status, on the page, the queue, its tabs and SLA, and the batch alike; it is not an unknown one.
 * ASCII letters only: a look-alike (`blocKed` with U+212A KELVIN SIGN, which lower-cases to `k`) stays
 * what it is, shown between quotes (unknownStatusLabel).
 */
export function readStatus(status: string): string {
  if (isKnownStatus(status) || !/^[A-Za-z_]{1,64}$/.test(status)) return status;
  const lower = status.toLowerCase();
  return isKnownStatus(lower) ? lower : status;
}

/**
 * A status as the service writes one: a lower-case word (`on_hold`). Only such a status has its date
 * kept at status level (ownStatusDateFields, schema.ts) and is shown as written.
 */
const STATUS_WORD = /^[a-z][a-z0-9_]{0,63}$/;

export const isStatusWord = (status: string): boolean => STATUS_WORD.test(status);

/**
 * How a status this tool does not know is shown, the one reading of it on every surface (badge,
 * timeline, live events, replies, summary, queue, batch and its CSV, print): a word as written
 * (`on_hold`); anything else between quotes with its invisible characters marked
 * (`“in⟦U+202E⟧review⟦U+0000⟧”`), so that an override cannot make it read as another word ("devorppa"
 * as "approved"), a NUL is not drawn as a box, and no such status reads as one of the known labels
 * ("Approved" as the service's "approved"). It is shown, never refused: it may be a real status.
 */
export function unknownStatusLabel(status: string): string {
  return isStatusWord(status) ? status : `“${revealInvisibles(status)}”`;
}

export function statusInfo(status: string): StatusInfo {
  if (isKnownStatus(status)) return { status, known: true, ...STATUS_INFO[status] };
  return { status, known: false, label: unknownStatusLabel(status), description: 'A status this tool does not know.' };
}

/** `reviewRequestedDate` -> `review_requested`, `inreviewDate` -> `inreview`. */
export function statusOfDateField(field: string): string {
  return field.replace(/Date$/, '').replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
