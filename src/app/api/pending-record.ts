import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import type { ApiError } from './api-error.ts';

/**
 * A record shown from its status-level part while the rest of it is still on its way (an answer in
 * parts: fetch-candidate.ts): the page shows the header and timeline at once, and where the rest will be,
 * that it is coming, or why it never came. Kept beside the record, as its pictures are (picture-parts.ts).
 */
export type RestState = { state: 'loading' } | { state: 'failed'; error: ApiError };

export class PendingRecord {
  private current: RestState = { state: 'loading' };
  private readonly listeners = new Set<() => void>();

  get = (): RestState => this.current;

  fail(error: ApiError): void {
    this.current = { state: 'failed', error };
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

const byRecord = new WeakMap<CandidateRecord, PendingRecord>();

export function attachPendingRecord(record: CandidateRecord, pending: PendingRecord): void {
  byRecord.set(record, pending);
}

/** The rest of this record when only its status level is in yet; undefined for a whole record. */
export function pendingRecordOf(record: CandidateRecord): PendingRecord | undefined {
  return byRecord.get(record);
}
