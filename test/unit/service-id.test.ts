import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candidateRecordSchema } from '../../src/kyc/contract/schema.ts';
import { serviceIdsOf, serviceIdValues } from '../../src/kyc/contract/service-id.ts';

const maybeId = fc.option(fc.oneof(fc.constantFrom('A', 'B', ''), fc.string({ maxLength: 8 })), { nil: undefined });

describe('the service id under either name (service-id.ts)', () => {
  it('shows every id the record sent, each under the name it came with, once; names one missing when none came', () => {
    fc.assert(
      fc.property(maybeId, maybeId, (blockPassID, serviceID) => {
        const record = candidateRecordSchema.parse({ status: 'waiting', refId: 'r', blockPassID, serviceID });
        const ids = serviceIdsOf(record);
        const sent = [
          ...(blockPassID ? [['blockPassID', blockPassID]] : []),
          ...(serviceID && serviceID !== blockPassID ? [['serviceID', serviceID]] : []),
        ];
        if (sent.length === 0) expect(ids).toEqual([{ field: 'blockPassID' }]);
        else expect(ids.map((id) => [id.field, id.value])).toEqual(sent);
        // Every value sent is among the values, and nothing else.
        expect(new Set(serviceIdValues(record))).toEqual(new Set([blockPassID, serviceID].filter((id) => id)));
      }),
    );
  });
});
