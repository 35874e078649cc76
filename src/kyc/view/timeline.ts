import { type CandidateRecord, isStatusDateField, statusOfDate, unreadFieldsOf } from '../contract/schema.ts';
import { type DateDoubt, DATE_DOUBT_WORDS, dateDoubt } from '../contract/date-doubt.ts';
import { statusInfo, type StatusInfo } from '../contract/status.ts';

export interface TimelineStep {
  field: string;
  status: StatusInfo;
  at: Date;
  /** Time since the previous step, in milliseconds; undefined for the first. */
  sincePrevious?: number;
  /** The latest step of the candidate's current status. */
  current: boolean;
  /** The current step, and a step of another status is dated after it: its "since" is doubtful. */
  laterExists?: boolean;
}

/** What the page says of a current status a later status date follows. */
export const LATER_DATE_WORDS = "a later status date exists: the service's order of events is unclear";

/**
 * A status date the response holds but that could not be read, or that cannot be right (`doubt`: dated in
 * the future): shown as sent, in no order, never read as an age.
 */
export interface UnreadStatusDate {
  field: string;
  status: StatusInfo;
  /** Why a date that reads as a time cannot be right (date-doubt.ts); its `sent` is the value as sent. */
  doubt?: DateDoubt;
  /** The value as sent, when it has a date's shape (dateAsSent); else only its kind is said (`found`). */
  sent?: string;
  found: string;
  /** The date of the current status, when no readable one is. */
  current: boolean;
}

export interface Timeline {
  steps: TimelineStep[];
  /** The status dates that could not be read (`"2026-01-12 09:30:00"`, no zone; `1736500000000`): shown as sent, never guessed. */
  unreadDates: UnreadStatusDate[];
  /** The current status when no step carries its date, readable or not. */
  undatedCurrent?: StatusInfo;
  /** The readable `…Date` fields that date no status (`lastLoginDate`, `amlCheckDate`: status-dates.ts), oldest first, named as sent. */
  otherDates: { field: string; at: Date }[];
  /** `willArchiveAtDate`: when the service will archive the record's identity data. */
  willArchiveAt?: Date;
}

/** For two dates at the same instant: the order a candidate goes through. */
const WORKFLOW = ['incomplete', 'waiting', 'inreview', 'review_requested', 'approved', 'rejected', 'blocked'];
function workflowRank(status: string): number {
  const rank = WORKFLOW.indexOf(status);
  return rank === -1 ? WORKFLOW.length : rank;
}

const readDate = (value: unknown): Date | undefined => {
  const at = typeof value === 'string' ? new Date(value) : undefined;
  return at && !Number.isNaN(at.getTime()) ? at : undefined;
};

/** The record's readable `…Date` fields but `willArchiveAtDate`, each with the status it dates (undefined: none). */
function datesOf(record: CandidateRecord) {
  return Object.entries(record).flatMap(([field, value]) => {
    const at = isStatusDateField(field) ? readDate(value) : undefined;
    return at ? [{ field, status: statusOfDate(record.status, field), at }] : [];
  });
}

/**
 * Every `<status>Date` field of the record, ordered by time (not by field order); the other dates apart.
 * A status date that cannot be right at `now` (dateDoubt) is no step: it is shown as sent, with its doubt.
 */
export function buildTimeline(record: CandidateRecord, now: Date = new Date()): Timeline {
  const all = datesOf(record);
  const doubtful = all.filter((date) => date.status !== undefined && dateDoubt(date.at.getTime(), now.getTime()) !== undefined);
  const dates = all.filter((date) => !doubtful.includes(date));
  const otherDates = dates
    .filter((date) => date.status === undefined)
    .map(({ field, at }) => ({ field, at }))
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  const dated = dates
    .flatMap(({ field, status, at }) => (status === undefined ? [] : [{ field, status: statusInfo(status), at }]))
    .sort((a, b) => a.at.getTime() - b.at.getTime() || workflowRank(a.status.status) - workflowRank(b.status.status));

  let currentIndex = -1;
  dated.forEach((step, index) => {
    if (step.status.status === record.status) currentIndex = index;
  });

  const steps = dated.map((step, index) => ({
    ...step,
    sincePrevious: index === 0 ? undefined : step.at.getTime() - dated[index - 1]!.at.getTime(),
    current: index === currentIndex,
    ...(index === currentIndex && currentIndex < dated.length - 1 ? { laterExists: true } : {}),
  }));

  const unreadDates = unreadStatusDates(record, doubtfulDates(record, doubtful, now), currentIndex === -1);
  const willArchiveAt = record.willArchiveAtDate ? new Date(record.willArchiveAtDate) : undefined;
  return {
    steps,
    unreadDates,
    otherDates,
    undatedCurrent: currentIndex === -1 && !unreadDates.some((date) => date.current) ? statusInfo(record.status) : undefined,
    willArchiveAt: willArchiveAt && !Number.isNaN(willArchiveAt.getTime()) ? willArchiveAt : undefined,
  };
}

/** The status dates that cannot be right, as sent (with their doubt), before the unreadable ones. */
function doubtfulDates(record: CandidateRecord, dates: ReturnType<typeof datesOf>, now: Date) {
  return dates.map(({ field, at }) => ({
    field,
    found: 'a date',
    sent: String(record[field]),
    doubt: dateDoubt(at.getTime(), now.getTime())!,
  }));
}

/** The record's status dates that could not be read or be right; the first of the current status's is current when `currentUndated`. */
function unreadStatusDates(
  record: CandidateRecord,
  doubtful: ReadonlyArray<{ field: string; found: string; sent: string; doubt: DateDoubt }>,
  currentUndated: boolean,
): UnreadStatusDate[] {
  let marked = !currentUndated;
  return [...doubtful, ...unreadFieldsOf(record)].flatMap(({ field, found, sent, ...rest }) => {
    const status = statusOfDate(record.status, field);
    if (status === undefined) return [];
    const current = !marked && status === record.status;
    if (current) marked = true;
    const doubt = 'doubt' in rest ? { doubt: rest.doubt } : {};
    return [{ field, status: statusInfo(status), found, current, ...(sent === undefined ? {} : { sent }), ...doubt }];
  });
}

/** What is said of a date shown as sent: its doubt, or that it is not an ISO 8601 time. */
export const asSentWords = (date: Pick<UnreadStatusDate, 'doubt'>): string =>
  date.doubt === undefined ? 'not an ISO 8601 time' : DATE_DOUBT_WORDS[date.doubt];

/** "2026-01-12 09:30:00, as sent: not an ISO 8601 time", or what was found where no value can be shown. */
export function unreadDateWords(date: Pick<UnreadStatusDate, 'sent' | 'found' | 'doubt'>): string {
  if (date.doubt !== undefined) return `${date.sent}, as sent: ${asSentWords(date)}`;
  return date.sent === undefined ? `could not be read (${date.found} found, not a time)` : `${date.sent}, as sent: not an ISO 8601 time`;
}

/** When the record reached its current status, as the timeline has it: a readable time, or a date that could not be read shown as sent. */
export type CurrentSince =
  | { at: Date; unread?: undefined; laterExists: boolean }
  | { at?: undefined; unread: UnreadStatusDate & { sent: string }; laterExists?: undefined };

export function currentSince(timeline: Timeline): CurrentSince | undefined {
  const step = timeline.steps.find((candidate) => candidate.current);
  if (step) return { at: step.at, laterExists: step.laterExists === true };
  const unread = timeline.unreadDates.find((date) => date.current);
  return unread?.sent === undefined ? undefined : { unread: { ...unread, sent: unread.sent } };
}
