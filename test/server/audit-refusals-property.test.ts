import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type RefusedEntry, createRefusalLog } from '../../src/server/audit/audit-refusals.ts';
import type { RefusalsAuditEntry } from '../../src/server/audit/audit.ts';
import { memoryAuditLog } from './memory-audit.ts';

const USERS = ['eve', 'sam'] as const;
const CODES = ['rate_limited', 'store_unavailable'] as const;

/** A refused lookup, or a batch's invalid ids counted in one line (batch.ts). */
const refusal = fc.oneof(
  fc.record({ user: fc.constantFrom(...USERS), code: fc.constantFrom(...CODES) }).map(
    ({ user, code }): RefusedEntry => ({
      time: new Date().toISOString(),
      user,
      role: 'support',
      env: 'default',
      kind: 'refId',
      id: 'x',
      status: code === 'rate_limited' ? 429 : 503,
      code,
      upstreamStatus: null,
      level: null,
      durationMs: 0,
    }),
  ),
  fc.record({ user: fc.constantFrom(...USERS), count: fc.integer({ min: 1, max: 500 }) }).map(({ user, count }): RefusedEntry => {
    const time = new Date().toISOString();
    return {
      time,
      user,
      role: 'support',
      env: 'default',
      kind: 'refusals',
      batch: true,
      count,
      codes: { invalid_id: count },
      from: time,
      to: time,
    };
  }),
);

/** How many refusals of each code an entry stands for. */
const codesOf = (entry: RefusedEntry): Record<string, number> =>
  entry.kind === 'refusals' ? entry.codes : { [entry.code ?? String(entry.status)]: 1 };

function add(into: Record<string, number>, codes: Record<string, number>) {
  for (const [code, count] of Object.entries(codes)) into[code] = (into[code] ?? 0) + count;
}

describe('counted refusals (property)', () => {
  it("write at most two lines per user in an interval, and their counts add up to every refusal, batches' invalid ids included", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(refusal, { maxLength: 60 }), async (refusals) => {
        const audit = memoryAuditLog();
        const log = createRefusalLog(audit, 60_000);
        for (const entry of refusals) await log.refused(entry);
        await log.flush();
        for (const user of USERS) {
          const asked: Record<string, number> = {};
          for (const entry of refusals.filter((e) => e.user === user)) add(asked, codesOf(entry));
          const lines = audit.lines.filter((line) => 'user' in line && line.user === user) as RefusedEntry[];
          expect(lines.length).toBeLessThanOrEqual(2);
          const written: Record<string, number> = {};
          for (const line of lines) add(written, codesOf(line));
          expect(written).toEqual(asked);
          const counted = lines.slice(1) as RefusalsAuditEntry[];
          for (const line of counted) expect(line.count).toBe(Object.values(line.codes).reduce((a, b) => a + b, 0));
        }
      }),
      { numRuns: 300 },
    );
  });
});
