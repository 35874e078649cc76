import { useSyncExternalStore } from 'react';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import { pendingRecordOf, type RestState } from '../api/pending-record.ts';
import { Notice } from '../ui/section.tsx';

const NONE = () => () => {};
const NOTHING = () => undefined;

/** Where the record shown is only its status level so far: the state of the rest (pending-record.ts). */
export function usePendingRecord(record: CandidateRecord): RestState | undefined {
  const pending = pendingRecordOf(record);
  return useSyncExternalStore(pending ? pending.subscribe : NONE, pending ? pending.get : NOTHING);
}

/** In the place of the identities and pictures while they are on their way, or why they never came. */
export function RestOfRecord({ state }: { state: RestState }) {
  if (state.state === 'failed') {
    return <Notice tone="warning">Only the status arrived: {state.error.message} Use Refresh to fetch the candidate again.</Notice>;
  }
  return (
    <div role="status" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <p className="text-sm text-slate-700">Loading identity data and pictures…</p>
      <div className="h-24 animate-pulse rounded bg-slate-100" aria-hidden="true" />
    </div>
  );
}
