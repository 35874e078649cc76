import { buildCandidates, type SandboxCandidate } from './candidates.ts';
import { HOUR, MINUTE, type Person } from './person.ts';

/**
 * Candidates that exist for the applicants list: many light ones (large-image mode), so that the queue
 * has pages to move through, and the archive-after-extract demonstration.
 */

/** Extra candidates in large-image mode: with the others, more than two pages of 50, and more than 50 waiting. */
export const QUEUE_CANDIDATE_COUNT = 90;

// A queue as reviewers know it: mostly waiting. Other statuses appear under All only.
const STATUS_CYCLE = ['waiting', 'waiting', 'inreview', 'waiting', 'approved', 'waiting', 'waiting', 'inreview', 'waiting', 'rejected'];

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

function queuePeople(): Person[] {
  return Array.from({ length: QUEUE_CANDIDATE_COUNT }, (_, index) => {
    const n = String(index + 1).padStart(3, '0');
    const status = STATUS_CYCLE[index % STATUS_CYCLE.length]!;
    return {
      refId: `queue-${n}`,
      recordId: `65f1c2a9e4b0d3a1f0c9d${n}`,
      blockPassID: `5e8f1a2b3c4d5e6f7a8b9e${n}`,
      summary: `Queue candidate ${n}: ${status}, no pictures`,
      status,
      dates: {
        waitingDate: (index + 1) * 7 * MINUTE,
        ...(status === 'inreview' || status === 'approved' || status === 'rejected' ? { inreviewDate: (index + 1) * 5 * MINUTE } : {}),
        ...(status === 'approved' ? { approvedDate: (index + 1) * 3 * MINUTE } : {}),
        ...(status === 'rejected' ? { rejectedDate: (index + 1) * 3 * MINUTE } : {}),
      },
      submitCount: 1,
      givenName: 'Queue',
      familyName: `Candidate ${n}`,
      latinName: `Queue Candidate ${n}`,
      email: `queue.${n}@example.org`,
      pictures: {},
      ...(status === 'rejected' ? { customFields: REJECTIONS[Math.floor(index / STATUS_CYCLE.length) % REJECTIONS.length]! } : {}),
    };
  });
}

export function queueCandidates(now: Date): SandboxCandidate[] {
  return buildCandidates(queuePeople(), { now }).map((candidate) => ({ ...candidate, listOnly: true }));
}

/** Found and listed with every key; a full lookup with the key that archives after extract deletes its identity data 10 s later. */
export const ARCHIVE_DEMO_REF_ID = 'archive-after-extract-demo';

export function archiveDemoCandidates(now: Date): SandboxCandidate[] {
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
