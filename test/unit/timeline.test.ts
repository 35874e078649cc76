import { describe, expect, it } from 'vitest';
import { candidateEnvelopeSchema, type CandidateRecord, unreadFieldsOf } from '../../src/kyc/contract/schema.ts';
import { statusInfo, statusOfDateField, KNOWN_STATUSES } from '../../src/kyc/contract/status.ts';
import { formatClock, formatDateTime, formatDuration, formatRelative } from '../../src/kyc/view/time.ts';
import { statusTone } from '../../src/kyc/view/status-tone.ts';
import { buildTimeline } from '../../src/kyc/view/timeline.ts';

const record = (fields: Partial<CandidateRecord>): CandidateRecord => ({
  status: 'approved',
  isArchived: false,
  blockPassID: 'bp',
  ...fields,
});

describe('buildTimeline', () => {
  it('orders steps by time, not by field order, and marks the current status', () => {
    const timeline = buildTimeline(
      record({
        status: 'review_requested',
        reviewRequestedDate: '2026-03-01T10:00:00.000Z',
        approvedDate: '2026-01-02T10:00:00.000Z',
        waitingDate: '2026-01-01T10:00:00.000Z',
        inreviewDate: '2026-01-01T10:00:14.000Z',
      }),
    );
    expect(timeline.steps.map((s) => s.status.label)).toEqual(['Waiting', 'In review', 'Approved', 'Review requested']);
    expect(timeline.steps.map((s) => s.current)).toEqual([false, false, false, true]);
    expect(timeline.steps[1]!.sincePrevious).toBe(14_000);
    expect(timeline.steps[0]!.sincePrevious).toBeUndefined();
    expect(timeline.undatedCurrent).toBeUndefined();
  });

  it('keeps willArchiveAtDate out of the steps, as an upcoming event', () => {
    const timeline = buildTimeline(record({ waitingDate: '2026-01-01T00:00:00.000Z', willArchiveAtDate: '2026-12-01T00:00:00.000Z' }));
    expect(timeline.steps.map((s) => s.field)).toEqual(['waitingDate']);
    expect(timeline.willArchiveAt?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });

  it('reports a current status that has no date, and shows unknown statuses by their raw value', () => {
    const timeline = buildTimeline(
      record({ status: 'on_hold', waitingDate: '2026-01-01T00:00:00.000Z', escalatedDate: '2026-01-03T00:00:00.000Z' }),
    );
    expect(timeline.undatedCurrent).toMatchObject({ status: 'on_hold', label: 'on_hold', known: false });
    expect(statusTone(timeline.undatedCurrent!.status).family).toBe('neutral');
    expect(timeline.steps.map((s) => s.status.status)).toEqual(['waiting', 'escalated']);
  });

  it('marks only the latest step of a status that happened twice', () => {
    const timeline = buildTimeline(
      record({ status: 'inreview', inreviewDate: '2026-01-05T00:00:00.000Z', waitingDate: '2026-01-01T00:00:00.000Z' }),
    );
    expect(timeline.steps.filter((s) => s.current).map((s) => s.field)).toEqual(['inreviewDate']);
  });
});

describe('statuses', () => {
  it('has a label and a tone for every documented status', () => {
    for (const status of KNOWN_STATUSES) {
      const info = statusInfo(status);
      expect(info.known).toBe(true);
      expect(info.label).not.toBe(status === 'approved' ? '' : status);
      expect(statusTone(status).family).not.toBe('neutral');
    }
  });

  it('maps date fields to statuses', () => {
    expect(statusOfDateField('inreviewDate')).toBe('inreview');
    expect(statusOfDateField('reviewRequestedDate')).toBe('review_requested');
    expect(statusOfDateField('waitingDate')).toBe('waiting');
  });
});

describe('time formatting', () => {
  it.each([
    [14_000, '14 s'],
    [59_999, '59 s'],
    [3 * 60_000, '3 min'],
    [2 * 3_600_000 + 5 * 60_000, '2 h 5 min'],
    [3_600_000, '1 h'],
    [86_400_000 + 4 * 3_600_000, '1 day 4 h'],
    [3 * 86_400_000, '3 days'],
    [20 * 86_400_000 + 3_600_000, '20 days'],
  ])('formats %i ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('formats relative times both ways', () => {
    const now = new Date('2026-11-21T12:00:00.000Z');
    const utc = { zone: 'utc', locale: 'en' } as const;
    expect(formatRelative(new Date('2026-11-18T12:00:00.000Z'), now, utc)).toBe('3 days ago');
    expect(formatRelative(new Date('2026-12-11T12:00:00.000Z'), now, utc)).toBe('in 20 days');
    expect(formatRelative(now, now, utc)).toBe('just now');
  });

  it('words two events on the same calendar day alike, in days, never "last month" or "1 year ago"', () => {
    const now = new Date('2026-11-21T12:00:00.000Z');
    const utc = { zone: 'utc', locale: 'en' } as const;
    const daysAgo = (days: number, minutes = 0) => new Date(now.getTime() - days * 86_400_000 - minutes * 60_000);
    expect(formatRelative(daysAgo(30), now, utc)).toBe('30 days ago');
    expect(formatRelative(daysAgo(30, -3), now, utc)).toBe('30 days ago');
    expect(formatRelative(daysAgo(30, 3), now, utc)).toBe('30 days ago');
    expect(formatRelative(daysAgo(1), now, utc)).toBe('yesterday');
    expect(formatRelative(daysAgo(0, 24 * 60 - 1), now, utc)).toBe('yesterday');
    expect(formatRelative(daysAgo(0, 59.5), now, utc)).toBe('59 minutes ago');
    expect(formatRelative(daysAgo(0, 60), now, utc)).toBe('1 hour ago');
    expect(formatRelative(daysAgo(90), now, utc)).toBe('90 days ago');
    expect(formatRelative(daysAgo(400), now, utc)).toBe('400 days ago');
    expect(formatRelative(new Date(now.getTime() + 86_400_000), now, utc)).toBe('tomorrow');
  });
});

