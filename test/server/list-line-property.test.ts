import type http from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { APPLICANTS_MAX_LIMIT } from '../../src/kyc/contract/applicants.ts';
import { cutText, MAX_LOGGED_ID } from '../../src/server/audit/audit-line.ts';
import { listLine } from '../../src/server/audit/audit-lines.ts';
import { anyString } from '../support/any-code-point.ts';

/**
 * A queue view's line names every row it showed, by its ids alone, whoever asked (a support user's view of
 * status-level fields as much as a compliance user's): and however hostile the ids the index learnt, the
 * line stays within what a page of them can hold, 100 rows of two ids of 256 characters, each written
 * at worst as six bytes (a lone surrogate's `\udxxx`).
 */
const call = {
  res: { headersSent: false, setHeader: () => undefined } as unknown as http.ServerResponse,
  identity: { user: 'sam', role: 'support' as const },
  started: 0,
};
/** What a line may weigh at most: every id at its worst, its `{"refId":…,"recordId":…}` around it, and the rest of the line. */
const BOUND = APPLICANTS_MAX_LIMIT * (2 * (6 * MAX_LOGGED_ID + '…'.length * 3) + 32) + 2048;

const id = fc.oneof(anyString(300), fc.constant('\ud800'.repeat(300)), fc.string({ maxLength: 20 }));
const row = fc.record({ refId: id, recordId: id }, { requiredKeys: [] }).filter((ids) => Boolean(ids.refId || ids.recordId));

describe('a queue view’s line', () => {
  it('names every row it showed, in order, by its ids cut as a lookup’s, and nothing else of it; bounded in bytes', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: APPLICANTS_MAX_LIMIT }), fc.boolean(), (rows, personalData) => {
        const line = listLine('default', call, { status: 'waiting', skip: 0, limit: 100 }, null, {
          records: rows.length,
          shown: rows.map((ids) => ({ ...ids, status: 'waiting', waitingDate: '2026-01-01T00:00:00.000Z' })),
          personalData,
        })({ status: 200, code: null, upstreamStatus: null, reached: true });
        const named = rows.map(({ refId, recordId }) => ({
          ...(refId ? { refId: cutText(refId, MAX_LOGGED_ID) } : {}),
          ...(recordId ? { recordId: cutText(recordId, MAX_LOGGED_ID) } : {}),
        }));
        expect(line.candidates ?? []).toEqual(named);
        expect(line.personalData).toBe(rows.length > 0 ? personalData : undefined);
        const written = JSON.stringify(line);
        expect(written).not.toContain('waitingDate');
        expect(Buffer.byteLength(written)).toBeLessThanOrEqual(BOUND);
      }),
      { numRuns: 40 },
    );
  });

  it('at its worst, 100 rows of two ids of 256 lone surrogates each, weighs about 310 kB, within the bound', () => {
    const worst = '\ud800'.repeat(MAX_LOGGED_ID);
    const shown = Array.from({ length: APPLICANTS_MAX_LIMIT }, () => ({ refId: worst, recordId: worst }));
    const line = listLine('default', call, { status: 'waiting', skip: 0, limit: 100 }, null, { records: 100, shown, personalData: false });
    const bytes = Buffer.byteLength(JSON.stringify(line({ status: 200, code: null, upstreamStatus: null, reached: true })));
    expect(bytes).toBeGreaterThan(300_000);
    expect(bytes).toBeLessThanOrEqual(BOUND);
  });
});
