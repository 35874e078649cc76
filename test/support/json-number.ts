import fc from 'fast-check';

/**
 * A JSON number's text by the grammar: a sign, an integer part without leading zeros, a fraction, an
 * exponent up to `maxExponent` (past 308, a number JavaScript reads as Infinity, or below -323, as 0).
 */
export function jsonNumberText({ maxExponent = 290 } = {}): fc.Arbitrary<string> {
  return fc
    .record({
      minus: fc.boolean(),
      integer: fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9]\d{0,24}$/)),
      fraction: fc.option(fc.stringMatching(/^\d{1,25}$/), { nil: undefined }),
      exponent: fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: maxExponent })), {
        nil: undefined,
      }),
    })
    .map(
      ({ minus, integer, fraction, exponent }) =>
        `${minus ? '-' : ''}${integer}${fraction === undefined ? '' : `.${fraction}`}${exponent === undefined ? '' : exponent.join('')}`,
    );
}