describe('zone labels', () => {
  const moment = new Date('2026-10-24T01:55:00.000Z');

  it('label every absolute time with its zone', () => {
    expect(formatDateTime(moment, { zone: 'utc', locale: 'en-GB' })).toBe('24 Oct 2026, 01:55 UTC');
    expect(formatDateTime(moment, { timeZone: 'Asia/Singapore', locale: 'en-GB' })).toMatch(/^24 Oct 2026, 09:55 (SGT|UTC\+8)$/);
    expect(formatDateTime(moment, { timeZone: 'Asia/Kolkata', locale: 'en-GB' })).toMatch(/07:25 (IST|UTC\+5:30)$/);
    expect(formatDateTime(moment, { timeZone: 'America/New_York', locale: 'en-US' })).toMatch(/^Oct 23, 2026, 09:55\sPM EDT$/);
    expect(formatDateTime(moment, { zone: 'utc', locale: 'en-GB', seconds: true })).toBe('24 Oct 2026, 01:55:00 UTC');
  });

  it("write a wait's clock time as the locale's people do: no leading zero on a 12-hour clock, kept on a 24-hour one", () => {
    // Before: "01:55:00 AM UTC".
    expect(formatClock(moment, { zone: 'utc', locale: 'en-US', seconds: true })).toMatch(/^1:55:00\sAM UTC$/);
    expect(formatClock(moment, { zone: 'utc', locale: 'en-GB', seconds: true })).toBe('01:55:00 UTC');
    expect(formatClock(moment, { zone: 'utc', locale: 'de-DE' })).toBe('01:55 UTC');
  });

  it('write offsets from UTC, never from GMT', () => {
    for (const timeZone of ['Asia/Singapore', 'Europe/Paris', 'Africa/Accra', 'Asia/Ho_Chi_Minh', 'Pacific/Chatham']) {
      expect(formatDateTime(moment, { timeZone, locale: 'en-US' })).not.toMatch(/GMT/);
    }
    expect(formatDateTime(moment, { timeZone: 'Asia/Ho_Chi_Minh', locale: 'en-US' })).toMatch(/ UTC\+7$/);
    expect(formatDateTime(moment, { timeZone: 'Africa/Accra', locale: 'en-US' })).toMatch(/ UTC$/);
    expect(formatDateTime(moment, { zone: 'utc', timeZone: 'Asia/Tokyo', locale: 'en-US' })).toMatch(/ UTC$/);
  });
});

describe('candidate schema', () => {
  const ok = {
    status: 'success',
    data: { status: 'inreview', refId: 'r', isArchived: false, blockPassID: 'b', waitingDate: '2026-01-01T00:00:00.000Z' },
  };

  it('accepts the documented status-level record and unknown extra fields', () => {
    expect(candidateEnvelopeSchema.safeParse(ok).success).toBe(true);
    expect(candidateEnvelopeSchema.safeParse({ ...ok, data: { ...ok.data, somethingNew: [1] } }).success).toBe(true);
  });

  it('reads a certificate given as the JSON document itself, not as its text, as that document', () => {
    const document = { '@context': ['https://w3id.org/identity/v1'], Claim: { reviewBody: 'clear' } };
    const parsed = candidateEnvelopeSchema.parse({ ...ok, data: { ...ok.data, certs: { 'onfido-service-cert': document, list: [1, 2] } } });
    expect(parsed.data.certs).toEqual({ 'onfido-service-cert': JSON.stringify(document), list: '[1,2]' });
    expect(unreadFieldsOf(parsed.data)).toEqual([]);
  });

  // Issue 30: a field in another form costs that field, named; the record is still read.
  it.each([
    ['isArchived', { isArchived: 'no' }, 'isArchived: true or false expected, text found'],
    ['a status date', { waitingDate: 'last Tuesday' }, 'waitingDate: an ISO 8601 timestamp expected, text found'],
    ['an unknown status date', { escalatedDate: 5 }, 'escalatedDate: an ISO 8601 timestamp expected, a whole number found'],
    [
      'identities',
      { identities: { email: { type: 'string' } } },
      'identities.email: an attribute ({type, value}) expected, an object found',
    ],
    ['certs', { certs: { 'onfido-service-cert': 5 } }, 'certs.onfido-service-cert: a certificate as text expected, a whole number found'],
  ])('names the field when %s is wrong, and reads the rest', (_name, patch, said) => {
    const parsed = candidateEnvelopeSchema.safeParse({ ...ok, data: { ...ok.data, ...patch } });
    expect(parsed.success).toBe(true);
    expect(unreadFieldsOf(parsed.data!.data).map((field) => `${field.field}: ${field.expected} expected, ${field.found} found`)).toEqual([
      said,
    ]);
    expect(parsed.data!.data).toMatchObject({ status: 'inreview', refId: 'r', blockPassID: 'b' });
  });

  it('names the field when the status is missing: the one field no record is read without', async () => {
    const { z } = await import('zod');
    const { status: _, ...withoutStatus } = ok.data;
    const parsed = candidateEnvelopeSchema.safeParse({ ...ok, data: withoutStatus });
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(z.prettifyError(parsed.error)).toMatch(/The record has no status\.\n.*data\.status/);
  });
});
