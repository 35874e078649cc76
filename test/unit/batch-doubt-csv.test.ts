import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BatchRow } from '../../src/kyc/contract/batch.ts';
import { BATCH_COLUMNS, type BatchLine, batchCsv, batchTsv, TRIAGE_COLUMNS } from '../../src/kyc/view/batch-export.ts';

/** The batch's export says a status date's doubt as the page does, in a last column: no column before it moves. */

const NOW = Date.parse('2026-12-01T12:00:00.000Z');
const found = (line: number, statusDate: string, triage = false): BatchLine => ({
  line,
  id: `id-${line}`,
  row: {
    type: 'row',
    index: line,
    ok: true,
    status: 'waiting',
    statusDate,
    refId: `id-${line}`,
    ...(triage ? { triage: { known: false } } : {}),
  } as BatchRow,
});
const lastCells = (text: string) =>
  text
    .replace(/\n$/, '')
    .split('\n')
    .map((row) => row.split('\t').at(-1));

describe("the batch's CSV and a status date that cannot be right", () => {
  it('says "dated in the future: doubtful" and "probably a placeholder, not a real date" in a last column, nothing for a real date', () => {
    const lines = [found(1, '2999-01-01T00:00:00.000Z'), found(2, '1970-01-01T00:00:00.000Z'), found(3, '2026-11-20T10:00:00.000Z')];
    const csv = batchCsv(lines, 'refId', { zone: 'utc', locale: 'en-GB' }, NOW);
    const header = csv.slice(1).split('\r\n')[0]!.split(',');
    expect(header.slice(0, BATCH_COLUMNS.length)).toEqual([...BATCH_COLUMNS]);
    expect(lastCells(batchTsv(lines, 'refId', {}, NOW))).toEqual([
      'statusDateDoubt',
      'dated in the future: doubtful',
      'probably a placeholder, not a real date',
      '',
    ]);
    // The cell is the page's words; the CSV quotes the comma.
    expect(csv).toContain('"probably a placeholder, not a real date"');
    expect(batchTsv(lines, 'refId', {}, NOW).split('\n')[1]!.split('\t').at(-1)).toBe('dated in the future: doubtful');
  });

  it('comes after the triage columns, which keep their places', () => {
    const csv = batchCsv([found(1, '2999-01-01T00:00:00.000Z', true)], 'refId', {}, NOW)
      .slice(1)
      .split('\r\n');
    expect(csv[0]).toBe([...BATCH_COLUMNS, ...TRIAGE_COLUMNS, 'statusDateDoubt'].join(','));
    expect(csv[1]!.split(',').at(-1)).toBe('dated in the future: doubtful');
  });

  it("property: a found row's doubt cell is filled exactly when its date is before 2000 or more than five minutes ahead", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.parse('3000-01-01') }), (at) => {
        const cell = batchTsv([found(1, new Date(at).toISOString())], 'refId', {}, NOW)
          .split('\n')[1]!
          .split('\t')
          .at(-1);
        const doubtful = at < Date.parse('2000-01-01') || at - NOW > 5 * 60_000;
        expect(cell !== '').toBe(doubtful);
      }),
    );
  });
});
