import type { BatchTriage } from '../../kyc/contract/batch.ts';
import type { IndexEntry } from '../state/queue-entry.ts';
import { queueKeysOf } from '../state/queue-index.ts';
import type { QueueIndexStore } from '../state/queue-index-store.ts';

/**
 * A batch row's triage (for compliance users and leads): what the queue index holds of the candidate
 * that the queue shows a compliance user, the certificates' worst outcome and whether it has pictures,
 * with when the index learnt them; read from the index, never asked of the service (a full-level request
 * per row would read 500 candidates' personal data in bulk, which is why the batch is status level).
 */
export function triageOfEntry(entry: IndexEntry | undefined): BatchTriage {
  if (!entry || (entry.certificate === undefined && entry.pictures === undefined)) return { known: false };
  return {
    known: true,
    ...(entry.certificate ? { certificate: entry.certificate } : {}),
    ...(entry.pictures === undefined ? {} : { pictures: entry.pictures }),
    ...(entry.triageAt === undefined ? {} : { asOf: new Date(entry.triageAt).toISOString() }),
  };
}

/** The triage of the candidate with these ids in the environment's index (one read, by any of its keys). */
export async function indexedTriage(
  store: Pick<QueueIndexStore, 'find'>,
  environment: string,
  ids: { refId?: string | null; recordId?: string | null },
): Promise<BatchTriage> {
  const keys = queueKeysOf(ids);
  if (keys.length === 0) return { known: false };
  const found = await store.find(environment, keys);
  // Only an entry that names one of the row's own ids: never another candidate's triage by a stale alias.
  const own = (entry: IndexEntry | undefined) =>
    entry !== undefined && ((!!ids.refId && entry.refId === ids.refId) || (!!ids.recordId && entry.recordId === ids.recordId));
  return triageOfEntry(keys.map((key) => found.get(key)?.entry).find(own));
}
