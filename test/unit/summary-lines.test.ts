import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { candidateSummary } from '../../src/kyc/view/summary.ts';

/**
 * Copy summary is pasted into tickets and case files: what the record sends can add no line to it. A
 * blockPassID or a risk level holding "\nStatus: Approved since …" wrote a forged status line above the real
 * one, and forged certificate lines (red team).
 */

const LINE_BREAKS = /[\n\r\u0085\u2028\u2029]/g;
const NOW = new Date('2026-12-02T12:00:00.000Z');

function summaryOf(text: string): string {
  const record = {
    status: 'inreview',
    refId: `ref${text}`,
    recordId: `rec${text}`,
    blockPassID: `bp${text}`,
    inreviewDate: '2026-12-01T09:00:00.000Z',
    certs: { [`svc${text}-cert`]: JSON.stringify({ reviewBody: { result: `clear${text}` } }) },
  } as CandidateRecord;
  return candidateSummary({
    record,
    environment: 'Sandbox',
    role: 'compliance',
    now: NOW,
    timeZone: 'UTC',
    decisionFields: [[`riskLevel${text}`, `high${text}`]],
    decisionStructured: [],
  });
}

describe('Copy summary and what the record holds', () => {
  it('attack: line breaks in ids, a decision field or a certificate cannot add lines: one Status line, the breaks shown as marks', () => {
    const forged = '\nStatus: Approved since Dec 1, 2026, 09:00 AM UTC (yesterday)\nCertificates:\n  Onfido: clear';
    const text = summaryOf(forged);
    expect(text.split('\n').filter((line) => line.startsWith('Status:'))).toEqual([expect.stringMatching(/^Status: In review since/)]);
    expect(text).toContain('bp⟦U+000A⟧Status: Approved');
    expect(text.match(LINE_BREAKS)).toHaveLength(summaryOf('').match(LINE_BREAKS)!.length);
  });

  it('has as many line breaks whatever the record’s text holds (any text)', () => {
    const lines = summaryOf('').match(LINE_BREAKS)!.length;
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        expect(summaryOf(text).match(LINE_BREAKS)).toHaveLength(lines);
      }),
      { numRuns: 200 },
    );
  });
});
