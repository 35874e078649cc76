import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ARCHIVES_ON_EXTRACT_WITHIN_MS,
  archivesOnExtract,
  MOVED_APART_MS,
  MOVED_TOLERANCE_MS,
  movedWithLookup,
} from '../../src/kyc/contract/archiving.ts';
import { createSightings } from '../../src/server/archiving/archive-sightings.ts';

const DAY = 86_400_000;
const START = Date.parse('2026-11-29T12:00:00Z');
/** How long the service may take to read a request after it was sent, within the tolerance's margin. */
const latency = fc.integer({ min: 0, max: MOVED_TOLERANCE_MS / 2 });

describe('a key whose "archive after extract" delay is a day or more', () => {
  it('is told by two full lookups of one candidate at least MOVED_APART_MS apart, whatever its delay and the service reading late', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 400 * DAY }),
        fc.integer({ min: MOVED_APART_MS, max: 30 * DAY }),
        latency,
        latency,
        (delay, apart, late1, late2) => {
          const first = { lookupAtMs: START, dateMs: START + late1 + delay };
          const second = { lookupAtMs: START + apart, dateMs: START + apart + late2 + delay };
          expect(movedWithLookup(first, second)).toBe(true);
        },
      ),
    );
  });

  it('never reads a date that stays where it was as such a key, whenever and however often the candidate is looked up', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -400 * DAY, max: 400 * DAY }),
        fc.array(fc.integer({ min: 0, max: 30 * DAY }), { minLength: 2, maxLength: 8 }),
        (dateFromStart, lookups) => {
          const sightings = createSightings();
          const dateMs = START + dateFromStart;
          const found = [...lookups]
            .sort((a, b) => a - b)
            .map((at) => sightings.moved('refId:cust', new Date(dateMs).toISOString(), START + at));
          expect(found.every((date) => date === undefined)).toBe(true);
        },
      ),
    );
  });

  it('is not decided by lookups closer together than MOVED_APART_MS, nor by a date that moved by something else than the time between', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MOVED_APART_MS - 1 }), fc.integer({ min: 0, max: 30 * DAY }), (apart, delay) => {
        expect(
          movedWithLookup({ lookupAtMs: START, dateMs: START + delay }, { lookupAtMs: START + apart, dateMs: START + apart + delay }),
        ).toBe(false);
      }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: MOVED_APART_MS, max: 30 * DAY }),
        fc.integer({ min: MOVED_TOLERANCE_MS + 1, max: 10 * DAY }),
        fc.boolean(),
        (apart, off, later) => {
          const moved = apart + (later ? off : -off);
          expect(
            movedWithLookup({ lookupAtMs: START, dateMs: START + DAY }, { lookupAtMs: START + apart, dateMs: START + DAY + moved }),
          ).toBe(false);
        },
      ),
    );
  });

  it('is left to movedWithLookup only beyond what one answer tells: a date within a day of its lookup is told at once', () => {
    expect(archivesOnExtract(new Date(START + 10_000).toISOString(), START)).toEqual(new Date(START + 10_000));
    expect(archivesOnExtract(new Date(START + ARCHIVES_ON_EXTRACT_WITHIN_MS).toISOString(), START)).toBeUndefined();
  });

  it("keeps each candidate's own last sighting: another candidate's date, or a lookup answered late, does not stand in for it", () => {
    const sightings = createSightings();
    const at = (ms: number) => new Date(START + ms).toISOString();
    expect(sightings.moved('refId:a', at(3 * DAY), START)).toBeUndefined();
    // Another candidate, looked up a minute later, its date a minute later: not the same candidate.
    expect(sightings.moved('refId:b', at(3 * DAY + 60_000), START + 60_000)).toBeUndefined();
    // A lookup of `a` sent before the first, answered after it: does not replace the first.
    expect(sightings.moved('refId:a', at(3 * DAY - 60_000), START - 60_000)).toBeUndefined();
    expect(sightings.moved('refId:a', at(3 * DAY + 120_000), START + 120_000)).toEqual(new Date(START + 3 * DAY + 120_000));
  });
});
