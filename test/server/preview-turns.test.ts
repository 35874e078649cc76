import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PICTURES_AT_ONCE } from '../../src/kyc/contract/picture-parts.ts';
import { createPartsBudget } from '../../src/server/answer/parts-budget.ts';
import { LookupPreviews } from '../../src/server/answer/parts-writer.ts';
import { PREVIEW_LIMITS } from '../../src/server/answer/picture-preview.ts';
import { PreviewPool } from '../../src/server/answer/preview-pool.ts';
import { PreviewSlots } from '../../src/server/answer/preview-slots.ts';
import { noiseJpeg } from './preview-pictures.ts';

/**
 * The preview processes' turns among lookups (red team): one record of many large pictures held the one
 * preview process, and another user's one picture waited behind all of them (Ana's lookup, 0.26 s alone,
 * took 11.7 s beside one lookup of 60 such pictures and 49.4 s beside two of 100). A lookup now has at
 * most PICTURES_AT_ONCE previews, the pool's turns go round the lookups waiting, one picture each, and a
 * lookup waits at most `waitMs` for its previews before its pictures follow without them.
 */

const picture = (bytes: Buffer, n: number) => ({
  reference: { part: `picture-${n}@b`, type: 'image/jpeg', size: bytes.length },
  contentType: 'image/jpeg',
  chunks: [bytes],
});

describe('the preview turns among lookups', () => {
  it("attack: one lookup of 100 large pictures does not hold another lookup's one picture behind it", async () => {
    const pool = new PreviewPool(1);
    const budget = createPartsBudget(1024 * 1024 * 1024);
    // Every picture counts as large here; the wait is long enough never to be reached.
    const making = { limits: { ...PREVIEW_LIMITS, thresholdBytes: 0, waitMs: 600_000 }, slots: new PreviewSlots(4), pool };
    const bytes = await noiseJpeg(64, 48);
    try {
      const hostile = new LookupPreviews(budget.hold('mallory'), making);
      const other = new LookupPreviews(budget.hold('ana'), making);
      // The pool's turns, in the order they end: with one process, the order they were given.
      const turns: string[] = [];
      const made = (previews: LookupPreviews, who: string, one: ReturnType<typeof picture>) =>
        previews.of(one).then((preview) => {
          if (preview) turns.push(who);
        });
      const many = Array.from({ length: 100 }, (_, n) => picture(bytes, n + 1));
      for (const one of many) hostile.add(one);
      hostile.close();
      const mine = picture(bytes, 1);
      other.add(mine);
      other.close();
      await Promise.all([...many.map((one) => made(hostile, 'mallory', one)), made(other, 'ana', mine)]);
      // Ana's picture is made within the first turns, not after Mallory's hundred.
      expect(turns.indexOf('ana')).toBeGreaterThanOrEqual(0);
      expect(turns.indexOf('ana')).toBeLessThanOrEqual(2);
      // Mallory's lookup has previews of the page's first cards only.
      expect(turns.filter((who) => who === 'mallory')).toHaveLength(PICTURES_AT_ONCE);
      expect(pool.inUse).toBe(0);
      expect(making.slots.inUse).toBe(0);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('a lookup waits for its previews at most its wait: past it, the pictures follow without them, and none not begun is made', async () => {
    const pool = new PreviewPool(1);
    let runs = 0;
    const run = pool.run.bind(pool);
    pool.run = (...args) => {
      runs++;
      return run(...args);
    };
    const slots = new PreviewSlots(1);
    const holding = createPartsBudget(100 * 1024 * 1024).hold();
    const previews = new LookupPreviews(holding, { limits: { ...PREVIEW_LIMITS, thresholdBytes: 0, waitMs: 50 }, slots, pool });
    // Every lookup slot is taken (other lookups' previews): this lookup's wait for them.
    const busy = await slots.take();
    try {
      const pictures = [picture(await noiseJpeg(64, 48), 1), picture(await noiseJpeg(64, 48), 2)];
      for (const one of pictures) previews.add(one);
      previews.close();
      for (const one of pictures) expect(await previews.of(one)).toBeUndefined();
      busy();
      // The slot came round once the wait was over: nothing was made, and the slot is given back.
      await new Promise((resolve) => setImmediate(resolve));
      expect(runs).toBe(0);
      expect(slots.inUse).toBe(0);
    } finally {
      busy();
      previews.abandon();
      holding.release();
      await pool.close();
    }
  });
});

type Step = { ask: number } | { done: number };

describe('the preview slots, shared among owners', () => {
  it('go round the owners waiting, one turn each: never more than the slots at once, every take served once', async () => {
    const steps = fc.array(fc.oneof(fc.record({ ask: fc.integer({ min: 0, max: 3 }) }), fc.record({ done: fc.nat(20) })), {
      minLength: 1,
      maxLength: 60,
    });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 3 }), steps, async (count, script: Step[]) => {
        const slots = new PreviewSlots(count);
        const owners = [{}, {}, {}, {}];
        const holding: Array<() => void> = [];
        // Per owner, the takes asked for and not yet served; per waiting owner, the turns each other owner had since its last.
        const asked = [0, 0, 0, 0];
        const since = owners.map(() => [0, 0, 0, 0]);
        const unfair: string[] = [];
        let served = 0;
        let most = 0;
        const flush = () => new Promise((resolve) => setImmediate(resolve));
        const ask = (who: number) =>
          void slots.take(owners[who]!).then((release) => {
            asked[who]!--;
            served++;
            since[who] = [0, 0, 0, 0];
            for (const [other, line] of since.entries()) {
              if (other === who || asked[other] === 0) continue;
              line[who]!++;
              if (line[who]! > 1) unfair.push(`owner ${who} took two turns while owner ${other} waited`);
            }
            holding.push(release);
            most = Math.max(most, slots.inUse);
          });
        for (const step of script) {
          if ('ask' in step) {
            asked[step.ask]!++;
            ask(step.ask);
          } else if (holding.length) holding.splice(step.done % holding.length, 1)[0]!();
          await flush();
        }
        const total = script.filter((step) => 'ask' in step).length;
        while (holding.length) {
          holding.shift()!();
          await flush();
        }
        expect(unfair).toEqual([]);
        expect(most).toBeLessThanOrEqual(count);
        expect(served).toBe(total);
        expect(slots.inUse).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});
