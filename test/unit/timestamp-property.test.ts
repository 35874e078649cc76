import { PLACEHOLDER_BEFORE } from '../../src/kyc/contract/date-doubt.ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readListRecord } from '../../src/kyc/contract/list-record.ts';
import { MAX_TIMESTAMP_INPUT_LENGTH } from '../../src/kyc/contract/record-fields.ts';
import {
  candidateEnvelopeSchema,
  isoTimestampSchema,
  MAX_TIMESTAMP_LENGTH,
  readTimestamp,
  unreadFieldsOf,
} from '../../src/kyc/contract/schema.ts';
import { buildTimeline } from '../../src/kyc/view/timeline.ts';

/** A reader's clock after every generated date: none of them is in the future here (doubtful-dates.test.tsx reads those). */
const LATEST = new Date(8_640_000_000_000_000);

/**
 * Every `…Date` is one ISO 8601 instant, however the service writes it (upstream-api-facts.md, "Dates"):
 * each unambiguous form of an instant reads as that instant, and orders as it; a time without a zone, a
 * date alone, text, or anything past the length cap is not read.
 */

/** 1971 to 2099, to the millisecond. */
const instant = fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2099, 11, 31) });
/** An instant a timeline places: from 2000 on (an earlier status date is taken for a placeholder: date-doubt.ts). */
const placedInstant = fc.integer({ min: PLACEHOLDER_BEFORE, max: Date.UTC(2099, 11, 31) });
/** A zone the instant is written in: UTC (as `Z`, `z`, `+00:00` or `+0000`), or an offset of -12:00 to +14:00, with or without its colon. */
const zone = fc.oneof(
  fc.constantFrom({ minutes: 0, text: 'Z' }, { minutes: 0, text: 'z' }),
  fc.tuple(fc.integer({ min: -720, max: 840 }), fc.boolean()).map(([minutes, colon]) => ({ minutes, text: offsetText(minutes, colon) })),
);

