import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { liveEventSchema } from '../../src/kyc/contract/live-events.ts';
import { liveEventOf, readDelivery } from '../../src/server/live/webhook-delivery.ts';

/**
 * Be liberal in what you read (upstream-api-facts.md: only `guid`, `event`, `clientId` and one of
 * `recordId`/`refId` can be relied on): a delivery that has those is read whatever its other fields hold.
 * Each optional field is read as it is when it holds what the service documents, and as missing when it
 * holds anything else, so one odd field never costs the reviewers a live update.
 */
const DOCUMENTED: Record<string, (value: unknown) => boolean> = {
  status: (value) => typeof value === 'string' && value.length <= 64,
  isArchived: (value) => typeof value === 'boolean',
  isPing: (value) => typeof value === 'boolean',
  submitCount: (value) => typeof value === 'number',
  waitingDate: (value) => typeof value === 'string' && value.length <= 64,
  inreviewDate: (value) => typeof value === 'string' && value.length <= 64,
  approvedDate: (value) => typeof value === 'string' && value.length <= 64,
  rejectedDate: (value) => typeof value === 'string' && value.length <= 64,
  blockedDate: (value) => typeof value === 'string' && value.length <= 64,
};
/** What a field may hold: anything JSON has, and the near misses of the documented types. */
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom('2', 'false', 'true', '', 1718000000000, 0, -1, 'x'.repeat(65), '2026-11-20T10:00:00.000Z'),
);
/** What makes a body a test delivery: `isPing` true, as a boolean or the string "true". */
const isPingField = (value: unknown) => value === true || value === 'true';
const optionalFields = fc.dictionary(fc.constantFrom(...Object.keys(DOCUMENTED)), value);
const ids = fc.oneof(
  fc.record({ recordId: fc.string({ minLength: 1, maxLength: 40 }), refId: value }),
  fc.record({ refId: fc.string({ minLength: 1, maxLength: 40 }), recordId: value }),
);

describe('a webhook delivery, whatever its optional fields hold', () => {
  it('is read when its required fields are there, each optional field as sent when documented and missing otherwise', () => {
    fc.assert(
      fc.property(
        optionalFields,
        ids,
        fc.constantFrom('review.approved', 'user.inReview', 'user.created', 'user.deleted'),
        (fields, id, event) => {
          // What is sent is the JSON text: a -0 generated goes as 0, as the service's JSON would carry it.
          const sentText = JSON.stringify({ guid: 'g-1', event, clientId: 'acme', ...id, ...fields });
          const body = JSON.parse(sentText) as Record<string, unknown>;
          const read = readDelivery(Buffer.from(sentText));
          // A test delivery is a ping whatever else it holds, `isPing` sent as true or as "true".
          if (isPingField(body.isPing)) return void expect(read).toEqual({ kind: 'ping', clientId: 'acme', event });
          expect(read?.kind).toBe('delivery');
          const delivery = read?.kind === 'delivery' ? read.delivery : undefined;
          for (const [name, isDocumented] of Object.entries(DOCUMENTED)) {
            const sent = body[name];
            const expected = sent === null || (sent !== undefined && isDocumented(sent)) ? sent : undefined;
            expect((delivery as Record<string, unknown>)[name], name).toEqual(expected);
          }
          // And what the open pages are told of it is a live event of the contract's shape.
          expect(liveEventSchema.safeParse(liveEventOf('default', delivery!, new Date(0).toISOString())).success).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('is refused without its required fields, whatever the rest holds', () => {
    fc.assert(
      fc.property(optionalFields, fc.constantFrom('guid', 'event', 'clientId', 'ids'), (fields, left) => {
        const body: Record<string, unknown> = { guid: 'g-1', event: 'review.approved', clientId: 'acme', refId: 'r-1', ...fields };
        if (left === 'ids') delete body.refId;
        else delete body[left];
        const read = readDelivery(Buffer.from(JSON.stringify(body)));
        // A ping needs its client id only: the console's test delivery names no candidate.
        if (isPingField(fields.isPing) && left !== 'clientId') expect(read?.kind).toBe('ping');
        else expect(read.kind).toBe('unreadable');
      }),
    );
  });
});
