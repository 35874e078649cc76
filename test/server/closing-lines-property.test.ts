import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuditRow } from '../../src/kyc/contract/audit-search.ts';
import { searchFiles } from '../../src/server/trail/audit-file-search.ts';

/**
 * One row per full lookup, from the files, page after page: a request's closing line (what its answer
 * held, or its cut line) is read onto its lookup's row, whichever lines of other requests come between
 * them and wherever a page ends (trail/closing-lines.ts), and never stands as a row of its own.
 */

const dir = mkdtempSync(path.join(tmpdir(), 'closing-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Ending = 'held' | 'cut' | 'none';

function lineOf(lookup: number, which: 'first' | Ending, at: number): string {
  const base = { prev: 'x', time: new Date(Date.UTC(2026, 10, 30, 12, 0, at)).toISOString(), requestId: `req-${lookup}` };
  const who = { user: 'ana', role: 'compliance', env: 'default', kind: 'refId', id: `cand-${lookup}`, upstreamStatus: 200, level: 'full' };
  if (which === 'first') return JSON.stringify({ ...base, ...who, status: 200, code: null, heldLine: true, durationMs: 1 });
  if (which === 'cut') return JSON.stringify({ ...base, ...who, status: 499, code: 'cancelled', cut: 'client_left', durationMs: 2 });
  return JSON.stringify({ ...base, ...who, status: 200, code: null, held: heldOf(lookup), durationMs: 2 });
}

const heldOf = (lookup: number) => ({ identities: lookup + 1, pictures: 1, pictureNames: [`picture_${lookup}`], certificates: 0 });

/** The lookups' lines: each one's first line, then later (others' lines between) its closing line or cut line, if any. */
const TRAIL = fc.array(fc.constantFrom<Ending>('held', 'held', 'cut', 'none'), { minLength: 1, maxLength: 8 }).chain((endings) =>
  fc
    .shuffledSubarray(
      endings.flatMap((_, lookup) => [lookup, lookup]),
      { minLength: endings.length * 2, maxLength: endings.length * 2 },
    )
    .map((order) => ({ endings, order })),
);

async function allRows(file: string, limit: number): Promise<AuditRow[]> {
  const rows: AuditRow[] = [];
  let cursor: string | undefined;
  do {
    const page = await searchFiles(file, 'vm', {}, { limit, ...(cursor ? { cursor } : {}) });
    rows.push(...page.rows);
    cursor = page.next;
  } while (cursor);
  return rows;
}

describe('closing lines read onto their lookups, from the files', () => {
  it('property: each lookup is one row, with what its own closing line says, at any page size', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(TRAIL, fc.integer({ min: 1, max: 4 }), async ({ endings, order }, limit) => {
        const seen = new Set<number>();
        const lines: string[] = [];
        const firsts: number[] = [];
        for (const [at, lookup] of order.entries()) {
          const first = !seen.has(lookup);
          seen.add(lookup);
          if (first) firsts.push(lookup);
          if (first) lines.push(lineOf(lookup, 'first', at));
          else if (endings[lookup] !== 'none') lines.push(lineOf(lookup, endings[lookup]!, at));
        }
        const file = path.join(dir, `audit-${run++}.jsonl`);
        writeFileSync(file, `${lines.join('\n')}\n`);
        const rows = (await allRows(file, limit)).filter((row) => row.action === 'lookup');
        // Newest first, each lookup once.
        expect(rows.map((row) => row.requestId)).toEqual(firsts.reverse().map((lookup) => `req-${lookup}`));
        for (const row of rows) {
          const lookup = Number(row.requestId!.slice(4));
          expect(row.held).toEqual(endings[lookup] === 'held' ? heldOf(lookup) : undefined);
          expect(row.heldCut).toBe(endings[lookup] === 'cut' ? true : undefined);
        }
      }),
      { numRuns: 60 },
    );
  });
});
