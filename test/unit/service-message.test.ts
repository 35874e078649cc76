import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keySearch } from '../../src/server/answer/key-watch.ts';
import { serviceMessage } from '../../src/server/upstream/service-message.ts';

const KEYS = keySearch(['svc-msg-key-7f3a9c2e51']);

describe('serviceMessage: the message nested in an error object', () => {
  it('property: error.message is read exactly as a flat message is (cut, cleaned, withheld alike)', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 400 }),
      fc.constant('svc-msg-key-7f3a9c2e51'),
      fc.string({ unit: 'binary', maxLength: 300 }),
    );
    fc.assert(
      fc.property(text, (message) => {
        const flat = serviceMessage({ status: 'error', message }, KEYS);
        expect(serviceMessage({ status: 'error', error: { message, code: 'E_DB' } }, KEYS)).toEqual(flat);
      }),
      { numRuns: 500 },
    );
  });

  it('not read outside the error envelope, nor from an error that holds no text', () => {
    expect(serviceMessage({ error: { message: 'Internal' } }, KEYS)).toBeUndefined();
    expect(serviceMessage({ status: 'error', error: 'Internal' }, KEYS)).toBeUndefined();
    expect(serviceMessage({ status: 'error', error: { message: 5 } }, KEYS)).toBeUndefined();
    expect(serviceMessage({ status: 'error', error: null }, KEYS)).toBeUndefined();
  });
});
