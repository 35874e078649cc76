import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { onVisitedCleared } from '../recent/visited.ts';
import type { BatchState } from './use-batch.ts';

/**
 * What this tab remembers of the batch page while the user is elsewhere: the list as pasted, its kind and
 * the batch's rows, so that Back from a row's candidate (each row is a link) returns to the same result
 * instead of an empty box. Memory only, never a URL or storage, one batch per environment, and forgotten
 * at sign-in and sign-out with the tab's other memory of candidates.
 */
export interface BatchPlace {
  kind: LookupKind;
  text: string;
  state: BatchState;
  /** The first line, taken for the column's heading, that the user chose to look up as an id. */
  headingAsId?: string;
  /** A compliance user's "Needs attention first": the rows shown, and the candidate page's j/k, in that order. */
  attentionFirst?: boolean;
}

const remembered = new Map<string, BatchPlace>();

/** The environment's batch as it was left; one that was still running was stopped by leaving (use-batch.ts), and says so. */
export function recallBatch(environment: string | undefined): BatchPlace | undefined {
  const place = remembered.get(environment ?? '');
  if (place?.state.phase !== 'running') return place;
  return { ...place, state: { ...place.state, phase: 'cancelled', pause: undefined } };
}

export function rememberBatch(environment: string | undefined, place: BatchPlace): void {
  remembered.set(environment ?? '', place);
}

export function forgetBatch(environment: string | undefined): void {
  remembered.delete(environment ?? '');
}

onVisitedCleared(() => remembered.clear());
