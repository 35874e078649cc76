import { describe, expect, it } from 'vitest';
import { readDob } from '../../src/kyc/view/dob.ts';
import { calendarDaysBetween, utcDay } from '../../src/kyc/view/time.ts';

/**
 * A year from 0 to 99 as written: `Date.UTC` reads it as 1900 to 1999, so a `lastLoginDate` of the year 50
 * was counted 27,943 days ago (as 1950) and a birth date of 01/01/0050 was "not a date that exists" (red team).
 */
describe('years before 100', () => {
  it('attack: a date of the year 50 is counted as the year 50, not 1950', () => {
    const now = new Date('2026-12-02T12:00:00.000Z');
    const days = calendarDaysBetween(new Date('0050-06-01T00:00:00.000Z'), now, { zone: 'utc' });
    expect(days).toBe(Math.round((utcDay(2026, 12, 2) - utcDay(50, 6, 1)) / 86_400_000));
    expect(days).toBeGreaterThan(700_000);
  });

  it('attack: a birth date of 01/01/0050 is a date that exists, of the year 50', () => {
    expect(readDob('01/01/0050')).toMatchObject({ ok: true, dob: { year: 50, month: 1, day: 1 } });
    expect(readDob('02/30/0050')).toMatchObject({ ok: false, problem: 'not a date that exists' });
  });

  it('keeps every later year as it was', () => {
    for (const [year, month, day] of [
      [1950, 6, 1],
      [2000, 2, 29],
      [2026, 12, 2],
    ] as const) {
      expect(utcDay(year, month, day)).toBe(Date.UTC(year, month - 1, day));
    }
  });
});
