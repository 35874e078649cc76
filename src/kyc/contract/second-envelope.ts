/**
 * A record wrapped in a second envelope (`{"data":{"status":"success","data":{record}}}`,
 * `{"data":{"record":{…}}}`): the one rule that says so, shared by the page's reading of a record
 * (record-reading.ts, on the parsed value) and the server's answer guard (asked-id-watch.ts, on the answer
 * as it streams). A record with an id of its own is that record, whatever its `data` or `record` field
 * holds; one without holds a record one level down when that field is an object holding a status or an id.
 */

export const SECOND_ENVELOPE = 'The record came wrapped in a second envelope: the service put it one level down, where it is not read.';

/** The fields of a record one of which may hold a record wrapped one level down, in the order they are said. */
export const WRAPPERS = ['data', 'record'] as const;
export type Wrapper = (typeof WRAPPERS)[number];

/** The fields of a wrapped object that say it holds a record: its status and its ids. */
export const WRAPPED_FIELDS: readonly string[] = ['status', 'refId', 'recordId'];

export const isWrapper = (field: string | undefined): field is Wrapper => (WRAPPERS as readonly (string | undefined)[]).includes(field);

/** An id, or a status, as a record holds it: text, not empty. */
export const isRecordText = (value: unknown): boolean => typeof value === 'string' && value !== '';

/** Whether `value`, given at a wrapped object's `field`, says the object holds a record. */
export const showsRecord = (field: string, value: unknown): boolean => WRAPPED_FIELDS.includes(field) && isRecordText(value);

/**
 * Where the record is wrapped (`data` before `record`), or undefined: `ownId`, the record gives a refId or a
 * recordId of its own (text, not empty); `holds`, whether its field of that name is an object that shows a record.
 */
export function secondEnvelopeOf(ownId: boolean, holds: (wrapper: Wrapper) => boolean): Wrapper | undefined {
  return ownId ? undefined : WRAPPERS.find(holds);
}
