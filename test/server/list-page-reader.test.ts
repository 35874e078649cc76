import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { upstreamApplicantsEnvelopeSchema } from '../../src/kyc/contract/applicants.ts';
import { readListRecord } from '../../src/kyc/contract/list-record.ts';
import { AnswerScan } from '../../src/server/answer/answer-scan.ts';
import { ListPageReader, TOO_MANY_RECORDS } from '../../src/server/answer/list-page-reader.ts';
import { anyCodePoint } from '../support/any-code-point.ts';
import { cutAt } from '../support/cut-at.ts';

/**
 * A page of the applicants list read for the queue index (list-page-reader.ts): what the crawler reads of
 * it is what it read when the page was built whole by JSON.parse, and a page's pictures, certificates and
 * custom fields are never kept, so no page can make the crawler hold what the service sends.
 */

/** The reader fed these chunks: its value, or 'too large' when it kept more than a page may, or why it refused the page. */
function pageOf(chunks: Buffer[]): unknown {
  const scan = new AnswerScan();
  const reader = new ListPageReader(scan.path);
  scan.add(reader);
  for (const chunk of chunks) scan.write(chunk);
  expect(scan.end()).toBe(true);
  if (reader.refused) return reader.refused.message;
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
  }, 120_000);

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

  it('attack: a page of 100 000 (300 kB) or two million empty records is refused for its records, not kept (each would be an object of the heap)', () => {
    for (const count of [100_000, 2_000_000]) {
      const bytes = Buffer.from(`{"status":"success","data":{"total":1,"records":[${'{},'.repeat(count - 1)}{}]}}`);
      expect(pageOf([bytes])).toBe(TOO_MANY_RECORDS.message);
    }
    expect(TOO_MANY_RECORDS.message).toBe(
      'A page of the applicants list of the KYC service holds more than 32,768 records (the crawler asks for 100 at a time), so it was refused.',
    );
  });

  it('still refuses a page whose kept fields come to more than 1 MiB, each within its own bound', () => {
    const dates = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`s${i}Date`, 'd'.repeat(64)]));
    const records = Array.from({ length: 100 }, (_, i) => ({ status: 'waiting', refId: `r-${i}`, ...dates }));
    expect(pageOf([Buffer.from(JSON.stringify({ status: 'success', data: { records } }))])).toBe('too large');
  });

  const MB2 = 2 * 1024 * 1024;
  /** One record's fields, beside status `waiting`, refId `bad` and a date (or the record itself), and how many of the page's six records read. */
  const hostile: Array<[string, Record<string, unknown> | string, number]> = [
    ['refId', { refId: 'r'.repeat(MB2) }, 5],
    ['_id, beside a good refId,', { _id: 'r'.repeat(MB2), refId: 'fine' }, 6],
    ['status', { status: 's'.repeat(MB2) }, 5],
    ['waitingDate', { waitingDate: '2'.repeat(MB2) }, 6],
    ['willArchiveAtDate', { willArchiveAtDate: '2'.repeat(MB2) }, 6],
    ['blockPassID', { blockPassID: 'b'.repeat(MB2) }, 6],
    ['isArchived', { isArchived: 'n'.repeat(MB2) }, 6],
    ['refId, a list of text,', { refId: ['r'.repeat(MB2)] }, 5],
    ['whole record, text,', 'x'.repeat(MB2), 5],
  ];
  it.each(hostile)(
    'attack: a record whose %s is 2 MB keeps at most its field’s bound, and reads as JSON.parse’s',
    (_, fields, readable) => {
      const bad =
        typeof fields === 'string' ? fields : { status: 'waiting', refId: 'bad', waitingDate: '2026-11-01T10:00:00.000Z', ...fields };
      const good = Array.from({ length: 5 }, (_, i) => ({
        status: 'waiting',
        refId: `good-${i}`,
        waitingDate: '2026-11-01T10:00:00.000Z',
      }));
      const bytes = Buffer.from(
        JSON.stringify({ status: 'success', data: { records: [...good.slice(0, 2), bad, ...good.slice(2)], total: 6 } }),
      );
      const kept = pageOf(cutAt(bytes, [100, 65_536, 1_000_000]));
      expect(JSON.stringify(kept).length).toBeLessThan(2000);
      const reading = crawlerReading(kept);
      expect(reading).toEqual(crawlerReading(JSON.parse(bytes.toString())));
      expect(reading.records?.filter((one) => one.ok)).toHaveLength(readable);
    },
  );

  it('attack: a record whose refId is a number of 2 MB of digits is counted as its bound, kept as the number', () => {
    const body = `{"status":"success","data":{"records":[{"status":"waiting","refId":${'9'.repeat(2 * 1024 * 1024)}},{"status":"waiting","refId":"fine"}]}}`;
    const kept = pageOf(cutAt(Buffer.from(body), [100, 65_536]));
    expect(crawlerReading(kept)).toEqual(crawlerReading(JSON.parse(body)));
    expect(kept).toEqual({
      status: 'success',
      data: {
        records: [
          { status: 'waiting', refId: Number.POSITIVE_INFINITY },
          { status: 'waiting', refId: 'fine' },
        ],
      },
    });
  });

  it('reads any record whose fields are near or past their bounds as JSON.parse does', () => {
    // One character repeated: a string of spaces longer than its bound and then text would read "is empty", not "is too long".
    const long = fc
      .tuple(
        fc.constantFrom('x', ' ', 'é', '😀', '\n', '2'),
        fc.constantFrom(0, 1, 35, 36, 64, 65, 66, 128, 256, 257, 512, 513, 514, 600, 5000),
      )
      .map(([char, n]) => char.repeat(n));
    const value = fc.oneof(long, fc.array(long, { maxLength: 2 }), fc.integer());
    const record = fc.dictionary(
      fc.constantFrom('status', 'refId', 'recordId', '_id', 'isArchived', 'blockPassID', 'waitingDate', 'willArchiveAtDate'),
      value,
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(record, long), { maxLength: 4 }), fc.array(fc.nat(), { maxLength: 4 }), (records, cuts) => {
        const bytes = Buffer.from(JSON.stringify({ status: 'success', data: { records, total: records.length } }));
        expect(crawlerReading(pageOf(cutAt(bytes, cuts)))).toEqual(crawlerReading(JSON.parse(bytes.toString())));
      }),
      { numRuns: 500 },
    );
  });
});
