import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../src/kyc/contract/live-events.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { confirmedEvent } from '../../src/server/live/delivery-confirm.ts';

/**
 * A delivery's event as the service's record confirms it (delivery-confirm.ts): the page open on a
 * candidate and the queue's row match events by the ids they were read with, which are the record's.
 */

const id = fc.option(fc.stringMatching(/^[0-9a-zA-Z-]{1,12}$/), { nil: undefined });

describe("a confirmed delivery's ids", () => {
  it("property: are the record's where it has them, the delivery's only where it has none", () => {
    fc.assert(
      fc.property(id, id, id, id, (saidRef, saidRecord, recordRef, recordRecord) => {
        fc.pre(Boolean(saidRef || saidRecord) && Boolean(recordRef || recordRecord));
        const live: LiveEvent = {
          environment: 'production',
          event: 'review.approved',
          refId: saidRef ?? null,
          recordId: saidRecord ?? null,
          status: 'approved',
          isArchived: false,
          at: '2026-11-29T10:00:00.000Z',
        };
        const record = { status: 'approved', refId: recordRef, recordId: recordRecord } as CandidateRecord;
        const event = confirmedEvent(live, record);
        expect(event).toMatchObject({ refId: recordRef || saidRef || null, recordId: recordRecord || saidRecord || null });
      }),
    );
  });

  it('a recordId delivered in capitals is published as the record writes it', () => {
    const live: LiveEvent = {
      environment: 'production',
      event: 'review.approved',
      refId: null,
      recordId: '65F1C2A9D4E8B7A6C5D4E3F2',
      status: 'approved',
      isArchived: false,
      at: '2026-11-29T10:00:00.000Z',
    };
    const record = { status: 'approved', refId: 'user-1', recordId: '65f1c2a9d4e8b7a6c5d4e3f2' } as CandidateRecord;
    expect(confirmedEvent(live, record)).toMatchObject({ refId: 'user-1', recordId: '65f1c2a9d4e8b7a6c5d4e3f2' });
  });
});
