import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readListRecord } from '../../src/kyc/contract/list-record.ts';
import { readCandidateRecord } from '../../src/kyc/contract/record-reading.ts';
import { KNOWN_STATUSES } from '../../src/kyc/contract/status.ts';

/** A known status with each letter's case chosen at will: `Waiting`, `INREVIEW`, `Review_Requested`. */
const caseVariant = fc
  .tuple(fc.constantFrom(...KNOWN_STATUSES), fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }))
  .map(([status, upper]) => ({ status, sent: [...status].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('') }));

const listed = (record: Record<string, unknown>) => {
  const read = readListRecord(record, { names: false });
  if (!read.ok) throw new Error(read.reason);
  return read.applicant;
};

describe('a status that is a known one apart from case', () => {
  it('the queue reads "Waiting" as waiting, with its waitingDate: no "not known yet", in the Waiting tab and the SLA', () => {
    const applicant = listed({ status: 'Waiting', refId: 'list-upper', waitingDate: '2026-11-21T10:00:00.000Z' });
    expect(applicant.status).toBe('waiting');
    expect(applicant.since).toBe('2026-11-21T10:00:00.000Z');
  });

  it('property: the page and the queue read any case variant as the same known status', () => {
    fc.assert(
      fc.property(caseVariant, ({ status, sent }) => {
        const page = readCandidateRecord({ status: sent, refId: 'r1' });
        expect(page.ok && page.record.status).toBe(status);
        expect(listed({ status: sent, refId: 'r1' }).status).toBe(status);
      }),
    );
  });

  it('attack: a look-alike letter (U+212A KELVIN SIGN lower-cases to k) is not read as "blocked"', () => {
    expect(listed({ status: 'bloc\u212Aed', refId: 'r1' }).status).toBe('bloc\u212Aed');
    const page = readCandidateRecord({ status: 'bloc\u212Aed', refId: 'r1' });
    expect(page.ok && page.record.status).toBe('bloc\u212Aed');
  });
});
