import type { ServerResponse } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BATCH_HANDOFFS, batchExportOf, batchExportRequestSchema, MAX_BATCH_NAMED, namedAs } from '../../src/kyc/contract/batch-handoff.ts';
import { batchExportLine } from '../../src/server/audit/audit-lines.ts';
import { readLine } from '../../src/server/trail/audit-row.ts';

/**
 * The rule a compliance lead relies on for "who took a list of which candidates": a batch's CSV or
 * copied table is recorded naming every candidate it holds that the service answered (each once, in the
 * page's order, the first 100), counting them all, and never naming an id the batch did not find; the
 * trail reads the line back as the same candidates, which a search by any of their ids finds.
 */

const line = fc.record(
  {
    id: fc.oneof(fc.constantFrom('a', 'b', 'c', 'd%/;', 'e'), fc.string({ minLength: 1, maxLength: 8 })),
    row: fc.option(
      fc.record({ ok: fc.boolean(), foundBy: fc.constantFrom('refId' as const, 'recordId' as const) }, { requiredKeys: ['ok'] }),
      {
        nil: undefined,
      },
    ),
  },
  { requiredKeys: ['id'] },
);
const kind = fc.constantFrom('refId' as const, 'recordId' as const);
const what = fc.constantFrom(...BATCH_HANDOFFS);

describe("a batch's hand-off", () => {
  it('names the distinct ids found in order, each by the kind that found it, at most 100, counts all of them, and never an id not found', () => {
    fc.assert(
      fc.property(what, kind, fc.array(line, { maxLength: 260 }), (handoff, by, lines) => {
        const request = batchExportOf(handoff, by, lines);
        const found = lines.filter((l) => l.row?.ok);
        const distinct = found.filter((l, i) => found.findIndex((other) => other.id === l.id) === i);
        const named = distinct.map((l) => ({ kind: l.row?.foundBy ?? by, id: l.id }));
        expect(request).toMatchObject({ what: handoff, kind: by, count: distinct.length });
        expect(request.ids.map((each) => namedAs(by, each))).toEqual(named.slice(0, MAX_BATCH_NAMED));
        expect(request.ids.every((each) => found.some((l) => l.id === namedAs(by, each).id))).toBe(true);
        expect(batchExportRequestSchema.safeParse(request).success).toBe(true);
      }),
    );
  });

  it("is read back from its line as the candidates it named, each found by a search's key", () => {
    fc.assert(
      fc.property(
        what,
        kind,
        fc.uniqueArray(fc.record({ kind, id: fc.string({ minLength: 1, maxLength: 300 }) }), { maxLength: 100 }),
        (handoff, by, named) => {
          const res = { headersSent: true } as unknown as ServerResponse;
          const call = { res, identity: { user: 'ana', role: 'support' as const }, started: 0 };
          const written = batchExportLine('default', call, handoff, by, named, named.length);
          const read = readLine(Buffer.from(JSON.stringify(written)), 'i');
          expect(read.row.action).toBe(handoff === 'batch_csv' ? 'save_batch' : 'copy_batch');
          expect(read.candidates).toEqual(written.candidates);
          // Each by its own kind, whatever the batch's.
          expect(read.shown).toEqual(written.candidates.map((c, i) => `${named[i]!.kind}:${c[named[i]!.kind]}`));
        },
      ),
    );
  });
});
