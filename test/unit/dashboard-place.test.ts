import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candidateIdsOf, dashboardPlace } from '../../src/app/candidate/dashboard-place.ts';

const lookups = fc.constantFrom('loading' as const, 'shown' as const, 'failed' as const);

describe("where the candidate page puts the KYC service's dashboard link", () => {
  it('on the bar with a list, or after a failed lookup; else beside Print once the record is shown; nowhere while it loads', () => {
    fc.assert(
      fc.property(fc.boolean(), lookups, (listed, lookup) => {
        const place = dashboardPlace(listed, lookup);
        // A list's bar keeps it beside Back, Previous and Next; a failed lookup has no hand-off row, and the dashboard is the way on.
        if (listed || lookup === 'failed') expect(place).toBe('bar');
        // Opened by a link or the search box: in the hand-off row, never a bar of its own for that one link (UX review).
        else if (lookup === 'shown') expect(place).toBe('row');
        else expect(place).toBeUndefined();
        // A shown record always has the link somewhere (one place: the bar and the row are told apart by the one answer).
        if (lookup === 'shown') expect(place).toBeDefined();
      }),
    );
  });

  it("uses the record's ids once it is in, else the id looked up as its kind", () => {
    fc.assert(
      fc.property(
        fc.constantFrom('refId' as const, 'recordId' as const),
        fc.string({ minLength: 1 }),
        fc.option(
          fc.record({
            refId: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
            recordId: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
          }),
          { nil: undefined },
        ),
        (kind, id, ids) => {
          const got = candidateIdsOf(kind, id, ids);
          expect(got.refId).toBe(ids?.refId ?? (kind === 'refId' ? id : undefined));
          expect(got.recordId).toBe(ids?.recordId ?? (kind === 'recordId' ? id : undefined));
        },
      ),
    );
  });
});
