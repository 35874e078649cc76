import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/state/postgres.ts';
import { createAuditIndexer } from '../../src/server/trail/audit-indexer.ts';

/**
 * How far behind the table is, said while the database has not answered since this server started
 * (audit-indexer.ts): where indexing stood is then unknown, so the lines written before the start may be
 * missing as well as those written since. The lag must never read as an exact count below what may be
 * missing (the compliance lead's review: "1 line" where 2 were, the older from before a restart).
 */

const line = (i: number) =>
  `${JSON.stringify({ time: new Date(Date.UTC(2026, 10, 30, 9, 0, i)).toISOString(), kind: 'lookup', user: 'ana' })}\n`;
const down = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));

describe("the indexer's lag while the database has not answered since the start", () => {
  it('property: it is an exact count of every line not in the table, or says "at least" and that the lines before the start are uncounted', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 }), async (before, after) => {
        const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-lag-'));
        const file = path.join(dir, 'audit.jsonl');
        writeFileSync(file, Array.from({ length: before }, (_, i) => line(i)).join(''));
        // Its pool is never reached: the schema step before each pass fails as an unreachable database does.
        const indexer = createAuditIndexer({} as Database, { file, instance: 'app1', retentionDays: 365, before: down });
        try {
          await indexer.lag();
          for (let i = 0; i < after; i++) appendFileSync(file, line(before + i));
          await indexer.syncNow().catch(() => {});
          const lag = await indexer.lag();
          expect(lag.problem).toMatch(/ECONNREFUSED/);
          // Nothing of this file is known to be in the table: `before + after` lines may be missing.
          if (lag.unknownBefore === undefined) expect(lag.lines).toBe(before + after);
          else {
            expect(lag.lines).toBeLessThanOrEqual(before + after);
            // The oldest line missing may be older than any counted: no time is given for it.
            expect(lag.since).toBeUndefined();
          }
        } finally {
          indexer.close();
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 30 },
    );
  });
});
