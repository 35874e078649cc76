import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CandidateRecord, candidateEnvelopeSchema, statusLevelEnvelope, statusLevelOf } from '../../src/kyc/contract/schema.ts';
import { candidateSummary } from '../../src/kyc/view/summary.ts';
import { readsAsStatusDate, statusOfDate } from '../../src/kyc/contract/status-dates.ts';
import { KNOWN_STATUSES, statusDateFields, statusOfDateField } from '../../src/kyc/contract/status.ts';
import { buildTimeline } from '../../src/kyc/view/timeline.ts';
import { AnswerScan } from '../../src/server/answer/answer-scan.ts';
import { StatusLevelReader } from '../../src/server/answer/status-level-stream.ts';

/** A reader's clock after every generated date: none of them is in the future here (doubtful-dates.test.tsx reads those). */
const LATEST = new Date(8_640_000_000_000_000);

const AT = '2026-01-05T10:00:00.000Z';

/** A `…Date` field named for no status: no state word's, and no known status's. */
const nonStatusField = fc
  .tuple(fc.stringMatching(/^[a-z]{1,12}$/), fc.stringMatching(/^([A-Z][a-z]{1,8}){0,2}$/))
  .map(([head, tail]) => `${head}${tail}Date`)
  .filter((field) => !readsAsStatusDate(field) && !KNOWN_STATUSES.some((status) => statusDateFields(status).includes(field)));

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

  it("attack: a person's dates named like a state (marriedDate, deceasedDate) are no status step, and never reach a support user's status level", () => {
    const personalStates = ['marriedDate', 'deceasedDate', 'divorcedDate', 'naturalisedDate', 'registeredDate', 'uploadedDate'];
    expect(personalStates.map(readsAsStatusDate)).toEqual(personalStates.map(() => false));
    const record = { status: 'rejected', refId: 'r', rejectedDate: AT, ...Object.fromEntries(personalStates.map((field) => [field, AT])) };
    expect(Object.keys(statusLevelOf(record as CandidateRecord)).sort()).toEqual(['refId', 'rejectedDate', 'status']);
    const timeline = buildTimeline(record as CandidateRecord);
    expect(timeline.steps.map((step) => step.field)).toEqual(['rejectedDate']);
    expect(timeline.otherDates.map((date) => date.field).sort()).toEqual([...personalStates].sort());
  });
});

