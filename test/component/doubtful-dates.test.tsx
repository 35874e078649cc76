import { render } from '@testing-library/react';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOverSla, SinceCell } from '../../src/app/applicants/applicant-cells.tsx';
import { BatchSince } from '../../src/app/batch/batch-table.tsx';
import { CLOCK_SKEW_MS, PLACEHOLDER_BEFORE } from '../../src/kyc/contract/date-doubt.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { placementOf } from '../../src/server/state/queue-entry.ts';
import { candidateSummary } from '../../src/kyc/view/summary.ts';
import { buildTimeline, currentSince } from '../../src/kyc/view/timeline.ts';

const NOW = Date.parse('2026-12-01T00:00:00.000Z');
const DAY = 86_400_000;

const record = (fields: Partial<CandidateRecord>): CandidateRecord => ({
  status: 'inreview',
  refId: 'r1',
  waitingDate: '2026-11-28T10:00:00.000Z',
  ...fields,
});

const queueCell = (since: string | undefined) =>
  render(<SinceCell applicant={{ status: 'waiting', refId: 'r1', ...(since ? { since } : {}) }} now={NOW} zone="utc" slaHours={24} />)
    .container;

describe('a status date in the future', () => {
  const future = record({ inreviewDate: '2027-06-01T00:00:00.000Z' });

  it('is no step of the timeline: shown as sent, doubtful, with no time after submission', () => {
    const timeline = buildTimeline(future, new Date(NOW));
    expect(timeline.steps.map((step) => step.field)).toEqual(['waitingDate']);
    expect(timeline.unreadDates).toMatchObject([
      { field: 'inreviewDate', doubt: 'future', current: true, sent: '2027-06-01T00:00:00.000Z' },
    ]);
    expect(currentSince(timeline)?.at).toBeUndefined();
  });

  it('Copy summary says it is doubtful, never "in 182 days"', () => {
    const text = candidateSummary({ record: future, environment: 'Test', role: 'support', now: new Date(NOW), zone: 'utc' });
    expect(text).toContain('Status: In review since 2027-06-01T00:00:00.000Z (as sent: dated in the future: doubtful)');
    expect(text).not.toMatch(/in \d+ days/);
  });

  it('a date within the clock skew allowance is still read as a time', () => {
    const soon = new Date(NOW + CLOCK_SKEW_MS - 1000).toISOString();
    expect(buildTimeline(record({ inreviewDate: soon }), new Date(NOW)).steps.map((step) => step.field)).toContain('inreviewDate');
  });

  it('the queue says "date in the future" in place of an age, and it is never over the SLA', () => {
    const cell = queueCell('2999-01-01T00:00:00.000Z');
    expect(cell.querySelector('[data-doubtful-date="future"]')).not.toBeNull();
    expect(cell.textContent).toContain('date in the future');
    expect(cell.textContent).not.toContain('under 1 min');
    expect(isOverSla({ status: 'waiting', since: '2999-01-01T00:00:00.000Z' }, NOW, 24)).toBe(false);
  });
});

/** A status date of any kind: past, future (beyond the skew allowance or not), epoch-near, unreadable. */
const anyDate = fc.oneof(
  fc.integer({ min: -400 * DAY, max: 400 * DAY }).map((offset) => new Date(NOW + offset).toISOString()),
  fc.integer({ min: 0, max: 30 * 365 * DAY }).map((at) => new Date(at).toISOString()),
  fc.integer({ min: 0, max: 900_000 * DAY }).map((offset) => new Date(NOW + offset).toISOString()),
  fc.constantFrom('2026-11-28 10:00:00', 'soon', '1764324000000'),
);

