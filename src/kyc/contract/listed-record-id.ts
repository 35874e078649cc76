import { checkId, decodeIdSegment, encodeIdSegment } from './lookup.ts';

/**
 * The recordId this server's queue index holds for the refId a full lookup asked, sent beside the answer
 * as a response header. The service's documented full-level answer has no recordId (status-level answers
 * and its list have it), so a page opened by refId would have no recordId to show, copy or link the
 * dashboard with, while the queue row of the same candidate has one. A header, not a member of the
 * answer: the full answer is the service's bytes, streamed on as they come (or split into parts from
 * them), and is never rewritten; the page shows it only where the answer has no recordId of its own, and
 * says where it came from.
 */
export const LISTED_RECORD_ID_HEADER = 'x-listed-record-id';

/** The header's value: the id percent-encoded (an id may hold what no header can); none for an id no lookup could take. */
export function listedRecordIdValue(recordId: string): string | undefined {
  return checkId(recordId).ok ? encodeIdSegment(recordId) : undefined;
}

/** The recordId a header's value names; undefined when there is none or it does not read as an id. */
export function listedRecordIdOf(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const decoded = decodeIdSegment(value);
  if (!decoded.ok) return undefined;
  return checkId(decoded.id).ok ? decoded.id : undefined;
}
