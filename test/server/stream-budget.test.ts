import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStreamBudget } from '../../src/server/live/stream-budget.ts';

/** What the event streams hold unsent together: past the budget, the furthest behind are cut first. */
describe("the event streams' budget", () => {
  it('cuts the stream furthest behind once the total passes the budget, and only as many as bring it under', () => {
    const budget = createStreamBudget<string>(1000);
    expect(budget.note('a', 400)).toEqual([]);
    expect(budget.note('b', 300)).toEqual([]);
    expect(budget.note('reading', 0)).toEqual([]);
    // 1,200 held: c, furthest behind, is cut; a and b stay.
    expect(budget.note('c', 500)).toEqual(['c']);
    expect(budget.total).toBe(700);
    expect(budget.note('b', 900)).toEqual(['b']);
    expect(budget.total).toBe(400);
    // A stream that drained holds nothing; one that ended is no longer counted.
    budget.note('a', 0);
    budget.forget('c');
    expect(budget.total).toBe(0);
  });

  it('property: after every note, what is held is within the budget, every stream cut held at least as much as any kept, and the total is the sum of what was last noted of those kept', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5000 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 3000 }), fc.boolean()), { maxLength: 80 }),
        (max, steps) => {
          const budget = createStreamBudget<number>(max);
          const kept = new Map<number, number>();
          for (const [stream, unsent, ended] of steps) {
            if (ended) {
              budget.forget(stream);
              kept.delete(stream);
              continue;
            }
            kept.set(stream, unsent);
            const cut = budget.note(stream, unsent);
            const cutHeld = cut.map((one) => kept.get(one)!);
            for (const one of cut) kept.delete(one);
            const left = [...kept.values()];
            expect(budget.total).toBe(left.reduce((sum, bytes) => sum + bytes, 0));
            expect(budget.total).toBeLessThanOrEqual(max);
            for (const bytes of cutHeld) expect(bytes).toBeGreaterThanOrEqual(Math.max(0, ...left));
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
