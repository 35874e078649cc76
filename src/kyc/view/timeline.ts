import { type CandidateRecord, isStatusDateField, statusOfDate } from '../contract/schema.ts';
import { statusInfo, type StatusInfo } from '../contract/status.ts';

export interface TimelineStep {
  field: string;
  status: StatusInfo;
  at: Date;
  /** Time since the previous step, in milliseconds; undefined for the first. */
  sincePrevious?: number;
  /** The latest step of the candidate's current status. */
  current: boolean;
}

export interface Timeline {
  steps: TimelineStep[];
  /** The current status when no step carries its date. */
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

/** Every `<status>Date` field of the record, ordered by time (not by field order); the other dates apart. */
export function buildTimeline(record: CandidateRecord): Timeline {
  const dates = datesOf(record);
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
  }));

  const willArchiveAt = record.willArchiveAtDate ? new Date(record.willArchiveAtDate) : undefined;
  return {
    steps,
    otherDates,
    undatedCurrent: currentIndex === -1 ? statusInfo(record.status) : undefined,
    willArchiveAt: willArchiveAt && !Number.isNaN(willArchiveAt.getTime()) ? willArchiveAt : undefined,
  };
}
