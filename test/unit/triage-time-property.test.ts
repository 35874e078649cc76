import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { triageOfEntry } from '../../src/server/lookup/batch-triage.ts';
import { decodeEntry, encodeEntry, type IndexEntry } from '../../src/server/state/queue-entry.ts';
import { listedEntry, recordEntry } from '../../src/server/state/queue-index.ts';

/**
 * The time the queue index learnt a candidate's triage goes where the triage goes: stored and read back,
 * kept when the list or a status-level record says the candidate again, replaced only by a newer
 * lookup's triage; and a batch row's triage says it as `asOf`, or that nothing is known.
 */

const STATUSES = ['waiting', 'inreview', 'approved'] as const;
const entry = fc.record(
  {
    refId: fc.constantFrom('cust_1', 'user-7781'),
    status: fc.constantFrom(...STATUSES),
    since: fc.integer({ min: 0, max: 2e12 }),
    certificate: fc.constantFrom('clear', 'consider', 'potential_match', 'unconfirmed', 'unreadable'),
    pictures: fc.boolean(),
    triageAt: fc.integer({ min: 0, max: 2e12 }),
  },
  { requiredKeys: ['refId', 'status'] },
) as fc.Arbitrary<IndexEntry>;

describe('the time the index learnt a triage', () => {
  it('property: it is stored and read back, and kept by the list and by status-level records; a batch row says it', () => {
    fc.assert(
      fc.property(
        entry,
        fc.constantFrom(...STATUSES),
        fc.option(fc.integer({ min: 0, max: 2e12 }), { nil: undefined }),
        (known, status, own) => {
          expect(decodeEntry(encodeEntry(known))).toEqual(known);
          const since = own === undefined ? {} : { since: new Date(own).toISOString() };
          const listed = listedEntry(known, { refId: known.refId, status, ...since }, 2e12, 0) ?? known;
          const record = recordEntry(known, { refId: known.refId, status, ...(own === undefined ? {} : { since: own }) }) ?? known;
          for (const after of [listed, record]) {
            if (after === known) continue;
            expect(after.certificate).toBe(known.certificate);
            expect(after.pictures).toBe(known.pictures);
            expect(after.triageAt).toBe(known.triageAt);
          }
          const triage = triageOfEntry(known);
          if (known.certificate === undefined && known.pictures === undefined) expect(triage).toEqual({ known: false });
          else {
            expect(triage.known).toBe(true);
            expect(triage.asOf === undefined ? undefined : Date.parse(triage.asOf)).toBe(known.triageAt);
          }
        },
      ),
    );
  });

  it("property: a newer lookup's triage replaces the word and its time together", () => {
    fc.assert(
      fc.property(entry, fc.constantFrom('clear', 'consider'), fc.integer({ min: 0, max: 2e12 }), (known, certificate, triageAt) => {
        const next = recordEntry(known, { refId: known.refId, status: known.status, certificate, pictures: true, triageAt }) ?? known;
        expect(next).toMatchObject({ certificate, pictures: true, triageAt });
      }),
    );
  });
});
