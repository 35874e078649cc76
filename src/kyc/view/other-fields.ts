import { answeredOther } from '../contract/answered-id.ts';
import { LOOKUP_KINDS } from '../contract/lookup.ts';
import { isContractField } from '../contract/record-reading.ts';
import type { CandidateRecord } from '../contract/schema.ts';
import { scalarField, type StructuredField, structuredField } from '../contract/other-forms.ts';
import { isPlainObject } from '../contract/value-kind.ts';

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
  /**
   * A value that is not text: a number (as sent where its text was kept: number-text.ts), true or false,
   * null as its JSON; an object or a list as its bounded JSON (other-forms.ts).
   */
  json?: Pick<StructuredField, 'json' | 'kind' | 'rounded' | 'tooLarge'>;
  /**
   * An object that names another candidate by its refId or recordId (a nested `record` or `data` holding
   * their record, beside this one's own fields): left out, neither text nor json, said as that (leftOutWords).
   */
  otherCandidate?: true;
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

/** Every top-level field no section reads, in the order sent; one naming another candidate by its content only (otherField). */
export function otherFieldsOf(record: CandidateRecord): OtherFields {
  const names = Object.keys(record).filter((field) => !isReadBySection(field));
  const fields = names.slice(0, MAX_OTHER_FIELDS).map((name) => otherField(name, record[name], record));
  return { fields, more: names.length - fields.length };
}

/** What the card says in place of a field left out as another candidate's (`otherCandidate`). */
export function leftOutWords(name: string): string {
  return `a nested record of another candidate was left out (at data.${name})`;
}

/**
 * Whether a top-level value is an object giving a refId or a recordId that is not the record's own (case
 * and outer spaces aside, as the server compares an answer's id: answeredOther), one the record does not
 * have included: perhaps another candidate's record, which this page, audited under this one's id, never shows.
 */
function namesAnotherCandidate(record: CandidateRecord, value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  return LOOKUP_KINDS.some((kind) => {
    if (!Object.hasOwn(value, kind)) return false;
    const own = (record as Record<string, unknown>)[kind];
    return answeredOther(value[kind], typeof own === 'string' ? own : '') !== undefined;
  });
}

function otherField(name: string, value: unknown, record: CandidateRecord): OtherField {
  if (namesAnotherCandidate(record, value)) return { name, otherCandidate: true };
  if (typeof value === 'string') return { name, text: value };
  // A number as an attribute's is written (scalarField): 12345678901234567890 and 1e21 as sent, where JSON.stringify
  // wrote 12345678901234567000 and 1e+21 (the reading keeps the record's texts: record-reading.ts).
  const kept = structuredField(name, value) ?? scalarField(name, record, name);
  if (!kept) return { name, json: { json: 'null', kind: 'null' } };
  const { json, kind, rounded, tooLarge } = kept;
  return { name, json: { json, kind, ...(rounded ? { rounded } : {}), ...(tooLarge ? { tooLarge } : {}) } };
}
