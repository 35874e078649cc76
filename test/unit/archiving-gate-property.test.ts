import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGate, FREE, type HeldBack, type Hold } from '../../src/server/archiving/archiving-gate.ts';
import { ApiFailure } from '../../src/server/http/api-failure.ts';

/**
 * The gate that holds full lookups one at a time until the key is known not to archive after extract
 * (archiving-gate.ts), on a virtual clock: whatever the arrivals, waits and checks' ends, one check at a
 * time; no lookup waits past its budget; and a check the service fails is told to every lookup waiting
 * behind it (before: they were told "still checking", or sent into the same silence once their turn came).
 */

afterEach(() => {
  vi.useRealTimers();
});

const TIMEOUT = new ApiFailure('upstream_timeout', 'The KYC service did not answer within 1 s.');
const NOT_FOUND = new ApiFailure('not_found', 'No candidate with refId "x".');

type Step =
  | { kind: 'arrive'; waitMs: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'answering' }
  | { kind: 'end'; how: 'timeout' | 'not_found' | 'absent' | 'opened' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('arrive' as const), waitMs: fc.integer({ min: 0, max: 3000 }) }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 2000 }) }),
  fc.record({ kind: fc.constant('answering' as const) }),
  fc.record({ kind: fc.constant('end' as const), how: fc.constantFrom('timeout', 'not_found', 'absent', 'opened') }),
);

interface Entry {
  until: number;
  told?: { at: number; outcome: Hold | HeldBack | 'gone' };
}

const isHold = (outcome: Hold | HeldBack | 'gone'): outcome is Hold => typeof outcome === 'object' && 'done' in outcome;

describe('the archiving gate (property)', () => {
  it('one check at a time, no wait past its budget, and a check failed by the service told to all waiting behind it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
        vi.useFakeTimers({ now: 1_000_000 });
        const gate = createGate(() => Date.now());
        const entries: Entry[] = [];
        // Holds let through that have not ended yet (a FREE one holds nothing).
        const live: Hold[] = [];
        const flush = () => vi.advanceTimersByTimeAsync(0);
        for (const next of steps) {
          if (next.kind === 'arrive') {
            const entry: Entry = { until: Date.now() + next.waitMs };
            entries.push(entry);
            void gate.enter({ since: Date.now(), until: entry.until }).then((outcome) => {
              entry.told = { at: Date.now(), outcome };
              if (isHold(outcome) && outcome !== FREE) live.push(outcome);
            });
          } else if (next.kind === 'advance') await vi.advanceTimersByTimeAsync(next.ms);
          else if (next.kind === 'answering') live[0]?.answering();
          else {
            const hold = live.shift();
            const waiting = entries.filter((entry) => !entry.told);
            if (next.how === 'timeout') hold?.done({ opened: false, failure: TIMEOUT });
            else if (next.how === 'not_found') hold?.done({ opened: false, failure: NOT_FOUND });
            else hold?.done({ opened: next.how === 'opened' });
            await flush();
            // Every lookup waiting behind a check the service failed is told its failure, at once.
            if (hold && next.how === 'timeout' && !gate.isOpen()) {
              for (const entry of waiting) expect(entry.told?.outcome).toEqual({ failure: TIMEOUT, waited: false });
            }
          }
          await flush();
          // One check at a time, until the gate is open.
          if (!gate.isOpen()) expect(live.length).toBeLessThanOrEqual(1);
        }
        await vi.advanceTimersByTimeAsync(3001);
        for (const entry of entries) {
          // Told by the end of its budget, whatever held it.
          expect(entry.told).toBeDefined();
          expect(entry.told!.at).toBeLessThanOrEqual(entry.until);
        }
        vi.useRealTimers();
      }),
      { numRuns: 200 },
    );
  });
});
