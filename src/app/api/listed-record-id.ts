import { LISTED_RECORD_ID_HEADER, listedRecordIdOf } from '../../kyc/contract/listed-record-id.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';

/**
 * The recordId the server's queue index holds for the refId a lookup asked, as its answer's header said
 * (contract/listed-record-id.ts): kept beside the record, as the server's clock is (server-clock.ts), and
 * never written into it, so that the page can tell the record's own recordId from one filled in.
 */
const byRecord = new WeakMap<CandidateRecord, string>();

export function noteListedRecordId(record: CandidateRecord, response: Response): CandidateRecord {
  const listed = listedRecordIdOf(response.headers.get(LISTED_RECORD_ID_HEADER));
  if (listed !== undefined) byRecord.set(record, listed);
  return record;
}

export function listedRecordIdOfRecord(record: CandidateRecord): string | undefined {
  return byRecord.get(record);
}
