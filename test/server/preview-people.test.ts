import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createPartsBudget } from '../../src/server/answer/parts-budget.ts';
import { instancePreviews, LookupPreviews } from '../../src/server/answer/parts-writer.ts';
import { PREVIEW_LIMITS } from '../../src/server/answer/picture-preview.ts';
import { type Preview, PreviewPool } from '../../src/server/answer/preview-pool.ts';
import { lookupSlots } from '../../src/server/answer/preview-slots.ts';
import { noiseJpeg } from './preview-pictures.ts';

/**
 * The instance's preview slots among people (red team): a lookup answered in parts holds one of the
 * four slots until its previews are made or its wait is over, and the slots were served first come,
 * first served, one lookup each. One user's four lookups of records of slow-to-preview pictures took all
 * four, and another user's previews waited their full wait (3.8 s). A lookup's slot is now taken in the
 * name of the person it is for: the turns go round people, and the last free slot is kept for a person
 * holding fewer than half of them (state/fair-turns.ts, `keepLast`), so another person finds it free.
 */

/** The instance's preview making (its four slots), with a pool whose pictures are made only when the test says. */
async function slowPreviews() {
  const pool = new PreviewPool(1);
  const whose = new Map<object, string>();
  // Who each picture begun is for, in the order they were begun; and their ends, still to come.
  const begun: string[] = [];
  const ends: Array<{ who: string; end: () => void }> = [];
  pool.run = (_job, turn) =>
    new Promise<Preview>((resolve) => {
      const who = whose.get(turn!.lookup) ?? 'nobody';
      begun.push(who);
      ends.push({ who, end: () => resolve({ ok: false, problem: 'made slowly' }) });
    });
  // Every picture counts as large here; the wait is long enough never to be reached.
  const making = { ...instancePreviews(4)!, limits: { ...PREVIEW_LIMITS, thresholdBytes: 0, waitMs: 600_000 }, pool };
  const budget = createPartsBudget(1024 * 1024 * 1024);
  const bytes = await noiseJpeg(16, 16);
  /** A lookup of one large picture for `who` (a person's rate-limit key; undefined: none named). */
  const open = (who: string | undefined, name = who ?? 'nobody') => {
    const previews = new LookupPreviews(budget.hold(who), making, who);
    whose.set(previews, name);
    const picture = {
      reference: { part: 'picture-1@b', type: 'image/jpeg', size: bytes.length },
      contentType: 'image/jpeg',
      chunks: [bytes],
    };
    previews.add(picture);
    previews.close();
  };
  /** The first picture begun for `who` and not yet made is made. */
  const finish = (who: string) => {
    const at = ends.findIndex((one) => one.who === who);
    ends.splice(at, 1)[0]!.end();
  };
  return { making, begun, ends, open, finish };
}

const settle = async () => {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
};

