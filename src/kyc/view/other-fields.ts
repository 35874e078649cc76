import { isContractField } from '../contract/record-reading.ts';
import type { CandidateRecord } from '../contract/schema.ts';
import { type StructuredField, structuredField } from '../contract/other-forms.ts';

/**
 * The record's top-level fields that no section of the page reads: `kycLevel`, `reviewer`, a
 * `rejectReason`, `_id`… The reading keeps them as sent (record-reading.ts), and the page lists them,
 * name and value, rather than drop what the service sent (a compliance user's page only: a support user's
 * status level never carries one).
 */
export interface OtherField {
  name: string;
  /** Text as sent; undefined when the value is not text (then `json`). */
  text?: string;
  /** A value that is not text: a number, true or false, null as its JSON; an object or a list as its bounded JSON (other-forms.ts). */
  json?: Pick<StructuredField, 'json' | 'kind' | 'rounded'>;
}

/** At most this many are listed; the rest are counted. A hostile record cannot make the card the page's size. */
export const MAX_OTHER_FIELDS = 100;

export interface OtherFields {
  fields: OtherField[];
  /** Those past MAX_OTHER_FIELDS, counted, not listed. */
  more: number;
}

/** Whether a top-level field of the record is one a section of the page reads (the header, the timeline, the sections). */
export function isReadBySection(field: string): boolean {
  return isContractField(field);
}

/** Every top-level field no section reads, in the order sent. */
export function otherFieldsOf(record: CandidateRecord): OtherFields {
  const names = Object.keys(record).filter((field) => !isReadBySection(field));
  const fields = names.slice(0, MAX_OTHER_FIELDS).map((name) => otherField(name, record[name]));
  return { fields, more: names.length - fields.length };
}

function otherField(name: string, value: unknown): OtherField {
  if (typeof value === 'string') return { name, text: value };
  const structured = structuredField(name, value);
  if (structured) return { name, json: { json: structured.json, kind: structured.kind, ...(structured.rounded ? { rounded: true } : {}) } };
  if (typeof value === 'number') return { name, json: { json: JSON.stringify(value), kind: 'a number' } };
  if (typeof value === 'boolean') return { name, json: { json: String(value), kind: 'true or false' } };
  return { name, json: { json: 'null', kind: 'null' } };
}
