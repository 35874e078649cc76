import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { upstreamApplicantsEnvelopeSchema } from '../../src/kyc/contract/applicants.ts';
import { readListRecord } from '../../src/kyc/contract/list-record.ts';
import { AnswerScan } from '../../src/server/answer/answer-scan.ts';
import { ListPageReader } from '../../src/server/answer/list-page-reader.ts';
import { anyCodePoint } from '../support/any-code-point.ts';
import { cutAt } from '../support/cut-at.ts';

/**
 * A page of the applicants list read for the queue index (list-page-reader.ts): what the crawler reads of
 * it is what it read when the page was built whole by JSON.parse, and a page's pictures, certificates and
 * custom fields are never kept, so no page can make the crawler hold what the service sends.
 */

/** The reader fed these chunks: its value, or 'too large' when it kept more than a page may. */
function pageOf(chunks: Buffer[]): unknown {
  const scan = new AnswerScan();
  const reader = new ListPageReader(scan.path);
  scan.add(reader);
  for (const chunk of chunks) scan.write(chunk);
  expect(scan.end()).toBe(true);
  return reader.tooLarge ? 'too large' : reader.value();
}

/** What the crawler takes of a page's value: whether its envelope holds, its total, and each record as read. */
function crawlerReading(value: unknown) {
  const parsed = upstreamApplicantsEnvelopeSchema.safeParse(value);
  if (!parsed.success) return { envelope: false };
  const { records, total } = parsed.data.data;
  return { envelope: true, total, records: records.map((record) => readListRecord(record, { names: false })) };
}

const json = fc.jsonValue({ maxDepth: 2, stringUnit: anyCodePoint });
const text = fc.string({ maxLength: 12 });
const field = fc.constantFrom(
  'status',
  'refId',
  'recordId',
  '_id',
  'isArchived',
  'blockPassID',
  'waitingDate',
  'approvedDate',
  'identities',
  'certs',
  '__proto__',
  'x',
);
const record = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(field, fc.oneof(text, json, fc.boolean(), fc.constantFrom('waiting', 'approved'))) },
  { weight: 1, arbitrary: json },
);
const dataField = fc.constantFrom('records', 'total', 'skip', 'limit', 'other');
/** Pages as the service sends them, and as a hostile one might: any members, any values, duplicates. */
const page = fc.oneof(
  fc.record({
    status: fc.constantFrom('success', 'error'),
    data: fc.record({ records: fc.array(record, { maxLength: 6 }), total: fc.nat(), skip: fc.nat() }),
  }),
  fc.record({ status: json, data: fc.dictionary(dataField, fc.oneof(json, fc.array(record, { maxLength: 3 }))) }, { requiredKeys: [] }),
  json,
);

describe('a page of the applicants list read for the queue index', () => {
  it('reads the same envelope and records as JSON.parse does, for any page, however its bytes are cut', () => {
    fc.assert(
      fc.property(page, fc.array(fc.nat(), { maxLength: 8 }), fc.constantFrom(undefined, 1), (value, cuts, space) => {
        const bytes = Buffer.from(JSON.stringify(value, null, space));
        const expected = crawlerReading(JSON.parse(bytes.toString()));
        expect(crawlerReading(pageOf(cutAt(bytes, cuts)))).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the last of duplicate members, as JSON.parse does', () => {
    const body =
      '{"status":"success","data":{"records":[{"status":"x","refId":"a"}],"total":9,"records":[{"refId":"b","status":"waiting","refId":"c"}]}}';
    expect(pageOf([Buffer.from(body)])).toEqual({ status: 'success', data: { total: 9, records: [{ status: 'waiting', refId: 'c' }] } });
  });

  it('attack: a page of whole records with 2 MB pictures each keeps only their ids, statuses and dates', () => {
    const picture = 'A'.repeat(2 * 1024 * 1024);
    const records = Array.from({ length: 8 }, (_, i) => ({
      status: 'waiting',
      refId: `user-${i}`,
      blockPassID: `bp-${i}`,
      isArchived: false,
      waitingDate: '2026-11-01T10:00:00.000Z',
      customFields: { note: 'x'.repeat(1000) },
      identities: { selfie: { type: 'base64', value: picture }, given_name: { type: 'string', value: 'Ana' } },
      certs: { onfido: JSON.stringify({ picture }) },
    }));
    const bytes = Buffer.from(JSON.stringify({ status: 'success', data: { records, total: 8, skip: 0 } }));
    const kept = pageOf(cutAt(bytes, [1000, 70_000, 3_000_000]));
    expect(JSON.stringify(kept).length).toBeLessThan(2000);
    expect(kept).toEqual({
      status: 'success',
      data: {
        total: 8,
        skip: 0,
        records: records.map(({ status, refId, blockPassID, isArchived, waitingDate }) => ({
          status,
          refId,
          blockPassID,
          isArchived,
          waitingDate,
        })),
      },
    });
  });

  it('attack: a page of two million empty records is refused, not kept (each would be an object of the heap)', () => {
    const bytes = Buffer.from(`{"status":"success","data":{"total":1,"records":[${'{},'.repeat(2_000_000)}{}]}}`);
    expect(pageOf([bytes])).toBe('too large');
  });

  it('attack: a record whose refId is 2 MB of text is refused with its page, not kept', () => {
    const bytes = Buffer.from(
      JSON.stringify({ status: 'success', data: { total: 1, records: [{ status: 'waiting', refId: 'r'.repeat(2 * 1024 * 1024) }] } }),
    );
    expect(pageOf([bytes])).toBe('too large');
  });
});
