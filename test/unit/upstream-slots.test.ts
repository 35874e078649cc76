import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createUpstreamSlots } from '../../src/server/upstream/upstream-slots.ts';

describe("a user's slots for the KYC service", () => {
  it("give a single lookup the next free slot before the user's batch rows still waiting, each kind first come first served", async () => {
    const slots = createUpstreamSlots(1);
    const order: string[] = [];
    const first = (await slots.acquire('ana', 10_000))!;
    const take = (name: string, behind: boolean) =>
      slots.acquire('ana', 10_000, undefined, { behind }).then((release) => {
        order.push(name);
        release!();
      });
    const waiting = [take('row-1', true), take('row-2', true), take('single-1', false), take('row-3', true), take('single-2', false)];
    first();
    await Promise.all(waiting);
    expect(order).toEqual(['single-1', 'single-2', 'row-1', 'row-2', 'row-3']);
  });

  it('for any arrivals while the slots are held: the single lookups in their order, then the batch rows in theirs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { maxLength: 12 }), fc.integer({ min: 1, max: 3 }), async (behinds, perUser) => {
        const slots = createUpstreamSlots(perUser);
        const held = await Promise.all(Array.from({ length: perUser }, () => slots.acquire('ana', 10_000)));
        const order: number[] = [];
        const waiting = behinds.map((behind, index) =>
          slots.acquire('ana', 10_000, undefined, { behind }).then((release) => {
            order.push(index);
            release!();
          }),
        );
        for (const release of held) release!();
        await Promise.all(waiting);
        const indexes = behinds.map((_, index) => index);
        expect(order).toEqual([...indexes.filter((i) => !behinds[i]), ...indexes.filter((i) => behinds[i])]);
      }),
    );
  });

  it("keep another user's turn apart", async () => {
    const slots = createUpstreamSlots(1);
    const held = (await slots.acquire('ana', 10_000))!;
    const other = await slots.acquire('tess', 10_000, undefined, { behind: true });
    expect(other).toBeDefined();
    other!();
    held();
  });
});
