import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PEOPLE } from '../../src/server/sandbox/people.ts';
import { readsLikePersonalData } from '../../src/kyc/view/personal-data.ts';

const RUNS = { numRuns: 2000, seed: 20261130 };

const refIdChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_');
const text = (chars: fc.Arbitrary<string>, min: number, max: number) =>
  fc.array(chars, { minLength: min, maxLength: max }).map((parts) => parts.join(''));
/** A refId as integrators make them (`cust_000482`, `user-7781`, `A-2019_x`): a letter or `_` somewhere, no space or `@`. */
const refId = fc.tuple(text(refIdChar, 0, 20), fc.constantFrom(...'abcxyzABCXYZ_'), text(refIdChar, 0, 20)).map((parts) => parts.join(''));
const hexId = text(fc.constantFrom(...'0123456789abcdefABCDEF'), 24, 24);
/** A customer number: digits alone, or digits and dashes (`1234-5678-90`) that are no whole date. */
const customerNumber = text(fc.constantFrom(...'0123456789-'), 1, 30).filter(
  (id) => !/^\d{4}-\d{1,2}-\d{1,2}$|^\d{1,2}-\d{1,2}-\d{4}$/.test(id),
);

const capitalised = fc
  .tuple(fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZÉŁ'), text(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzéüłø'), 1, 12))
  .map(([first, rest]) => first + rest);
const digit = fc.constantFrom(...'0123456789');
/** `+33 6 12 34 56 78`, `(555) 123.4567`, `06 12 34 56 78`: 8 to 15 digits, a `+` first or separators between. */
const phone = fc
  .tuple(
    fc.boolean(),
    fc.array(fc.tuple(text(digit, 1, 4), fc.constantFrom(' ', '.', '-', ') ')), { minLength: 2, maxLength: 5 }),
    text(digit, 1, 4),
  )
  .map(([plus, groups, end]) => `${plus ? '+' : ''}${groups.map(([d, sep]) => d + sep).join('')}${end}`)
  .filter((number) => {
    const digits = number.replace(/\D/g, '').length;
    return digits >= 8 && digits <= 15 && (number.startsWith('+') || /[ .)]/.test(number));
  });
const date = fc.tuple(fc.integer({ min: 1900, max: 2099 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }));
const pad = (n: number) => String(n).padStart(2, '0');

describe('readsLikePersonalData (property-based)', () => {
  it('never flags a sandbox sample’s refId or recordId', () => {
    const ids = PEOPLE.flatMap((person) => [person.refId, person.recordId]).filter((id): id is string => typeof id === 'string');
    expect(ids.length).toBeGreaterThan(10);
    for (const id of ids) expect(readsLikePersonalData(id), id).toBeUndefined();
  });

  it('never flags a 24-hex id, a refId of letters, digits, - and _, or a customer number', () => {
    fc.assert(
      fc.property(fc.oneof(hexId, refId, customerNumber), (id) => {
        expect(readsLikePersonalData(id)).toBeUndefined();
      }),
      RUNS,
    );
  });

  it('always flags "Firstname Lastname" (a particle between too)', () => {
    fc.assert(
      fc.property(capitalised, fc.constantFrom('', 'de ', 'van '), capitalised, (first, particle, last) => {
        expect(readsLikePersonalData(`${first} ${particle}${last}`)).toBe("a person's name");
      }),
      RUNS,
    );
  });

  it('always flags an e-mail address', () => {
    fc.assert(
      fc.property(fc.emailAddress(), (email) => {
        expect(readsLikePersonalData(email)).toBe('an e-mail address');
      }),
      RUNS,
    );
  });

  it('always flags a phone number of 8 digits or more, with a + or grouped', () => {
    fc.assert(
      fc.property(phone, (number) => {
        expect(readsLikePersonalData(number)).toBe('a phone number');
      }),
      RUNS,
    );
  });

  it('always flags a date as 07/14/1988, 14.07.1988 or 1988-07-14', () => {
    fc.assert(
      fc.property(date, ([year, month, day]) => {
        for (const written of [`${pad(month)}/${pad(day)}/${year}`, `${day}.${month}.${year}`, `${year}-${pad(month)}-${pad(day)}`]) {
          expect(readsLikePersonalData(written), written).toBe('a date');
        }
      }),
      RUNS,
    );
  });
});

describe('readsLikePersonalData', () => {
  it.each([
    ['amelie.dubois-leger@example.fr', 'an e-mail address'],
    ['Amélie Dubois-Léger', "a person's name"],
    ['Maria de Souza', "a person's name"],
    ['+33612345678', 'a phone number'],
    ['(555) 123-4567', 'a phone number'],
    ['07/14/1988', 'a date'],
    ['1988-07-14', 'a date'],
  ])('flags %j as %s', (input, what) => {
    expect(readsLikePersonalData(input)).toBe(what);
  });

  it.each([
    'cust_000482',
    '65f1c2a9e4b0d3a1f0c9b801',
    '12345678',
    '555-123-4567',
    'legacy-2019-0031',
    '1988-13-45',
    '2024/0117/55',
    '+1234567',
    'ana silva',
    'Ana',
    // The awkward ids the end-to-end tests look up by typing (test/e2e/lookup.spec.ts).
    'a/b c',
    'x?y=1#frag',
    '张伟 / ?#',
    '100%',
    "it's (odd) *",
  ])('leaves %j alone', (input) => {
    expect(readsLikePersonalData(input)).toBeUndefined();
  });
});
