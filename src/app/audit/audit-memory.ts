import type { AuditFilter } from '../../kyc/contract/audit-search.ts';
import { onVisitedCleared } from '../recent/visited.ts';
import type { FilterDraft } from './audit-draft.ts';

/**
 * What this tab remembers of the audit page while the lead is elsewhere: the form as typed, the search
 * shown and its page, so that Back from a row's candidate returns to the same search rather than the
 * first page of everything. Memory only, never a URL or storage (its users and ids are who looked at
 * whom), and forgotten at sign-in and sign-out with the tab's other memory of candidates.
 */
export interface AuditPlace {
  draft: FilterDraft;
  filter: AuditFilter;
  /** The cursors of the pages before the one shown (audit-page.tsx). */
  cursors: string[];
  /** The number of the search shown (audit-queries.ts): Back finds its answer in memory, not asked again. */
  searched: number;
}

let remembered: Partial<AuditPlace> = {};

export function recallAudit(): Partial<AuditPlace> {
  return remembered;
}

export function rememberAudit(place: Partial<AuditPlace>): void {
  remembered = { ...remembered, ...place };
}

onVisitedCleared(() => {
  remembered = {};
});
