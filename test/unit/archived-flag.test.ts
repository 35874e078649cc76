import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readListRecord } from '../../src/kyc/contract/list-record.ts';
import { readCandidateRecord } from '../../src/kyc/contract/record-reading.ts';

/**
 * `isArchived` read one way wherever it comes: the queue's Archived column said "not readable (expected
 * true or false)" of a list record's `"false"`, which the candidate page reads as false (review).
 */

const isArchivedValue = fc.oneof(
  { arbitrary: fc.constantFrom(true, false, 'true', 'false'), weight: 3 },
  fc.constantFrom('TRUE', 'yes', '', '0', '1', 0, 1, null),
  fc.string({ maxLength: 6 }),
  fc.jsonValue({ maxDepth: 1 }),
);

describe('isArchived', () => {
  it('property: a list record reads it as the candidate page does, and names it unreadable exactly where the page does', () => {
    fc.assert(
      fc.property(isArchivedValue, (isArchived) => {
        const value = { status: 'waiting', refId: 'ref-1', isArchived };
        const page = readCandidateRecord(value);
        const listed = readListRecord(value, { names: false });
        if (!page.ok || !listed.ok) throw new Error('both read the record');
        expect(listed.applicant.isArchived).toBe(page.record.isArchived);
        const pageUnread = page.unread.some((entry) => entry.field === 'isArchived');
        expect(listed.applicant.unreadable?.isArchived !== undefined).toBe(pageUnread);
      }),
    );
  });

  it('reads "false" in a list record as false, not as unreadable', () => {
    const listed = readListRecord({ status: 'waiting', refId: 'ref-1', isArchived: 'false' }, { names: false });
    expect(listed).toEqual({ ok: true, applicant: { status: 'waiting', refId: 'ref-1', isArchived: false } });
  });
});