describe('property: a doubtful date is never presented as a plain age', () => {
  it('on the queue, the timeline and Copy summary', () => {
    fc.assert(
      fc.property(anyDate, (date) => {
        const at = Date.parse(date);
        const doubtful = Number.isFinite(at) && /^\d{4}-\d\d-\d\dT/.test(date) && (at - NOW > CLOCK_SKEW_MS || at < PLACEHOLDER_BEFORE);
        // The queue's dates are the server's reading (readTimestamp): always a time.
        const cell = queueCell(Number.isFinite(at) ? new Date(at).toISOString() : undefined);
        const age = cell.querySelector('[data-age]')?.textContent ?? '';
        if (doubtful) {
          expect(cell.querySelector('[data-doubtful-date]')).not.toBeNull();
          expect(age).not.toMatch(/\d+ (d|h|min)$|under 1 min/);
        }
        const timeline = buildTimeline(record({ status: 'waiting', waitingDate: date }), new Date(NOW));
        const step = timeline.steps.find((one) => one.field === 'waitingDate');
        if (doubtful) expect(step).toBeUndefined();
        const text = candidateSummary({
          record: record({ status: 'waiting', waitingDate: date }),
          environment: 'T',
          role: 'support',
          now: new Date(NOW),
        });
        if (doubtful) expect(text).toMatch(/as sent: (dated in the future|probably a placeholder)/);
        cell.remove();
        // The batch row's Since column: the service's record as sent (batchRowOf), read at the same clock.
        const batch = render(<BatchSince statusDate={date} now={NOW} />).container;
        if (doubtful) {
          expect(batch.querySelector('[data-doubtful-date]')).not.toBeNull();
          expect(batch.textContent).not.toMatch(/ago|in \d+ days|yesterday|tomorrow/);
        }
        batch.remove();
      }),
      { numRuns: 60 },
    );
  });
});

describe('an epoch-zero status date', () => {
  const epoch = '1970-01-01T00:00:00.000Z';

  it('the page: no step, no "25567 days after the review began": probably a placeholder, shown as sent', () => {
    const timeline = buildTimeline(
      record({ status: 'waiting', waitingDate: epoch, inreviewDate: '2026-11-29T10:00:00.000Z' }),
      new Date(NOW),
    );
    expect(timeline.steps.map((step) => [step.field, step.laterExists])).toEqual([['inreviewDate', undefined]]);
    expect(timeline.unreadDates).toMatchObject([{ field: 'waitingDate', doubt: 'placeholder', current: true, sent: epoch }]);
    const text = candidateSummary({
      record: record({ status: 'waiting', waitingDate: epoch }),
      environment: 'T',
      role: 'support',
      now: new Date(NOW),
    });
    expect(text).toContain(`Status: Waiting since ${epoch} (as sent: probably a placeholder, not a real date)`);
  });

  it('the queue: no "20788 d", never over the SLA', () => {
    const cell = queueCell(epoch);
    expect(cell.querySelector('[data-doubtful-date="placeholder"]')).not.toBeNull();
    expect(cell.textContent).not.toMatch(/\d+ d/);
    expect(cell.querySelector('[data-over-sla]')).toBeNull();
    expect(isOverSla({ status: 'waiting', since: epoch }, NOW, 24)).toBe(false);
  });

  it('the queue index orders it with the undated rows (service order), never first by age nor in the SLA count', () => {
    const placed = placementOf({ status: 'waiting', refId: 'r1', since: 0, position: 7 });
    // And counted apart (n): not a date still to be looked up.
    expect(placed).toEqual([
      ['u:waiting', '7'],
      ['n:waiting', '7'],
    ]);
    expect(placementOf({ status: 'waiting', refId: 'r1', since: NOW })).toEqual([['z:waiting', String(NOW)]]);
  });
});

describe('a row looked up whose record holds no date', () => {
  it('says "no date in the service\'s record", never "not known yet"', () => {
    const cell = render(
      <SinceCell applicant={{ status: 'waiting', refId: 'r1', dateless: true }} now={NOW} zone="utc" slaHours={24} />,
    ).container;
    expect(cell.textContent).toBe("no date in the service's record");
  });
});
