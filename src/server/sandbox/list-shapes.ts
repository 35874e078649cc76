import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import type { ListShape } from '../config/file-schema.ts';

/**
 * The shapes in which the list operation's records have been published, each of which the sandbox can
 * answer (`sandbox.listShape`, `npm run sandbox -- --list-shape <shape>`; their names are the
 * configuration's, config/file-schema.ts):
 * - `older`: the older notes, `{status, isArchived, _id, blockPassID, refId}`, `_id` being the recordId;
 * - `early`: the same without `isArchived`, as the early published list records have it;
 * - `current`: the current documentation, each record whole as the key's scope allows (a status-only
 *   key gets the status level) and without `_id` or `recordId`: a candidate is known by its refId only;
 * - `recordId`: the same records with their `recordId`, as some extractors read it from the list
 *   (upstream-api-facts.md).
 */

/** A record of the older notes' list. */
export interface OlderListRecord {
  status: string;
  isArchived?: boolean;
  _id?: string;
  blockPassID?: string;
  refId?: string;
}

/** One candidate as the list answers it in `shape`; `whole` is the record as the asking key's scope allows. */
export function listRecordOf(record: CandidateRecord, shape: ListShape, whole: (record: CandidateRecord) => CandidateRecord): unknown {
  if (shape === 'recordId') return whole(record);
  if (shape === 'current') {
    // No recordId under either name: such a candidate is found by its refId (one without is listed with no id at all, as such a service would).
    const { recordId: _recordId, ...rest } = whole(record);
    return rest;
  }
  const older: OlderListRecord = {
    status: record.status,
    ...(shape === 'older' ? { isArchived: record.isArchived } : {}),
    ...(record.recordId ? { _id: record.recordId } : {}),
    ...(record.blockPassID ? { blockPassID: record.blockPassID } : {}),
    ...(record.refId ? { refId: record.refId } : {}),
  };
  return older;
}
