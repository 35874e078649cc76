import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WebhookDelivery } from '../../src/kyc/contract/live-events.ts';
import { deliveryKeyOf } from '../../src/server/live/delivery-ids.ts';

/**
 * The dedupe key of a webhook delivery (issue 30): bounded whatever the ids (they are kept 24 hours, in
 * memory or Redis), the same for the same delivery, and different for deliveries that differ in any part
 * it is made of, so that no delivery is dropped as another's retry.
 */
const id = fc.string({ minLength: 1, maxLength: 256, unit: 'binary' });
const optionalId = fc.option(fc.string({ maxLength: 256, unit: 'binary' }), { nil: undefined });
const delivery = fc.record({
  guid: id,
  event: fc.string({ minLength: 1, maxLength: 64 }),
  clientId: id,
  status: fc.option(fc.string({ maxLength: 64 }), { nil: undefined }),
  recordId: optionalId,
  refId: optionalId,
}) as fc.Arbitrary<WebhookDelivery>;
const header = fc.option(fc.string({ maxLength: 512, unit: 'binary' }), { nil: undefined });

describe('the key a webhook delivery is known again by', () => {
  it('is 64 hex digits whatever the ids, and the same for the same delivery and header', () => {
    fc.assert(
      fc.property(delivery, header, (d, h) => {
        const key = deliveryKeyOf(d, h);
        expect(key).toMatch(/^[0-9a-f]{64}$/);
        expect(deliveryKeyOf({ ...d }, h)).toBe(key);
      }),
    );
  });

  it('with a delivery id, is the same exactly when the id and the event are: a retry built again with another guid, status or ids is still a duplicate', () => {
    fc.assert(
      fc.property(delivery, delivery, id, id, fc.boolean(), (a, b, one, two, sameEvent) => {
        fc.pre(one.trim() !== '' && two.trim() !== '');
        const other = sameEvent ? { ...b, event: a.event } : b;
        expect(deliveryKeyOf(a, one) === deliveryKeyOf(other, two)).toBe(one.trim() === two.trim() && a.event === other.event);
      }),
    );
  });

  it('without a delivery id, differs when the guid, event, status, recordId or refId differs', () => {
    const part = fc.constantFrom('guid', 'event', 'status', 'recordId', 'refId');
    fc.assert(
      fc.property(delivery, part, fc.string({ minLength: 1, maxLength: 256, unit: 'binary' }), (d, field, value) => {
        fc.pre(d[field] !== value);
        // The clientId is the environment's: not a part of the key, which is kept per environment.
        expect(deliveryKeyOf({ ...d, [field]: value }, undefined)).not.toBe(deliveryKeyOf(d, undefined));
        expect(deliveryKeyOf({ ...d, clientId: `${d.clientId}x` }, undefined)).toBe(deliveryKeyOf(d, undefined));
      }),
    );
  });
});
