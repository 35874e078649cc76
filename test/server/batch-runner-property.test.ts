import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type OneResult, runBatch } from '../../src/server/lookup/batch-runner.ts';

/**
 * A batch through a service that answers its first `answered` requests, then 429 to every request for
 * `lastsMs` (stating `stated` seconds, or no wait), on a clock whose sleeps take no time. As the upstream
 * client does, a stated wait is the environment's: a lookup started during it sends nothing and is refused
 * here ("nothing was sent"), which is no request to the service.
 */
async function limitedRun(spell: {
  answered: number;
  lastsMs: number;
  stated?: number;
  count: number;
  concurrency: number;
  ticks: number[];
}) {
  let now = 0;
  let pausedUntil = 0;
  let since: number | undefined;
  let sent = 0;
  let underWay = 0;
  let firstAnswered: number | undefined;
  let spellOver = false;
  // Since when the service has answered only 429s: the batch's bound counts from there.
  let limitedFrom: number | undefined;
  const broken: string[] = [];
  const results = new Map<number, OneResult<string>>();
  const stops: number[] = [];
  await runBatch<string>({
    count: spell.count,
    concurrency: spell.concurrency,
    signal: new AbortController().signal,
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
    servicePausedUntil: () => pausedUntil,
    onResult: (index, result) => results.set(index, result),
    onWait: () => {},
    onStop: (_result, inARow) => stops.push(inARow),
    lookup: async (index) => {
      if (pausedUntil > now) {
        const left = Math.ceil((pausedUntil - now) / 1000);
        return { ok: false, code: 'upstream_rate_limited', message: 'nothing was sent', retryAfterSeconds: left };
      }
      // Once a pause followed the service's first 429, and until it answers again, one request at a time
      // (those started before the 429 was answered are sent at its time: the clock moves only in a pause).
      const sequential = firstAnswered !== undefined && now > firstAnswered && !spellOver;
      if (sequential && underWay > 0) broken.push(`request ${sent + 1} sent with ${underWay} under way at ${now}`);
      sent++;
      underWay++;
      for (let i = 0; i < (spell.ticks[(index + sent) % spell.ticks.length] ?? 0); i++) await new Promise(setImmediate);
      underWay--;
      if (sent > spell.answered) since ??= now;
      if (since === undefined || now - since >= spell.lastsMs) {
        if (since !== undefined) spellOver = true;
        limitedFrom = undefined;
        return { ok: true, row: `row ${index}` };
      }
      firstAnswered ??= now;
      limitedFrom ??= now;
      if (spell.stated !== undefined) pausedUntil = Math.max(pausedUntil, now + spell.stated * 1000);
      return {
        ok: false,
        code: 'upstream_rate_limited',
        message: '429',
        ...(spell.stated === undefined ? {} : { retryAfterSeconds: spell.stated }),
      };
    },
  });
  return { results, stops, broken, sent, elapsed: now, limitedFor: now - (limitedFrom ?? now) };
}

const spells = fc.record({
  answered: fc.integer({ min: 0, max: 30 }),
  lastsMs: fc.integer({ min: 0, max: 120_000 }),
  stated: fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
  count: fc.integer({ min: 1, max: 40 }),
  concurrency: fc.integer({ min: 1, max: 8 }),
  ticks: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 6 }),
});

describe('a batch under the service’s 429 (property)', () => {
  it('finds every row through any limit shorter than its bound, asks one request at a time once limited, and counts no unsent refusal as a try', async () => {
    await fc.assert(
      fc.asyncProperty(spells, async (spell) => {
        const run = await limitedRun(spell);
        expect(run.broken).toEqual([]);
        expect(run.stops).toEqual([]);
        expect(run.results.size).toBe(spell.count);
        expect([...run.results.values()].every((result) => result.ok)).toBe(true);
        // No hammering: past the lookups under way when it began, one 429 per pause, pauses of at least 1 s (or the stated wait).
        const pauses = Math.floor(spell.lastsMs / ((spell.stated ?? 1) * 1000)) + 1;
        expect(run.sent - spell.count).toBeLessThanOrEqual(spell.concurrency + pauses);
      }),
      { numRuns: 150 },
    );
  });

  it('stops, the row failing with the 429, once the service limited the batch for 300 s without a break, whatever its wait', async () => {
    await fc.assert(
      fc.asyncProperty(spells, async (spell) => {
        const run = await limitedRun({ ...spell, lastsMs: Number.POSITIVE_INFINITY, answered: Math.min(spell.answered, spell.count - 1) });
        expect(run.broken).toEqual([]);
        expect(run.stops).toHaveLength(1);
        const failed = [...run.results.values()].filter((result) => !result.ok);
        expect(failed.length).toBeGreaterThan(0);
        expect(failed.every((result) => !result.ok && result.code === 'upstream_rate_limited')).toBe(true);
        // From the first 429 after the last answer, as the batch reads them (an answer that ends under way with the first 429 may count after it: one pause more).
        expect(run.limitedFor).toBeLessThanOrEqual(300_000 + (spell.stated ?? 1) * 1000);
        expect(run.limitedFor).toBeGreaterThan(300_000 - 2 ** 8 * 1000);
      }),
      { numRuns: 100 },
    );
  });
});