describe('the preview slots among people', () => {
  it("attack: one user's four lookups of slow pictures hold another user's previews behind them", async () => {
    const { making, begun, ends, open, finish } = await slowPreviews();
    for (let n = 0; n < 4; n++) open('user:mallory');
    await settle();
    open('user:ana');
    await settle();
    // Ana's picture is begun while every one of Mallory's is still being made: the last slot was kept for her.
    expect(begun).toEqual(['user:mallory', 'user:mallory', 'user:mallory', 'user:ana']);
    expect(ends.map((one) => one.who)).toEqual(begun);
    // Holding half the slots, Mallory leaves the last free one to the others; once Ana's are made, her fourth begins.
    finish('user:mallory');
    await settle();
    expect(begun).toHaveLength(4);
    finish('user:ana');
    await settle();
    expect(begun.at(-1)).toBe('user:mallory');
    while (ends.length) {
      ends.shift()!.end();
      await settle();
    }
    expect(making.slots.inUse).toBe(0);
  });

  it("one user's lookups waiting for a slot take one turn a round: another user's lookup does not wait behind them", async () => {
    const { making, begun, ends, open, finish } = await slowPreviews();
    for (let n = 0; n < 6; n++) open('user:mallory');
    await settle();
    open('user:ana');
    open('user:bob');
    await settle();
    expect(begun).toEqual(['user:mallory', 'user:mallory', 'user:mallory', 'user:ana']);
    // A slot given back goes to Bob, who holds none, before Mallory's three lookups that came before him.
    finish('user:mallory');
    await settle();
    expect(begun.at(-1)).toBe('user:bob');
    // Then to Mallory again, once she holds fewer than half.
    finish('user:mallory');
    await settle();
    expect(begun.at(-1)).toBe('user:mallory');
    while (ends.length) {
      ends.shift()!.end();
      await settle();
    }
    expect(begun.filter((who) => who === 'user:mallory')).toHaveLength(6);
    expect(making.slots.inUse).toBe(0);
  });

  it('lookups that name no person are served as before: each its own owner, first come, first served', async () => {
    const { making, begun, ends, open } = await slowPreviews();
    for (let n = 0; n < 5; n++) open(undefined, `lookup ${n}`);
    await settle();
    expect(begun).toEqual(['lookup 0', 'lookup 1', 'lookup 2', 'lookup 3']);
    ends.shift()!.end();
    await settle();
    expect(begun.at(-1)).toBe('lookup 4');
    while (ends.length) {
      ends.shift()!.end();
      await settle();
    }
    expect(making.slots.inUse).toBe(0);
  });
});

type Step = { ask: number } | { done: number };

// Owners 0 to 3 are people; 4 names no one (each such take its own owner).
const steps = fc.array(fc.oneof(fc.record({ ask: fc.integer({ min: 0, max: 4 }) }), fc.record({ done: fc.nat(20) })), {
  minLength: 1,
  maxLength: 60,
});

describe('the lookup slots, shared among people', () => {
  it('with people waiting, no one holding half the slots or more takes a turn from one holding fewer, nor the last free slot', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 5 }), steps, async (count, script: Step[]) => {
        const slots = lookupSlots(count);
        const people = ['ana', 'bob', 'eve', 'mallory', undefined];
        // Per owner, the slots held and the takes asked for and not yet served (the unnamed ones together).
        const holds = [0, 0, 0, 0, 0];
        const asked = [0, 0, 0, 0, 0];
        const heavy = (who: number) => who < 4 && holds[who]! >= count / 2;
        const holding: Array<{ who: number; release: () => void }> = [];
        const unfair: string[] = [];
        let served = 0;
        const ask = (who: number) =>
          void slots.take(people[who]).then((release) => {
            asked[who]!--;
            served++;
            const light = asked.flatMap((waits, other) => (waits > 0 && other !== who && !heavy(other) ? [other] : []));
            if (heavy(who) && light.length) unfair.push(`owner ${who}, holding ${holds[who]}, took a turn while ${light} waited`);
            holds[who]!++;
            if (who < 4 && count > 1 && holds[who] === count) unfair.push(`owner ${who} holds all ${count} slots`);
            holding.push({ who, release });
          });
        const flush = () => new Promise((resolve) => setImmediate(resolve));
        for (const step of script) {
          if ('ask' in step) {
            asked[step.ask]!++;
            ask(step.ask);
          } else if (holding.length) {
            const { who, release } = holding.splice(step.done % holding.length, 1)[0]!;
            holds[who]!--;
            release();
          }
          await flush();
          // A slot stays free only while everyone waiting holds half the slots or more; and only the last.
          const waiting = asked.some((waits) => waits > 0);
          if (waiting && slots.inUse < count) {
            const light = asked.flatMap((waits, who) => (waits > 0 && !heavy(who) ? [who] : []));
            if (light.length || slots.inUse < count - 1) unfair.push(`${count - slots.inUse} slots free while ${light} waited`);
          }
        }
        const total = script.filter((step) => 'ask' in step).length;
        while (holding.length) {
          const { who, release } = holding.shift()!;
          holds[who]!--;
          release();
          await flush();
        }
        expect(unfair).toEqual([]);
        expect(served).toBe(total);
        expect(slots.inUse).toBe(0);
        expect(slots.waiting).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});
