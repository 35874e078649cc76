import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberTextAt } from '../../src/kyc/contract/number-text.ts';
import { mapFromText } from '../../src/kyc/contract/map-text.ts';
import { mapFromTextKeepingNumbers } from '../../src/server/answer/map-text-numbers.ts';

/**
 * A map sent as the text of its JSON, read on the server (map-text-numbers.ts): the same map the browser's
 * rule reads (map-text.ts), with each number's text as sent kept, where Node 20's JSON.parse rounded
 * 12345678901234567890 and a support user's page could only say so.
 */

/** A number as a service may write it: past 2^53, a fraction ending in 0, an exponent, or plain. */
const numberTextArb = fc.oneof(
  fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String),
  fc.tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 9_999 })).map(([a, b]) => `${a}.${b}0`),
  fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: -30, max: 30 })).map(([a, e]) => `${a}e${e}`),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
);

/** An object's JSON text whose numbers are written as `numberTextArb` writes them, and each number's holder path and text. */
const mapTextArb = fc
  .uniqueArray(fc.tuple(fc.string({ maxLength: 8 }), numberTextArb, fc.boolean()), { selector: ([key]) => key, maxLength: 6 })
  .map((members) => {
    const parts = members.map(([key, text, nested]) =>
      nested ? `${JSON.stringify(key)}: [${text}, {"n": ${text}}]` : `${JSON.stringify(key)}:${text}`,
    );
    return { text: `{ ${parts.join(', ')} }`, members };
  });

describe('a map sent as text, read on the server', () => {
  it('keeps every number as sent, at any depth, and reads the same map as the browser (any numbers)', () => {
    fc.assert(
      fc.property(mapTextArb, ({ text, members }) => {
        const map = mapFromTextKeepingNumbers(text)!;
        expect(JSON.stringify(map)).toBe(JSON.stringify(mapFromText(text)));
        for (const [key, sent, nested] of members) {
          const holder = nested ? (map[key] as unknown[]) : map;
          const at = nested ? '0' : key;
          const value = (holder as Record<string, number>)[at]!;
          // The digits the page writes are the ones sent (a number JavaScript writes otherwise: its text kept).
          const written = numberTextAt(holder, at, value);
          expect(written.rounded).toBeUndefined();
          expect(written.digits).toBe(sent);
          if (nested) {
            const inner = (holder as unknown[])[1] as Record<string, number>;
            expect(numberTextAt(inner, 'n', inner.n!).rounded).toBeUndefined();
          }
        }
      }),
    );
  });

  it('reads what JSON.parse reads as an object, and nothing where it reads none (any text)', () => {
    const textArb = fc.oneof(
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc.string(),
      fc.jsonValue().map((value) => JSON.stringify(value).slice(0, -1)),
    );
    fc.assert(
      fc.property(textArb, (text) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        const object = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
        const read = mapFromTextKeepingNumbers(text);
        expect(read === undefined).toBe(!object);
        if (read) expect(JSON.stringify(read)).toBe(JSON.stringify(parsed));
      }),
    );
  });

  it('answers 12345678901234567890 as sent; a byte-order mark, a list, cut text or words are no map', () => {
    const map = mapFromTextKeepingNumbers(' {"accountNumber": 12345678901234567890, "amount": 1.50} ')!;
    expect(numberTextAt(map, 'accountNumber', map.accountNumber as number)).toEqual({ digits: '12345678901234567890' });
    expect(numberTextAt(map, 'amount', map.amount as number)).toEqual({ digits: '1.50' });
    for (const text of ['\uFEFF{"a":1}', '[{"a":1}]', '{"a":1', '{"a":1}{"b":2}', 'risk: low', '']) {
      expect(mapFromTextKeepingNumbers(text), text).toBeUndefined();
    }
  });

  it('attack: a repeated member is the last one, as JSON.parse reads it, never the text of the number it replaced', () => {
    const map = mapFromTextKeepingNumbers('{"n": 12345678901234567890, "n": 5, "m": 1e21, "m": "x"}')!;
    expect(map).toEqual({ n: 5, m: 'x' });
    expect(numberTextAt(map, 'n', 5)).toEqual({ digits: '5' });
  });
});
