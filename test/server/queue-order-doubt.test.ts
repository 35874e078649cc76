import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readView } from '../../src/server/lookup/queue-view.ts';
import { createQueueIndex } from '../../src/server/state/queue-index.ts';
import { createMemoryQueueIndexStore } from '../../src/server/state/queue-index-store.ts';

/**
 * The queue's order line counts the rows without a real date apart by why: a record with none (or a
 * placeholder) and one dated in the future are not dates still to be looked up.
 */

const NOW = Date.now();
type Kind = 'real' | 'dateless' | 'placeholder' | 'future' | 'pending';

async function orderOf(kinds: readonly Kind[]) {
  const index = createQueueIndex(createMemoryQueueIndexStore());
  for (const [i, kind] of kinds.entries()) {
    const ids = { recordId: `r${i}`, status: 'waiting' };
    if (kind === 'pending') await index.learnListed('e', [ids], { listedAt: NOW, position: i });
    else if (kind === 'dateless') await index.learnRecord('e', { ...ids, dateless: true });
    else {
      const since = { real: NOW - (i + 1) * 60_000, placeholder: i, future: Date.parse('2999-01-01') + i }[kind];
      await index.learnRecord('e', { ...ids, since });
    }
  }
  const view = await readView(index.store, 'e', {
    query: { status: 'waiting', skip: 0, limit: 100 },
    slaHours: 48,
    now: NOW,
    compliance: false,
  });
  if (!view.ok) throw new Error('no view');
  return view.data.order;
}

describe("the queue's order and the rows without a real date", () => {
  it('counts 2 with no date in the record and 1 placeholder apart from the 1 dated in the future and from none looked up', async () => {
    const order = await orderOf(['real', 'real', 'real', 'real', 'real', 'dateless', 'dateless', 'placeholder', 'future']);
    expect(order).toMatchObject({ by: 'age', known: 5, of: 9, noDate: 3, future: 1 });
  });

  it('property: known, no date, future and still to be looked up are the rows of each kind, and add up to the tab', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<Kind>('real', 'dateless', 'placeholder', 'future', 'pending'), { maxLength: 12 }),
        async (kinds) => {
          const order = await orderOf(kinds);
          if (order?.by !== 'age') throw new Error('not by age');
          const count = (...of: Kind[]) => kinds.filter((kind) => of.includes(kind)).length;
          expect(order.known).toBe(count('real'));
          expect(order.noDate ?? 0).toBe(count('dateless', 'placeholder'));
          expect(order.future ?? 0).toBe(count('future'));
          expect(order.of - order.known - (order.noDate ?? 0) - (order.future ?? 0)).toBe(count('pending'));
        },
      ),
      { numRuns: 60 },
    );
  });
});
