import { buildCandidates, type SandboxCandidate } from './candidates.ts';
import { HOUR, MINUTE, type Person } from './person.ts';

/**
 * Candidates that exist for the applicants list: many light ones (large-image mode), so that the queue
 * has pages to move through, and the archive-after-extract demonstration.
 */

/** Extra candidates in large-image mode: with the others, more than two pages of 50, and more than 50 waiting. */
export const QUEUE_CANDIDATE_COUNT = 90;

// A queue as reviewers know it: mostly waiting, some in review; every tenth candidate decided (or sent back).
const STATUS_CYCLE = ['waiting', 'waiting', 'inreview', 'waiting', 'approved', 'waiting', 'waiting', 'inreview', 'waiting', 'decided'];
const DECIDED = ['rejected', 'review_requested', 'blocked'];

/**
 * How long ago candidate `index` last submitted: distinct for each, from about 1 hour to about 3 days 7 h,
 * and not in the list's order (37 and 90 share no factor, so `index * 37 % 90` visits each step once):
 * the service's order is not the queue's. With a 48 h SLA, about a third of them are over it.
 */
export function queueWaitingSeconds(index: number): number {
  return ((index * 37) % QUEUE_CANDIDATE_COUNT) * 53 * MINUTE + 61 * MINUTE + index * 7;
}

function queueDates(index: number, status: string): Record<string, number> {
  const waiting = queueWaitingSeconds(index);
  // Each later step happened some time after the submission (a smaller offset before now).
  const later = (share: number) => Math.round(waiting * share);
  const dates: Record<string, number> = { waitingDate: waiting };
  if (status !== 'waiting') dates.inreviewDate = later(0.7);
  if (status === 'approved' || status === 'review_requested') dates.approvedDate = later(0.4);
  if (status === 'rejected') dates.rejectedDate = later(0.4);
  if (status === 'blocked') dates.blockedDate = later(0.4);
  if (status === 'review_requested') dates.reviewRequestedDate = later(0.2);
  return dates;
}

/** Operator notes of the queue's rejected candidates, in turn (the sandbox's support fields). */
const REJECTIONS = [
  {
    rejectionReason: 'The selfie does not match the passport photo.',
    resubmitHint: 'Take a new selfie facing the camera, without glasses or a hat.',
  },
  {
    rejectionReason: 'The proof of address is older than three months.',
    resubmitHint: 'Upload a utility bill or bank statement from the last three months.',
  },
  { rejectionReason: 'The ID document has expired.', resubmitHint: 'Submit again with an ID document that is still valid.' },
];

/** Operator notes of the queue's candidates whose review was requested again, in turn. */
const REVIEWS = [
  { reviewReason: 'The name on the bank statement differs from the ID.', resubmitHint: 'Upload a document showing the name change.' },
  { reviewReason: 'A new sanctions list was published.', resubmitHint: 'Nothing to do: compliance reviews the case again.' },
];

/** The notes an operator left on a queue candidate of this status, the n-th of its status. */
function notesOf(status: string, n: number): Record<string, string> | undefined {
  if (status === 'rejected') return REJECTIONS[n % REJECTIONS.length];
  if (status === 'review_requested') return REVIEWS[n % REVIEWS.length];
  return undefined;
}

function queuePeople(): Person[] {
  return Array.from({ length: QUEUE_CANDIDATE_COUNT }, (_, index) => {
    const n = String(index + 1).padStart(3, '0');
    const cycled = STATUS_CYCLE[index % STATUS_CYCLE.length]!;
    const status = cycled === 'decided' ? DECIDED[Math.floor(index / STATUS_CYCLE.length) % DECIDED.length]! : cycled;
    return {
      refId: `queue-${n}`,
      recordId: `65f1c2a9e4b0d3a1f0c9d${n}`,
      blockPassID: `5e8f1a2b3c4d5e6f7a8b9e${n}`,
      summary: `Queue candidate ${n}: ${status}, no pictures`,
      status,
      dates: queueDates(index, status),
      submitCount: 1,
      givenName: 'Queue',
      familyName: `Candidate ${n}`,
      latinName: `Queue Candidate ${n}`,
      email: `queue.${n}@example.org`,
      pictures: {},
      ...(notesOf(status, Math.floor(index / STATUS_CYCLE.length))
        ? { customFields: notesOf(status, Math.floor(index / STATUS_CYCLE.length))! }
        : {}),
    };
  });
}

export async function queueCandidates(now: Date): Promise<SandboxCandidate[]> {
  return (await buildCandidates(queuePeople(), { now })).map((candidate) => ({ ...candidate, listOnly: true }));
}

/** Found and listed with every key; a full lookup with the key that archives after extract deletes its identity data 10 s later. */
export const ARCHIVE_DEMO_REF_ID = 'archive-after-extract-demo';

export function archiveDemoCandidates(now: Date): Promise<SandboxCandidate[]> {
  const person: Person = {
    refId: ARCHIVE_DEMO_REF_ID,
    recordId: '65f1c2a9e4b0d3a1f0c9b899',
    blockPassID: '5e8f1a2b3c4d5e6f7a8b9c99',
    summary: 'Waiting; with the archive-after-extract key, every full lookup schedules its deletion 10 s later',
    status: 'waiting',
    dates: { waitingDate: 3 * HOUR },
    submitCount: 1,
    givenName: 'Ada',
    familyName: 'Archiveson',
    latinName: 'Ada Archiveson',
    email: 'ada.archiveson@example.org',
    dob: '04/01/1992',
    address: { address: '1 Retention Road', extraInfo: '', city: 'Leeds', state: '', postalCode: 'LS1 1AA', country: 'GBR' },
    pictures: { selfie: 'jpeg', passport: 'jpeg' },
    customFields: { riskLevel: 'low' },
  };
  return buildCandidates([person], { now });
}
