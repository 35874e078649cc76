import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { rememberOpenedRow } from './row-return.ts';

/**
 * The candidate page's place in the list it was opened from, as the review bar shows it and steps
 * through it: the queue (applicants/queue-place.ts) or a batch's found rows (batch/batch-place.ts). Each
 * list gives the same place, so that Previous, Next, `j`, `k` and `u` work alike on both.
 */

/** A neighbour: its candidate page, what to hand it so that it knows its own place, and its row for the way back. */
export interface ListStep {
  href: string;
  /** The history entry's hand-over (routes.ts): where to find the list again, never an id. */
  state: object;
  /** The list page it is on, what finds its row there and its place there (recent/row-return.ts). */
  row: { back: string; ids: ReadonlyArray<string | null | undefined>; index: number };
}

/** What the bar calls the list: its navigation, its way back, and what `j` or `k` says at either end. */
export interface ListWords {
  nav: string;
  back: string;
  edge: { next: string; previous: string };
}

export interface ListPlace {
  /** What the list is: "Waiting, oldest first · over SLA only", "Found rows of this batch". */
  label: string;
  /** From 1, of `total`; undefined while the list loads, or when the candidate has left it (decided since). */
  position: number | undefined;
  total: number | undefined;
  previous: ListStep | undefined;
  next: ListStep | undefined;
  /** The list page the candidate is on: the way back (`u`). */
  back: string;
  /** The list, or the neighbouring page Previous or Next needs, is still being fetched. */
  pending: boolean;
  words: ListWords;
}

/** The candidate shown: as the route names it, and its other ids once the record is in. */
export interface ShownCandidate {
  kind: LookupKind;
  id: string;
  refId?: string | null | undefined;
  recordId?: string | null | undefined;
}

/**
 * A step is being taken: its row is the one the way back focuses from now on, before its page has
 * rendered (a render React may still drop for a newer one: `j` then `u` at once would otherwise return
 * to the row stepped from). The candidate page remembers its row again once shown (each list's place).
 */
export function rememberStep(step: ListStep): void {
  rememberOpenedRow(step.row.back, step.row.ids, step.row.index);
}
