import type { LookupKind } from '../../kyc/contract/lookup.ts';

export type ShownIds = { refId?: string | null | undefined; recordId?: string | null | undefined };

/** The candidate's ids for its dashboard address: those of the record once it is in, else the id looked up. */
export function candidateIdsOf(kind: LookupKind, id: string, ids: ShownIds | undefined): ShownIds {
  return { refId: ids?.refId ?? (kind === 'refId' ? id : undefined), recordId: ids?.recordId ?? (kind === 'recordId' ? id : undefined) };
}

/**
 * Where the link to the KYC service's dashboard goes: on the bar when the candidate was opened from a
 * list (beside its Back, Previous and Next), or when the lookup failed (the way on, with no record
 * shown); otherwise in the hand-off row beside Print once the record is shown (UX review: opened by a
 * link, the page started with a full-width bar holding that one link); nowhere while it loads.
 */
export function dashboardPlace(listed: boolean, lookup: 'loading' | 'shown' | 'failed'): 'bar' | 'row' | undefined {
  if (listed || lookup === 'failed') return 'bar';
  return lookup === 'shown' ? 'row' : undefined;
}
