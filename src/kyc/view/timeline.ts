import { type CandidateRecord, isStatusDateField } from '../contract/schema.ts';
import { statusInfo, statusOfDateField, type StatusInfo } from '../contract/status.ts';

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
  /** `willArchiveAtDate`: when the service will archive the record's identity data. */
  willArchiveAt?: Date;
}

/** For two dates at the same instant: the order a candidate goes through. */
const WORKFLOW = ['incomplete', 'waiting', 'inreview', 'review_requested', 'approved', 'rejected', 'blocked'];
function workflowRank(status: string): number {
  const rank = WORKFLOW.indexOf(status);
  return rank === -1 ? WORKFLOW.length : rank;
}

/** Every `<status>Date` field of the record, ordered by time (not by field order). */
export function buildTimeline(record: CandidateRecord): Timeline {
  const dated = Object.entries(record)
    .filter(([field, value]) => isStatusDateField(field) && typeof value === 'string')
    .map(([field, value]) => ({ field, status: statusInfo(statusOfDateField(field)), at: new Date(value as string) }))
    .filter((step) => !Number.isNaN(step.at.getTime()))
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
    undatedCurrent: currentIndex === -1 ? statusInfo(record.status) : undefined,
    willArchiveAt: willArchiveAt && !Number.isNaN(willArchiveAt.getTime()) ? willArchiveAt : undefined,
  };
}
