import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkId, encodeIdSegment } from '../../src/kyc/contract/lookup.ts';
import { anyString } from '../support/any-code-point.ts';

const SEGMENT = /^(?:[A-Za-z0-9\-_.!~*'()]|%[0-9A-F]{2})+$/;

describe('the id encoder (property-based)', () => {
  it('any string is refused, or becomes exactly one path segment that decodes back to it', () => {
    const anyId = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 300 }),
      anyString(60),
      fc
        .array(fc.constantFrom('/', '.', '..', '%', '%2F', '?', '#', '\\', ' ', '\r\n', '\u0000', 'é', '🙂', 'a'), { maxLength: 30 })
        .map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(anyId, (id) => {
        const check = checkId(id);
        if (!check.ok) return;
        const segment = encodeIdSegment(id);
        expect(segment).toMatch(SEGMENT);
        expect(segment).not.toBe('.');
        expect(segment).not.toBe('..');
        expect(decodeURIComponent(segment)).toBe(id);
      }),
      { numRuns: 5000, seed: 20261121 },
    );
  });
});
