import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { readsAsStatusDate, statusOfDate } from '../../src/kyc/contract/status-dates.ts';
import { KNOWN_STATUSES, statusDateFields } from '../../src/kyc/contract/status.ts';
import { buildTimeline } from '../../src/kyc/view/timeline.ts';

const AT = '2026-01-05T10:00:00.000Z';

/** A `…Date` field named for no status: its word does not end in `ed`, and is no known status's. */
const nonStatusField = fc
  .tuple(fc.stringMatching(/^[a-z]{1,12}$/), fc.stringMatching(/^([A-Z][a-z]{1,8}){0,2}$/))
  .map(([head, tail]) => `${head}${tail}Date`)
  .filter((field) => !/^[a-z]+edDate$/.test(field) && !KNOWN_STATUSES.some((status) => statusDateFields(status).includes(field)));

const knownStatus = fc.constantFrom(...KNOWN_STATUSES);

describe('which `…Date` field is a status step', () => {
  it('property: a date field named for no status never becomes a step, whatever else the record holds', () => {
    fc.assert(
      fc.property(knownStatus, nonStatusField, (status, field) => {
        const record: CandidateRecord = { status, refId: 'r', [field]: AT, waitingDate: '2026-01-01T00:00:00.000Z' };
        const timeline = buildTimeline(record);
        expect(timeline.steps.map((step) => step.field)).not.toContain(field);
        expect(timeline.otherDates.map((date) => date.field)).toContain(field);
      }),
    );
  });

  it('property: a known status’s date, and the record’s own status’s date, is always a step', () => {
    fc.assert(
      fc.property(knownStatus, fc.stringMatching(/^[a-z]{1,10}(_[a-z]{1,8})?$/), (known, own) => {
        fc.pre(!['dob', 'birth', 'born', 'expiry', 'expired', 'issue', 'issued'].includes(own));
        for (const field of statusDateFields(known)) expect(statusOfDate(own, field)).toBe(known);
        for (const field of statusDateFields(own)) expect(statusOfDate(own, field)).toBe(own);
      }),
    );
  });

  it('reads escalatedDate and resubmittedDate as statuses, not lastLoginDate, amlCheckDate, updatedDate or issuedDate', () => {
    expect(['escalatedDate', 'resubmittedDate', 'suspendedDate'].map(readsAsStatusDate)).toEqual([true, true, true]);
    expect(['lastLoginDate', 'amlCheckDate', 'updatedDate', 'issuedDate', 'createdDate', 'dobDate'].map(readsAsStatusDate)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(statusOfDate('approved', 'willArchiveAtDate')).toBeUndefined();
  });
});
