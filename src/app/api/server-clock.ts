import type { CandidateRecord } from '../../kyc/contract/schema.ts';

/**
 * The server's clock when it answered a record (its Date header), and how far this browser's clock is
 * from it: the archive-after-extract warning reads `willArchiveAtDate` against the server's time, so a
 * browser whose clock is wrong still warns, with the right countdown.
 */
export interface ServerClock {
  /** The server's time of the answer. */
  answeredAtMs: number;
  /** Add to this browser's time to get the server's (0 when they agree to within the header's whole seconds). */
  offsetMs: number;
}

const byRecord = new WeakMap<CandidateRecord, ServerClock>();

/** The Date header counts whole seconds: a difference below this is no difference. */
const SAME_CLOCK_MS = 2000;

/** Notes the server's clock of a record's answer, its headers received at `receivedAtMs` (this browser's time). */
export function noteServerClock(record: CandidateRecord, response: Response, receivedAtMs: number): CandidateRecord {
  const answeredAtMs = Date.parse(response.headers.get('date') ?? '');
  if (Number.isNaN(answeredAtMs)) return record;
  const offsetMs = answeredAtMs - receivedAtMs;
  byRecord.set(record, { answeredAtMs, offsetMs: Math.abs(offsetMs) < SAME_CLOCK_MS ? 0 : offsetMs });
  return record;
}

export function serverClockOf(record: CandidateRecord): ServerClock | undefined {
  return byRecord.get(record);
}
