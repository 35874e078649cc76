import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { needsAttention } from '../../src/kyc/contract/certificate-triage.ts';
import type { BatchLine } from '../../src/kyc/view/batch-export.ts';
import { BATCH_COLUMNS, batchCsv, DOUBT_COLUMNS, TRIAGE_COLUMNS } from '../../src/kyc/view/batch-export.ts';
import { lineNeedsAttention, linesOrder } from '../../src/kyc/view/batch-triage.ts';

/**
 * "Needs attention first" on the batch page (and the candidate page's j/k over its found rows): every
 * line once, those whose certificate needs attention first, each part in the list's order.
 */
const WORDS = ['clear', 'no_match', 'consider', 'potential_match', 'unconfirmed', 'unreadable', 'match', 'something_else'];
const line = (n: number) =>
  fc.oneof(
    fc.constant<BatchLine>({ line: n, id: `id-${n}` }),
    fc.constant<BatchLine>({ line: n, id: `id-${n}`, row: { type: 'row', index: n, ok: false, code: 'not_found', message: 'No.' } }),
    fc.record({ certificate: fc.option(fc.constantFrom(...WORDS), { nil: undefined }), known: fc.boolean() }).map(
      ({ certificate, known }): BatchLine => ({
        line: n,
        id: `id-${n}`,
        row: {
          type: 'row',
          index: n,
          ok: true,
          status: 'waiting',
          refId: `id-${n}`,
          triage: known ? { known, ...(certificate ? { certificate } : {}) } : { known: false },
        },
      }),
    ),
  );
const lines = fc.integer({ min: 0, max: 30 }).chain((count) => fc.tuple(...Array.from({ length: count }, (_, n) => line(n + 1))));

describe('needs attention first', () => {
  it('property: a stable order, every line once, the lines needing attention (as the queue reads the word) first', () => {
    fc.assert(
      fc.property(lines, fc.boolean(), (all, first) => {
        const order = linesOrder(all, first);
        expect([...order].sort((a, b) => a - b)).toEqual(all.map((_, index) => index));
        if (!first) {
          expect(order).toEqual(all.map((_, index) => index));
          return;
        }
        const flags = order.map((index) => lineNeedsAttention(all[index]!));
        // Attention first, then the rest: no line needing attention after one that does not.
        expect(flags.indexOf(false) === -1 || flags.lastIndexOf(true) < flags.indexOf(false)).toBe(true);
        for (const part of [true, false]) {
          const places = order.filter((index) => lineNeedsAttention(all[index]!) === part);
          expect(places).toEqual([...places].sort((a, b) => a - b));
        }
        for (const index of order) {
          const row = all[index]!.row;
          expect(lineNeedsAttention(all[index]!)).toBe(row?.ok === true && needsAttention(row.triage?.certificate));
        }
      }),
    );
  });

  it('property: the CSV has the triage columns at the end (before the date doubt column) exactly when a found row carries triage, one cell each', () => {
    fc.assert(
      fc.property(lines, (all) => {
        const csv = batchCsv(all, 'refId')
          .replace(/^\ufeff/, '')
          .trimEnd()
          .split('\r\n');
        const triage = all.some((one) => one.row?.ok === true && one.row.triage !== undefined);
        expect(csv[0]).toBe([...BATCH_COLUMNS, ...(triage ? TRIAGE_COLUMNS : []), ...DOUBT_COLUMNS].join(','));
        for (const row of csv.slice(1))
          expect(row.split(',').length).toBe(BATCH_COLUMNS.length + (triage ? TRIAGE_COLUMNS.length : 0) + DOUBT_COLUMNS.length);
      }),
    );
  });
});