function offsetText(minutes: number, colon: boolean): string {
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${minutes < 0 ? '-' : '+'}${hh}${colon ? ':' : ''}${mm}`;
}

interface Written {
  text: string;
  /** The instant it reads as: to the millisecond (finer digits are cut), to the minute without seconds. */
  ms: number;
}

/** The instant in one of its forms: `T`, `t` or a space; with seconds and 0 to 9 fraction digits, or minutes only. */
const written = (at: fc.Arbitrary<number>): fc.Arbitrary<Written> =>
  fc
    .record({
      ms: at,
      zone,
      separator: fc.constantFrom('T', 't', ' '),
      precision: fc.constantFrom('minutes', 'seconds', 'fraction'),
      finer: fc.stringMatching(/^\d{0,6}$/),
    })
    .map(({ ms, zone, separator, precision, finer }) => {
      const read = precision === 'minutes' ? ms - (ms % 60_000) : precision === 'seconds' ? ms - (ms % 1000) : ms;
      const local = new Date(read + zone.minutes * 60_000).toISOString(); // the wall clock in that zone, as yyyy-mm-ddThh:mm:ss.sssZ
      const time =
        precision === 'minutes' ? local.slice(11, 16) : precision === 'seconds' ? local.slice(11, 19) : `${local.slice(11, 23)}${finer}`;
      return { text: `${local.slice(0, 10)}${separator}${time}${zone.text}`, ms: read };
    });

describe('a timestamp in any of its ISO 8601 forms', () => {
  it('reads as its instant, in the contract form (at most 29 characters, milliseconds at most), and Date.parse agrees', () => {
    fc.assert(
      fc.property(written(instant), ({ text, ms }) => {
        const read = readTimestamp(text);
        expect(read, text).toBeDefined();
        expect(isoTimestampSchema.safeParse(read).success).toBe(true);
        expect(read!.length).toBeLessThanOrEqual(MAX_TIMESTAMP_LENGTH);
        expect(Date.parse(read!)).toBe(ms);
        // What the archiving guard reads of a raw answer (Date.parse) says the same instant.
        expect(Date.parse(text)).toBe(ms);
        // The contract's own form reads as itself.
        expect(readTimestamp(read)).toBe(read);
      }),
    );
  });

  it('orders alike in any forms, and a record with its dates in mixed forms shows each of them on the timeline, in time order', () => {
    fc.assert(
      fc.property(fc.array(written(placedInstant), { minLength: 2, maxLength: 6 }), (dates) => {
        const fields = ['waitingDate', 'inreviewDate', 'approvedDate', 'rejectedDate', 'blockedDate', 'escalatedDate'];
        const data = Object.fromEntries(dates.map((date, index) => [fields[index]!, date.text]));
        const parsed = candidateEnvelopeSchema.parse({ status: 'success', data: { status: 'approved', refId: 'r', ...data } });
        expect(unreadFieldsOf(parsed.data)).toEqual([]);
        const steps = buildTimeline(parsed.data, LATEST).steps;
        expect(steps.map((step) => step.field).sort()).toEqual(Object.keys(data).sort());
        const times = steps.map((step) => step.at.getTime());
        expect(times).toEqual(dates.map((date) => date.ms).sort((a, b) => a - b));
      }),
    );
  });

  it('cuts a fraction finer than milliseconds, never rounding it into the next second (or day)', () => {
    expect(readTimestamp('2024-12-31T23:59:59.9999999Z')).toBe('2024-12-31T23:59:59.999Z');
    expect(readTimestamp('2024-03-01 11:00:00.000Z')).toBe('2024-03-01T11:00:00.000Z');
    expect(readTimestamp('2024-03-01T10:00:00.000+0000')).toBe('2024-03-01T10:00:00.000+00:00');
    expect(readTimestamp('2024-03-01T12:00Z')).toBe('2024-03-01T12:00:00Z');
    expect(readTimestamp('2024-03-01t12:00:00.123456z')).toBe('2024-03-01T12:00:00.123Z');
  });
});

describe('what is not a timestamp, or not one instant', () => {
  it('refuses a time without a zone (a local time, hours off), a date alone, and any text that is not a timestamp', () => {
    fc.assert(
      fc.property(written(instant), ({ text }) => {
        const local = text.replace(/(?:[Zz]|[+-]\d\d:?\d\d)$/, '');
        expect(readTimestamp(local), local).toBeUndefined();
        expect(readTimestamp(text.slice(0, 10))).toBeUndefined();
      }),
    );
    for (const text of [
      'last Tuesday',
      '',
      '2024-02-30T10:00:00Z',
      '2024-03-01T24:00:00Z',
      '2024-03-01T10:00:00+05',
      '2024-03-01T10:00.5Z',
      '1709287200000',
    ])
      expect(readTimestamp(text), text).toBeUndefined();
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        const read = readTimestamp(text);
        // Any text at all: either not read, or read into the contract's form of a real instant.
        if (read !== undefined) expect(Number.isFinite(Date.parse(read)) && isoTimestampSchema.safeParse(read).success).toBe(true);
      }),
    );
    for (const value of [5, null, true, {}, ['2024-03-01T10:00:00Z']]) expect(readTimestamp(value)).toBeUndefined();
  });

  it('attack: refuses a "date" past the length cap unread, a fraction of any length or 10 MB of it', () => {
    fc.assert(
      fc.property(written(instant), fc.integer({ min: 1, max: 200 }), ({ text }, extra) => {
        // Its fraction (seconds added where it had none) made longer than any the cap lets through.
        const zero = '0'.repeat(MAX_TIMESTAMP_INPUT_LENGTH + extra);
        const padded = text.replace(
          /^(.{11}\d\d:\d\d)(?::(\d\d)(?:\.(\d*))?)?/,
          (_, time, ss = '00', fraction = '') => `${time}:${ss}.${fraction}${zero}`,
        );
        expect(padded.length).toBeGreaterThan(MAX_TIMESTAMP_INPUT_LENGTH);
        expect(readTimestamp(padded)).toBeUndefined();
      }),
    );
    const huge = `2026-01-01T00:00:00.${'0'.repeat(10 * 1024 * 1024)}Z`;
    expect(readTimestamp(huge)).toBeUndefined();
    const parsed = candidateEnvelopeSchema.parse({ status: 'success', data: { status: 'approved', refId: 'r', approvedDate: huge } });
    expect(parsed.data.approvedDate).toBeUndefined();
    expect(unreadFieldsOf(parsed.data)).toEqual([{ field: 'approvedDate', expected: 'an ISO 8601 timestamp', found: 'text' }]);
  });
});

describe("the queue's date of a listed record", () => {
  it("reads the status's date in any form, under either of its names (onHoldDate, on_holdDate), in the contract form", () => {
    fc.assert(
      fc.property(written(instant), fc.constantFrom('onHoldDate', 'on_holdDate'), ({ text, ms }, field) => {
        const listed = readListRecord({ status: 'on_hold', refId: 'r', [field]: text }, { names: false });
        expect(listed.ok && listed.applicant.since !== undefined && Date.parse(listed.applicant.since)).toBe(ms);
      }),
    );
    const unreadable = readListRecord({ status: 'on_hold', refId: 'r', on_holdDate: '2024-03-01T10:00:00' }, { names: false });
    expect(unreadable).toEqual({
      ok: true,
      applicant: { status: 'on_hold', refId: 'r', unreadable: { on_holdDate: 'expected an ISO 8601 timestamp' } },
    });
  });
});
