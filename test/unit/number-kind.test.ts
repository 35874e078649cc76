import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCandidateRecord } from '../../src/kyc/contract/record-reading.ts';

describe('a number too large to read exactly (review: "a whole number expected, a whole number found")', () => {
  it('property: a submitCount left unread never names as found the kind that was expected', () => {
    const count = fc.oneof(fc.double(), fc.integer(), fc.bigInt({ min: 2n ** 53n, max: 10n ** 30n }).map(Number));
    fc.assert(
      fc.property(count, (submitCount) => {
        const page = readCandidateRecord({ status: 'waiting', refId: 'ref-1', submitCount });
        if (!page.ok) throw new Error('the record is read');
        const unread = page.unread.find((entry) => entry.field === 'submitCount');
        if (unread) expect(unread.found).not.toBe(unread.expected);
      }),
    );
  });

  it('names 12345678901234567890 as a number too large to read exactly', () => {
    const page = readCandidateRecord(JSON.parse('{"status":"waiting","refId":"r","submitCount":12345678901234567890}'));
    expect(page.ok && page.unread).toEqual([
      { field: 'submitCount', expected: 'a whole number', found: 'a number too large to read exactly' },
    ]);
  });
});
