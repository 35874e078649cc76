import { describe, expect, it } from 'vitest';
import { EMPTY_DRAFT, filterOf } from '../../src/app/audit/audit-draft.ts';

const RECORD = '65f1c2a9e4b0d3a1f0c9b802';
const searched = (fields: Partial<typeof EMPTY_DRAFT>) => {
  const result = filterOf({ ...EMPTY_DRAFT, ...fields }, 'utc');
  if (!('filter' in result)) throw new Error(result.problem);
  return { refId: result.filter.refId, recordId: result.filter.recordId };
};

describe("the audit form's candidate, read as the search box reads an id (each of these found no line before)", () => {
  it.each([
    ['quoted', '"cust_000482"'],
    ['with a zero-width space', 'cust_000482\u200b'],
    ['as a link of its page', 'http://127.0.0.1:7661/candidates/refId/cust_000482'],
    ['with spaces around', '  cust_000482 '],
  ])('a refId %s', (_how, typed) => {
    expect(searched({ refId: typed })).toEqual({ refId: 'cust_000482', recordId: undefined });
  });

  it('a recordId typed in the refId field is searched as both, and in the case the service writes it', () => {
    expect(searched({ refId: RECORD.toUpperCase() })).toEqual({ refId: RECORD.toUpperCase(), recordId: RECORD });
    expect(searched({ recordId: RECORD.toUpperCase() })).toEqual({ refId: undefined, recordId: RECORD });
  });

  it('a link of a recordId page in either field gives the recordId', () => {
    expect(searched({ refId: `/candidates/recordId/${RECORD}` })).toEqual({ refId: undefined, recordId: RECORD });
  });
});
