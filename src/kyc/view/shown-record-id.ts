import type { LookupKind } from '../contract/lookup.ts';
import type { CandidateRecord } from '../contract/schema.ts';

/**
 * The recordId the page shows, copies and links the dashboard with, and where it came from. The record's
 * own first. The service's published full-level answer has none (its status level has), so without it:
 * the id the lookup asked for, when it asked by recordId (the service answered for that very id); else
 * the one the server's queue index paired with the refId asked, from the service's own list (a header
 * beside the answer: contract/listed-record-id.ts). Never a guess: with neither, none.
 */
export interface ShownRecordId {
  id: string;
  from: 'record' | 'asked' | 'listed';
}

export function shownRecordId(
  record: CandidateRecord,
  asked: { kind: LookupKind; id: string },
  listed?: string,
): ShownRecordId | undefined {
  if (record.recordId) return { id: record.recordId, from: 'record' };
  if (asked.kind === 'recordId') return { id: asked.id, from: 'asked' };
  return listed ? { id: listed, from: 'listed' } : undefined;
}

/** Said beside a recordId that is not the record's own, so that nobody takes it for what the answer holds. */
export const RECORD_ID_SOURCE: Record<Exclude<ShownRecordId['from'], 'record'>, string> = {
  asked: 'the id looked up',
  listed: "from the service's applicants list",
};

/** "65f5…" for the record's own, "65f5… (from the service's applicants list; not in this response)" otherwise. */
export function recordIdText(shown: ShownRecordId, absent = 'not in this response'): string {
  return shown.from === 'record' ? shown.id : `${shown.id} (${RECORD_ID_SOURCE[shown.from]}; ${absent})`;
}
