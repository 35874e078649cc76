import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuditRow } from '../../src/kyc/contract/audit-search.ts';
import { foldQueueViews } from '../../src/kyc/view/activity.ts';
import { auditRow } from '../component/audit-row.ts';

/**
 * Folding a candidate's Activity never loses or reorders a line: every line is a row or counted in one,
 * in the order of the trail, and a fold only joins lines next to each other that a reader could not tell
 * apart but by their time (the same person, role, queue tab and filters, level and answer), none of them
 * a line the chain does not vouch for, nor anything but a view of the queue.
 */
const lineArb: fc.Arbitrary<AuditRow> = fc
  .record({
    user: fc.constantFrom('ana', 'ben', null),
    action: fc.constantFrom('list', 'list', 'list', 'lookup', 'print'),
    queueTab: fc.option(fc.constantFrom('all', 'waiting'), { nil: undefined }),
    queueOnly: fc.option(fc.constantFrom<Array<'attention' | 'overSla'>>(['overSla'], []), { nil: undefined }),
    status: fc.constantFrom(200, 200, 429),
    unvouched: fc.option(fc.constant(true as const), { nil: undefined }),
  })
  .map(({ queueTab, queueOnly, unvouched, ...rest }) =>
    auditRow({
      ...rest,
      ...(queueTab === undefined ? {} : { queueTab }),
      ...(queueOnly === undefined ? {} : { queueOnly }),
      ...(unvouched === undefined ? {} : { unvouched }),
    }),
  );

const same = (a: AuditRow, b: AuditRow) =>
  a.user === b.user &&
  a.role === b.role &&
  a.queueTab === b.queueTab &&
  JSON.stringify(a.queueOnly ?? []) === JSON.stringify(b.queueOnly ?? []) &&
  a.level === b.level &&
  a.status === b.status;

describe('foldQueueViews', () => {
  it('property: every line kept in order, and only neighbouring views a reader could not tell apart folded', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 40 }), (rows) => {
        const items = foldQueueViews(rows);
        let at = 0;
        for (const item of items) {
          expect(item.row).toBe(rows[at]);
          const count = item.views?.count ?? 1;
          const run = rows.slice(at, at + count);
          expect(run).toHaveLength(count);
          if (count > 1) {
            expect(item.views?.since).toBe(run.at(-1)!.time);
            for (const line of run) {
              expect(line.action).toBe('list');
              expect(line.queueTab).toBeDefined();
              expect(line.unvouched).toBeUndefined();
              expect(line.user).not.toBeNull();
              expect(line.status).toBeLessThan(400);
              expect(same(line, item.row)).toBe(true);
            }
          }
          at += count;
        }
        expect(at).toBe(rows.length);
        // Nothing left unfolded that could have joined the row before it.
        for (let i = 1; i < items.length; i++) {
          const before = items[i - 1]!.row;
          const row = items[i]!.row;
          const foldable = (line: AuditRow) =>
            line.action === 'list' && line.queueTab !== undefined && !line.unvouched && line.user !== null && line.status! < 400;
          expect(foldable(before) && foldable(row) && same(before, row)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});
