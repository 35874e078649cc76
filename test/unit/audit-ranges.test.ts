import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { instantOf } from '../../src/app/audit/audit-draft.ts';
import { AUDIT_RANGES, rangeNameOf, rangeOf } from '../../src/app/audit/audit-ranges.ts';

/**
 * Zones with clock changes at midnight (Sao Paulo until 2019, Santiago, Havana, Beirut: that day's
 * midnight does not exist, or comes twice), by half an hour (Lord Howe), far from UTC (Kiritimati, +14),
 * and the usual ones.
 */
const ZONES = [
  'America/Sao_Paulo',
  'America/Santiago',
  'America/Havana',
  'Asia/Beirut',
  'Australia/Lord_Howe',
  'Pacific/Kiritimati',
  'America/New_York',
  'Europe/London',
  'Asia/Kolkata',
  'UTC',
];

const original = process.env.TZ;
afterAll(() => {
  // Assigning undefined would set the zone named "undefined" for the files after this one.
  if (original === undefined) delete process.env.TZ;
  else process.env.TZ = original;
});

const HOUR = 3_600_000;
const at = (local: string) => new Date(instantOf(local, 'local')!).getTime();
/** The calendar day of an instant in the process's zone, as `YYYY-MM-DD`. */
const localDay = (time: number) => {
  const date = new Date(time);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
};
const anyNow = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true });

describe("the audit page's quick ranges: whole days of the page's zone, from a midnight to the next, across clock changes", () => {
  it.each(ZONES)('in %s, "Today" holds now, runs from the day\'s first instant to the next day\'s, and the ranges meet', (zone) => {
    process.env.TZ = zone;
    fc.assert(
      fc.property(anyNow, (now) => {
        const today = rangeOf('today', now, 'local');
        const [from, to] = [at(today.from), at(today.to)];
        expect(from).toBeLessThanOrEqual(now.getTime());
        expect(now.getTime()).toBeLessThan(to);
        // The day of now, whole: the instant before From is the day before, Before is the next day's first.
        expect(localDay(from)).toBe(localDay(now.getTime()));
        expect(localDay(from - 1)).not.toBe(localDay(now.getTime()));
        expect(localDay(to - 1)).toBe(localDay(now.getTime()));
        // A day of a clock change is shorter or longer; never a day and an hour off.
        expect(to - from).toBeGreaterThanOrEqual(22 * HOUR);
        expect(to - from).toBeLessThanOrEqual(26 * HOUR);
        const yesterday = rangeOf('yesterday', now, 'local');
        expect(yesterday.to).toBe(today.from);
        expect(at(yesterday.to) - at(yesterday.from)).toBeLessThanOrEqual(26 * HOUR);
        for (const days of [7, 30] as const) {
          const last = rangeOf(days === 7 ? 'last7' : 'last30', now, 'local');
          expect(last.to).toBe(today.to);
          // N calendar days: N - 1 midnights back from today's, whatever the clock did between.
          const hours = (at(last.to) - at(last.from)) / HOUR;
          expect(Math.abs(hours - days * 24)).toBeLessThanOrEqual(2);
          expect(localDay(at(last.from) - 1)).not.toBe(localDay(at(last.from)));
        }
        expect(rangeNameOf(today.from, today.to, now, 'local')).toBe('today');
      }),
      { numRuns: 300 },
    );
  });

  it("while the page shows UTC times, the days are UTC days, whatever the reader's zone", () => {
    process.env.TZ = 'Pacific/Kiritimati';
    fc.assert(
      fc.property(anyNow, fc.constantFrom(...AUDIT_RANGES.map(({ name }) => name)), (now, name) => {
        const range = rangeOf(name, now, 'utc');
        const [from, to] = [instantOf(range.from, 'utc')!, instantOf(range.to, 'utc')!];
        expect(from.slice(11)).toBe('00:00:00.000Z');
        expect(to.slice(11)).toBe('00:00:00.000Z');
        if (name !== 'yesterday') expect(from <= now.toISOString() && now.toISOString() < to).toBe(true);
        expect(rangeNameOf(range.from, range.to, now, 'utc')).toBe(name);
      }),
      { numRuns: 500 },
    );
  });

  it('on the day the clock skips midnight (Sao Paulo, 4 November 2018), "Today" starts at the day\'s first instant, 01:00', () => {
    process.env.TZ = 'America/Sao_Paulo';
    const today = rangeOf('today', new Date('2018-11-04T15:00:00Z'), 'local');
    expect(today).toEqual({ from: '2018-11-04T00:00:00', to: '2018-11-05T00:00:00' });
    expect(instantOf(today.from, 'local')).toBe('2018-11-04T03:00:00.000Z');
    expect(at(today.to) - at(today.from)).toBe(23 * HOUR);
  });

  it('a range edited by hand is no quick range any more; the same times written without seconds still are', () => {
    const now = new Date('2026-11-30T12:00:00Z');
    expect(rangeNameOf('2026-11-30T00:00:00', '2026-12-01T00:00:00', now, 'utc')).toBe('today');
    expect(rangeNameOf('2026-11-30T00:00', '2026-12-01T00:00', now, 'utc')).toBe('today');
    expect(rangeNameOf('2026-11-30T08:00:00', '2026-12-01T00:00:00', now, 'utc')).toBeUndefined();
    expect(rangeNameOf('', '2026-12-01T00:00:00', now, 'utc')).toBeUndefined();
  });
});
