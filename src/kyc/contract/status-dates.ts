import { isDateField } from './record-fields.ts';
import { isKnownStatus, isStatusWord, statusDateFields, statusOfDateField } from './status.ts';

/**
 * Which `…Date` fields date a status. The facts doc documents `waitingDate`, `inreviewDate` and
 * `approvedDate`, says other `<status>Date` fields may appear (`rejectedDate`, `blockedDate`,
 * `reviewRequestedDate`), and keeps the list of statuses open; it never says every `…Date` field is a
 * status's. So a `…Date` field dates a status when it is named for a known status, for the record's own
 * status (`onHoldDate` for `on_hold`), or for one of a few states a verification is put in beside the
 * documented ones (`escalatedDate`, `resubmittedDate`: STATE_WORDS), named one by one. Not by the shape of
 * a word: a rule such as "any past participle" let `marriedDate` and `deceasedDate` through, a person's
 * dates, and a status level keeps what this says. Any other (`lastLoginDate`, `amlCheckDate`,
 * `marriedDate`) dates no status: the page shows it under "Other dates", named as sent, never as a step of
 * the status history, and a support user's status level never carries it.
 */

/** Words whose `…Date` is a person's or a document's date, never a status's: a record saying `"status":"dob"` keeps no `dobDate`. */
export const PERSONAL_DATES: ReadonlySet<string> = new Set([
  'dob',
  'birth',
  'birthday',
  'born',
  'date_of_birth',
  'expiry',
  'expiration',
  'expired',
  'issue',
  'issued',
  'issuance',
]);

/**
 * States a verification is put in beside the documented statuses, whose date a record may carry after it
 * has left them (a support user sees the history after a rejection: escalated, resubmitted). An allowlist:
 * a word is added here once a service is seen to send it, never read from a name's shape.
 */
const STATE_WORDS: ReadonlySet<string> = new Set([
  'escalated',
  'resubmitted',
  'submitted',
  'reopened',
  'reviewed',
  'declined',
  'suspended',
  'cancelled',
  'canceled',
  'withdrawn',
]);

/** One lower-case word, then `Date`: `escalatedDate`. */
const WORD_DATE = /^([a-z]{1,40})Date$/;

/** A `…Date` field named for one of the STATE_WORDS, whatever the record's status (`escalatedDate`; not `marriedDate`, `updatedDate`). */
export function readsAsStatusDate(field: string): boolean {
  const word = WORD_DATE.exec(field)?.[1];
  return word !== undefined && STATE_WORDS.has(word);
}

/**
 * The date of the record's own status, whatever that status (`on_hold` -> `onHoldDate`, or `on_holdDate`
 * as the status is written: statusDateFields): the list of statuses is open, and a status the project
 * does not know still has its date. None for a status that is no word or a person's date.
 */
export function ownStatusDateFields(status: unknown): readonly string[] {
  if (typeof status !== 'string' || !isStatusWord(status) || PERSONAL_DATES.has(status)) return [];
  return statusDateFields(status);
}

/** The status a `…Date` field of a record in `recordStatus` dates; undefined when it dates none (or is `willArchiveAtDate`, a date to come). */
export function statusOfDate(recordStatus: unknown, field: string): string | undefined {
  if (!isDateField(field) || field === 'willArchiveAtDate') return undefined;
  const status = statusOfDateField(field);
  if (isKnownStatus(status) || readsAsStatusDate(field) || ownStatusDateFields(recordStatus).includes(field)) return status;
  return undefined;
}
