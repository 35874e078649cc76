import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLOCK_SKEW_MS, calendarDaysBetween, formatRelative, type ZoneOptions } from '../../src/kyc/view/time.ts';

const at = (iso: string) => new Date(iso);
const inZone = (timeZone: string): ZoneOptions => ({ timeZone, locale: 'en' });
const UTC: ZoneOptions = { zone: 'utc', locale: 'en' };
const SINGAPORE = inZone('Asia/Singapore');
const LOS_ANGELES = inZone('America/Los_Angeles');

describe('relative times count calendar days in the zone the page shows', () => {
  it('calls 23:50 yesterday "yesterday" at 00:10, twenty minutes on, and 00:10 today "23 hours ago" at 23:50', () => {
    expect(formatRelative(at('2026-11-20T23:50:00Z'), at('2026-11-21T00:10:00Z'), UTC)).toBe('yesterday');
    expect(calendarDaysBetween(at('2026-11-20T23:50:00Z'), at('2026-11-21T00:10:00Z'), UTC)).toBe(1);
    expect(formatRelative(at('2026-11-21T00:10:00Z'), at('2026-11-21T23:50:00Z'), UTC)).toBe('23 hours ago');
    expect(formatRelative(at('2026-11-19T00:00:00Z'), at('2026-11-21T23:59:59Z'), UTC)).toBe('2 days ago');
    expect(formatRelative(at('2026-11-19T23:59:59Z'), at('2026-11-21T00:00:00Z'), UTC)).toBe('2 days ago');
  });

  it('under a day and on the same date: hours, minutes, seconds, rounded down; "just now" under a second', () => {
    const now = at('2026-11-21T12:00:00Z');
    const msAgo = (ms: number) => new Date(now.getTime() - ms);
    expect(formatRelative(msAgo(999), now, UTC)).toBe('just now');
    expect(formatRelative(msAgo(1000), now, UTC)).toBe('1 second ago');
    expect(formatRelative(msAgo(59_999), now, UTC)).toBe('59 seconds ago');
    expect(formatRelative(msAgo(60_000), now, UTC)).toBe('1 minute ago');
    expect(formatRelative(msAgo(3_599_999), now, UTC)).toBe('59 minutes ago');
    expect(formatRelative(msAgo(2 * 3_600_000 + 59 * 60_000), now, UTC)).toBe('2 hours ago');
    expect(formatRelative(new Date(now.getTime() + 90 * 60_000), now, UTC)).toBe('in 1 hour');
  });

  it('a status reached 4 seconds "from now" by a clock that runs ahead reads "just now", not "in 4 seconds"', () => {
    const now = at('2026-11-21T12:00:00Z');
    const ahead = (ms: number) => new Date(now.getTime() + ms);
    expect(formatRelative(ahead(4000), now, UTC)).toBe('just now');
    expect(formatRelative(ahead(CLOCK_SKEW_MS), now, UTC)).toBe('just now');
    // Across midnight too: 23:59:58 and a date 4 s later, "tomorrow" by the calendar.
    expect(formatRelative(at('2026-11-22T00:00:02Z'), at('2026-11-21T23:59:58Z'), UTC)).toBe('just now');
    // Beyond the skew a date ahead is one: "in 6 minutes".
    expect(formatRelative(ahead(CLOCK_SKEW_MS + 60_000), now, UTC)).toBe('in 6 minutes');
    // A deadline (the archive date) is never taken for skew.
    expect(formatRelative(ahead(4000), now, { ...UTC, future: true })).toBe('in 4 seconds');
  });

  it('gives the same instants different counts in Singapore, Los Angeles and UTC, as their calendars do', () => {
    // 16:30 UTC is 00:30 the next day in Singapore and 08:30 the same day in Los Angeles.
    const [date, now] = [at('2026-11-19T16:30:00Z'), at('2026-11-20T07:30:00Z')];
    expect(formatRelative(date, now, SINGAPORE)).toBe('15 hours ago');
    expect(formatRelative(date, now, UTC)).toBe('yesterday');
    expect(formatRelative(date, now, LOS_ANGELES)).toBe('15 hours ago');
    // 07:30 UTC is 23:30 the day before in Los Angeles; 16:30 UTC is after midnight in Singapore.
    const [late, next] = [at('2026-11-20T07:30:00Z'), at('2026-11-20T16:30:00Z')];
    expect(formatRelative(late, next, LOS_ANGELES)).toBe('yesterday');
    expect(formatRelative(late, next, UTC)).toBe('9 hours ago');
    expect(formatRelative(late, next, SINGAPORE)).toBe('yesterday');
    // Weeks apart: 28 days in Singapore and Los Angeles, 29 in UTC.
    const [old, today] = [at('2026-10-27T17:00:00Z'), at('2026-11-25T06:00:00Z')];
    expect(formatRelative(old, today, SINGAPORE)).toBe('28 days ago');
    expect(formatRelative(old, today, UTC)).toBe('29 days ago');
    expect(formatRelative(old, today, LOS_ANGELES)).toBe('28 days ago');
  });

  it("uses UTC when the page shows UTC, whatever the reader's zone", () => {
    const [date, now] = [at('2026-11-19T16:30:00Z'), at('2026-11-20T07:30:00Z')];
    expect(formatRelative(date, now, { zone: 'utc', timeZone: 'Asia/Singapore', locale: 'en' })).toBe('yesterday');
    expect(formatRelative(date, now, { zone: 'local', timeZone: 'Asia/Singapore', locale: 'en' })).toBe('15 hours ago');
  });

  it('counts a day with a daylight saving change once, whether it had 23 hours or 25', () => {
    // Los Angeles springs forward on 8 March 2026: 00:30 PST to 00:10 PDT the next day is 22 h 40 min.
    expect(formatRelative(at('2026-03-08T08:30:00Z'), at('2026-03-09T07:10:00Z'), LOS_ANGELES)).toBe('yesterday');
    // 23:00 PST on the 7th to 00:30 PDT on the 9th: 24 h 30 min, two dates.
    expect(formatRelative(at('2026-03-08T07:00:00Z'), at('2026-03-09T07:30:00Z'), LOS_ANGELES)).toBe('2 days ago');
    // London falls back on 25 October 2026: 00:10 BST to 23:50 GMT is 24 h 40 min on one date.
    expect(formatRelative(at('2026-10-24T23:10:00Z'), at('2026-10-25T23:50:00Z'), inZone('Europe/London'))).toBe('24 hours ago');
    expect(formatRelative(at('2026-10-24T23:10:00Z'), at('2026-10-25T23:50:00Z'), UTC)).toBe('yesterday');
  });

  it('writes long spans in days, the one form everywhere: never months or years', () => {
    const now = at('2026-11-25T12:00:00Z');
    expect(formatRelative(at('2025-10-22T12:00:00Z'), now, UTC)).toBe('399 days ago');
    expect(formatRelative(at('2016-11-25T12:00:00Z'), now, UTC)).toBe('3,652 days ago');
    expect(formatRelative(at('2027-11-25T12:00:00Z'), now, UTC)).toBe('in 365 days');
  });

  const ZONES = ['UTC', 'Asia/Singapore', 'America/Los_Angeles', 'Europe/London', 'Asia/Kolkata', 'Pacific/Chatham', 'Pacific/Kiritimati'];
  const moment = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }).map((ms) => new Date(ms));
  const zone = fc.constantFrom(...ZONES).map(inZone);
  /** The date in the zone as the browser writes it (2026-11-21), read back as a count of days. */
  const dayNumber = (date: Date, options: ZoneOptions) =>
    Date.parse(date.toLocaleDateString('en-CA', { timeZone: options.timeZone })) / 86_400_000;

  it('property: the count is the difference of the two dates as the zone writes them', () => {
    fc.assert(
      fc.property(moment, moment, zone, (date, now, options) => {
        expect(calendarDaysBetween(date, now, options)).toBe(dayNumber(now, options) - dayNumber(date, options));
      }),
    );
  });

  it('property: two moments of one calendar day read alike from any other day, and an earlier day never reads as fewer days', () => {
    fc.assert(
      fc.property(moment, fc.integer({ min: 0, max: 86_399_999 }), moment, zone, (date, shift, now, options) => {
        const other = new Date(date.getTime() + shift);
        const [days, otherDays] = [calendarDaysBetween(date, now, options), calendarDaysBetween(other, now, options)];
        expect(days).toBeGreaterThanOrEqual(otherDays);
        // A moment within the clock skew ahead of now reads "just now" whatever its day: the rule is for the others.
        const skewed = (moment: Date) => moment.getTime() > now.getTime() && moment.getTime() - now.getTime() <= CLOCK_SKEW_MS;
        if (days === otherDays && days !== 0 && !skewed(date) && !skewed(other)) {
          expect(formatRelative(other, now, options)).toBe(formatRelative(date, now, options));
        }
        // Never more than a day off what the clock says.
        expect(Math.abs(days - (now.getTime() - date.getTime()) / 86_400_000)).toBeLessThan(1 + 1 / 24);
      }),
    );
  });

  it('property: a moment in the past or within the clock skew ahead never reads as one to come', () => {
    fc.assert(
      fc.property(moment, fc.integer({ min: -400 * 86_400_000, max: CLOCK_SKEW_MS }), zone, (now, offset, options) => {
        const text = formatRelative(new Date(now.getTime() + offset), now, options);
        expect(text).not.toMatch(/^in |tomorrow/);
        if (offset > -1000) expect(text).toBe('just now');
      }),
    );
  });
});