describe('the status dates a support user gets (the status level)', () => {
  const personal = ['dob', 'birth', 'born', 'expiry', 'expired', 'issue', 'issued', 'issuance'];
  const ownStatus = fc.oneof(knownStatus, fc.stringMatching(/^[a-z]{2,10}(_[a-z]{2,6})?$/));
  /** Date fields a record may hold: known statuses', ones named as a status, personal dates, and others. */
  const field = fc.oneof(
    fc.constantFrom(...KNOWN_STATUSES.flatMap((status) => statusDateFields(status))),
    fc.constantFrom('escalated', 'resubmitted', 'suspended', 'married', 'deceased').map((word) => `${word}Date`),
    fc.stringMatching(/^[a-z]{2,10}ed$/).map((word) => `${word}Date`),
    fc.constantFrom(...personal).map((word) => `${word}Date`),
    nonStatusField,
  );
  const at = fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString());

  it('property: every valid status date reaches the support level unless it is a personal date; no other date does', () => {
    fc.assert(
      fc.property(
        ownStatus,
        fc.uniqueArray(fc.tuple(field, at), { selector: ([name]) => name, maxLength: 8 }),
        fc.boolean(),
        (own, dates, ownDated) => {
          const data = Object.fromEntries([...dates, ...(ownDated ? [[statusDateFields(own)[0]!, AT] as const] : [])]);
          const record = { status: own, refId: 'r', ...data };
          const bytes = Buffer.from(JSON.stringify({ status: 'success', data: record }));
          const scan = new AnswerScan();
          const reader = new StatusLevelReader(scan.path);
          scan.add(reader);
          scan.write(bytes);
          expect(scan.end()).toBe(true);
          const reduced = (reader.value() as { data: Record<string, unknown> }).data;
          expect(reduced).toEqual(statusLevelOf(record as CandidateRecord));
          for (const name of Object.keys(data)) {
            const isPersonal = personal.includes(statusOfDateField(name));
            const dated = statusOfDate(own, name) !== undefined && !isPersonal;
            expect(Object.hasOwn(reduced, name), `${name} of ${own}`).toBe(dated);
          }
          const steps = buildTimeline(reduced as CandidateRecord, LATEST).steps.map((step) => step.field);
          expect(steps.sort()).toEqual(
            Object.keys(reduced)
              .filter((name) => name.endsWith('Date'))
              .sort(),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('a status date that could not be read, in Copy summary and at status level', () => {
  const data = {
    status: 'inreview',
    refId: 'r-unread',
    inreviewDate: '2026-01-12 09:30:00',
    waitingDate: 1736500000000,
    escalatedDate: '2026-01-12',
  };

  it('Copy summary gives the status its since as sent and names every unreadable status date', () => {
    const record = candidateEnvelopeSchema.parse({ status: 'success', data }).data;
    const text = candidateSummary({
      record,
      environment: 'Sandbox',
      role: 'support',
      now: new Date('2026-02-01T00:00:00Z'),
      timeZone: 'UTC',
    });
    expect(text).toContain('Status: In review since 2026-01-12 09:30:00 (as sent: not an ISO 8601 time)\n');
    expect(text).toContain('  inreviewDate (In review): 2026-01-12 09:30:00, as sent: not an ISO 8601 time\n');
    expect(text).toContain('  waitingDate (Waiting): 1736500000000, as sent: not an ISO 8601 time\n');
  });

  it('attack: an unreadable status date reaching a support user: the status level names it, never with its value', () => {
    const record = candidateEnvelopeSchema.parse({ status: 'success', data }).data;
    const sent = JSON.parse(statusLevelEnvelope(record));
    expect(sent.unread).toEqual([
      { field: 'inreviewDate', expected: 'an ISO 8601 timestamp', found: 'text' },
      { field: 'waitingDate', expected: 'an ISO 8601 timestamp', found: 'a whole number' },
      { field: 'escalatedDate', expected: 'an ISO 8601 timestamp', found: 'text' },
    ]);
    const read = candidateEnvelopeSchema.parse(sent).data;
    expect(buildTimeline(read).unreadDates.map((date) => [date.field, date.sent])).toEqual([
      ['inreviewDate', undefined],
      ['waitingDate', undefined],
      ['escalatedDate', undefined],
    ]);
  });
});

describe('a current status that a later status date follows', () => {
  it('property: the current step is flagged exactly when a step of another status is dated after it, and Copy summary says so', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('waiting', 'inreview', 'approved', 'rejected'),
        fc.uniqueArray(fc.integer({ min: 0, max: 1000 }), { minLength: 4, maxLength: 4 }),
        (status, days) => {
          const fields = ['waitingDate', 'inreviewDate', 'approvedDate', 'rejectedDate'];
          const data = Object.fromEntries(
            fields.map((field, i) => [field, new Date(Date.UTC(2024, 0, 1) + days[i]! * 86_400_000).toISOString()]),
          );
          const record = { status, refId: 'r', ...data } as CandidateRecord;
          const steps = buildTimeline(record).steps;
          const current = steps.findIndex((step) => step.current);
          expect(steps.filter((step) => step.laterExists).length).toBe(current < steps.length - 1 ? 1 : 0);
          expect(steps[current]!.laterExists === true).toBe(current < steps.length - 1);
          const text = candidateSummary({
            record,
            environment: 'Sandbox',
            role: 'support',
            now: new Date('2027-01-01T00:00:00Z'),
            timeZone: 'UTC',
          });
          expect(text.includes('a later status date exists')).toBe(current < steps.length - 1);
        },
      ),
    );
  });
});
