import { isDateField } from './record-fields.ts';
import { isKnownStatus, isStatusWord, statusDateFields, statusOfDateField } from './status.ts';

/**
 * Which `…Date` fields date a status. The facts doc documents `waitingDate`, `inreviewDate` and
 * `approvedDate`, says other `<status>Date` fields may appear (`rejectedDate`, `blockedDate`,
 * `reviewRequestedDate`), and keeps the list of statuses open; it never says every `…Date` field is a
 * status's. So a `…Date` field dates a status when it is named for a known status, for the record's own
 * status (`onHoldDate` for `on_hold`), or when its name reads as a status: one lower-case word ending in
 * `ed`, a state a candidate is put in as it is `approved`, `rejected` or `blocked` (`escalatedDate`,
 * `resubmittedDate`), that is no record's housekeeping (`updatedDate`) and no person's date
 * (`issuedDate`). Any other (`lastLoginDate`, `amlCheckDate`) dates no status: the page shows it under
 * "Other dates", named as sent, and it is never a step of the status history.
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

/** Past participles whose `…Date` is the record's own housekeeping, never a state of its verification. */
const RECORD_EVENTS: ReadonlySet<string> = new Set([
  'created',
  'updated',
  'modified',
  'changed',
  'edited',
  'synced',
  'imported',
  'exported',
  'indexed',
  'viewed',
  'accessed',
  'opened',
  'logged',
  'fetched',
  'notified',
]);

/** One lower-case word ending in `ed`, then `Date`: `escalatedDate`. */
const PARTICIPLE_DATE = /^([a-z]{1,40}ed)Date$/;

/** A `…Date` field whose name reads as a status's, whatever the record's status (`escalatedDate`; not `updatedDate`, `issuedDate`). */
export function readsAsStatusDate(field: string): boolean {
  const word = PARTICIPLE_DATE.exec(field)?.[1];
  return word !== undefined && !RECORD_EVENTS.has(word) && !PERSONAL_DATES.has(word);
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
