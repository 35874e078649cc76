import type { AuditFilter } from '../../kyc/contract/audit-search.ts';
import type { QueueIndexStore } from '../state/queue-index-store.ts';
import { queueKeysOf } from '../state/queue-index.ts';

/** The ids a search by one of them also asks for: the same candidate's other id. */
export interface OtherId {
  refId?: string;
  recordId?: string;
}

/**
 * The candidate a search names by one id, by its other id, as this server's queue index knows it (every
 * candidate of the service's list, and every one looked up here, with both ids): a lookup's audit line
 * names the candidate by the id it was asked with, so a search by the refId alone would miss the
 * lookups made by recordId (from the queue, from a link) and the reverse. Undefined when the filter
 * names both or neither, when no index knows the id, or when two environments' indexes disagree (the
 * search is then left as asked rather than widened to someone else).
 */
export type SameCandidate = (filter: AuditFilter) => Promise<OtherId | undefined>;

export function sameCandidateIn(store: QueueIndexStore, environments: readonly string[]): SameCandidate {
  return async (filter) => {
    if ((filter.refId === undefined) === (filter.recordId === undefined)) return undefined;
    const asked = filter.refId !== undefined ? { refId: filter.refId } : { recordId: filter.recordId };
    const names = filter.env === undefined ? environments : environments.filter((name) => name === filter.env);
    const others = new Set<string>();
    for (const name of names) {
      for (const { entry } of (await store.find(name, queueKeysOf(asked))).values()) {
        const other = filter.refId !== undefined ? entry.recordId : entry.refId;
        if (other) others.add(other);
      }
    }
    const [other, another] = [...others];
    if (other === undefined || another !== undefined) return undefined;
    return filter.refId !== undefined ? { recordId: other } : { refId: other };
  };
}
