import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { statusDateFields } from '../../src/kyc/contract/applicants.ts';
import { webhookDeliverySchema } from '../../src/kyc/contract/live-events.ts';
import { KNOWN_STATUSES } from '../../src/kyc/contract/status.ts';
import { confirmedEvent } from '../../src/server/live/delivery-confirm.ts';
import { liveEventOf } from '../../src/server/live/webhook-delivery.ts';

/** A webhook's status is read as a list's and a record's are (readStatus): a known one apart from case is that one. */

const AT = '2026-11-26T10:42:00.000Z';
const delivery = (status: string, extra: Record<string, unknown> = {}) =>
  webhookDeliverySchema.parse({ guid: 'g', event: 'review.approved', status, clientId: 'acme', refId: 'r1', recordId: 'rec1', ...extra });

/** A word in any mix of ASCII cases. */
const anyCase = (word: string) =>
  fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((upper) => [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));

describe("a webhook's status apart from case", () => {
  it('property: a known status in any case is that status, with its own date, and the record of that status confirms it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...KNOWN_STATUSES).chain((status) => anyCase(status).map((sent) => ({ status, sent }))),
        ({ status, sent }) => {
          const field = statusDateFields(status)[0];
          const live = liveEventOf('default', delivery(sent, field ? { [field]: '2026-11-20T10:00:00.000Z' } : {}), AT);
          expect(live.status).toBe(status);
          expect(live.statusDate).toBe(field ? '2026-11-20T10:00:00.000Z' : undefined);
          expect(confirmedEvent(live, { status, refId: 'r1', recordId: 'rec1' })).toMatchObject({ status });
        },
      ),
    );
  });

  it('a look-alike letter is not read as a known status (U+212A KELVIN SIGN in "blocKed")', () => {
    expect(liveEventOf('default', delivery('bloc\u212Aed'), AT).status).toBe('bloc\u212Aed');
  });
});
