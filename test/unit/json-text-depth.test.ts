import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonTextTooDeepError, MAX_TEXT_DEPTH, withinTextDepth } from '../../src/kyc/contract/json-depth.ts';
import { mapFromText } from '../../src/kyc/contract/map-text.ts';
import { readCandidateRecord } from '../../src/kyc/contract/record-reading.ts';
import { decodeAddress } from '../../src/kyc/view/address.ts';

/**
 * A map sent as the text of its JSON (certs, identities, customFields), or an address's JSON, nested deeper
 * than MAX_TEXT_DEPTH is read as text that does not parse (json-depth.ts): JSON.parse reads any depth, but
 * writing a value out again recursed once per level, and a 20 KB text of 10,000 nested lists ran the stack
 * out, in the server's triage (the process died) and in the page's reading of the record (a RangeError
 * where the record was due). A single certificate's text is not bound: its view lays out what it can
 * (certificate-numbers.test.tsx).
 */

const nested = (depth: number, inner = '1') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
/** An object nested `depth` deep, objects and lists alternating, as text. */
const mixed = (depth: number) => {
  let text = '0';
  for (let level = 1; level < depth; level++) text = level % 2 ? `[${text}]` : `{"k":${text}}`;
  return `{"k":${text}}`;
};

/** The nesting of a value, counted the obvious way (recursion: only for the small values of the property). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Math.max(0, ...(Array.isArray(value) ? value : Object.values(value)).map(depthOf));
}

describe('JSON held in text, nested past the bound', () => {
  it('a map is read to exactly MAX_TEXT_DEPTH levels, lists or objects inside, and not one level past it', () => {
    for (const make of [(depth: number) => `{"a":${nested(depth - 1)}}`, mixed]) {
      expect(depthOf(mapFromText(make(MAX_TEXT_DEPTH)))).toBe(MAX_TEXT_DEPTH);
      expect(mapFromText(make(MAX_TEXT_DEPTH + 1))).toBeUndefined();
    }
    // Brackets inside strings are counted, but the value is what is measured.
    expect(mapFromText(JSON.stringify({ text: '['.repeat(5000) }))).toEqual({ text: '['.repeat(5000) });
  });

  it('refuses exactly the values deeper than the bound (any value, near the bound)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 8 }), (value, extra) => {
        const depth = depthOf(value) + MAX_TEXT_DEPTH - 4 + extra;
        const wrapping = depth - depthOf(value);
        const text = `${'['.repeat(wrapping)}${JSON.stringify(value)}${']'.repeat(wrapping)}`;
        if (depth > MAX_TEXT_DEPTH) expect(() => withinTextDepth(JSON.parse(text), text)).toThrow(JsonTextTooDeepError);
        else expect(withinTextDepth(JSON.parse(text), text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 60 },
    );
  });

  it('attack: certificates sent as text holding 10,000 nested lists are named unread, and the rest of the record is read', () => {
    const certs = `{"onfido-service-cert":"{}","a":${nested(10_000)}}`;
    const given = { given_name: { type: 'string', value: 'Ana' } };
    // Before: RangeError (Maximum call stack size exceeded) out of the record's reading.
    const reading = readCandidateRecord({ status: 'inreview', refId: 'deep-1', certs, identities: given });
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    expect(reading.unread.map((field) => field.field)).toContain('certs');
    expect(reading.record.identities?.given_name?.value).toBe('Ana');
  });

  it('attack: identities sent as text whose address object is nested 10,000 deep are named unread, never thrown', () => {
    const identities = `{"given_name":{"type":"string","value":"Ana"},"address":{"type":"string","value":{"street":"x","more":${nested(10_000)}}}}`;
    const reading = readCandidateRecord({ status: 'inreview', refId: 'deep-2', identities });
    expect(reading.ok && reading.unread.map((field) => field.field)).toContain('identities');
  });

  it('attack: an address sent as JSON text nested 10,000 levels deep is said to be too deep, not thrown out of its card', () => {
    const raw = `{"street":"x","more":${nested(10_000)}}`;
    expect(decodeAddress(raw)).toMatchObject({ ok: false, raw, problem: 'The address is JSON nested too deeply to read.' });
    expect(decodeAddress('{"street":')).toMatchObject({ ok: false, problem: 'The address is not valid JSON.' });
  });
});
