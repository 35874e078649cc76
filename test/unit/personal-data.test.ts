import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readsLikePersonalData } from '../../src/kyc/view/personal-data.ts';
import { isPlainId } from '../../src/kyc/view/plain-id.ts';
import { ENCRYPTED_DEMO_REF_ID } from '../../src/server/sandbox/encrypted-demo.ts';
import { PEOPLE } from '../../src/server/sandbox/people.ts';
import { PUBLISHED_PEOPLE } from '../../src/server/sandbox/published-people.ts';
import { ARCHIVE_DEMO_REF_ID } from '../../src/server/sandbox/queue-candidates.ts';
import { RATE_LIMIT_DEMO_REF_ID } from '../../src/server/sandbox/rate-limit-demo.ts';

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
const lowerLetter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzáéíóúñüçøłş');
/** A word of a name as typed in lower case; never a word of an id column's heading (`ref`, `id`: personal-data.ts). */
const lowerWord = text(lowerLetter, 1, 12).filter(
  (word) => !/^(?:ref|refid|reference|record|recordid|id|ids|customer|candidate|client)$/.test(word),
);
/** `john smith`, `maría garcía lópez`: two to five words of letters, one space between. */
const lowerName = fc.array(lowerWord, { minLength: 2, maxLength: 5 }).map((words) => words.join(' '));

const MONTH_NAMES = [
  ['January', 'Jan', 'janvier', 'Januar', 'enero'],
  ['February', 'Feb', 'février', 'Februar', 'febrero'],
  ['March', 'Mar', 'mars', 'März', 'marzo'],
  ['April', 'Apr', 'avril', 'April', 'abril'],
  ['May', 'May', 'mai', 'Mai', 'mayo'],
  ['June', 'Jun', 'juin', 'Juni', 'junio'],
  ['July', 'Jul', 'juillet', 'Juli', 'julio'],
  ['August', 'Aug', 'août', 'August', 'agosto'],
  ['September', 'Sept', 'septembre', 'September', 'septiembre'],
  ['October', 'Oct', 'octobre', 'Oktober', 'octubre'],
  ['November', 'Nov', 'novembre', 'November', 'noviembre'],
  ['December', 'Dec', 'décembre', 'Dezember', 'diciembre'],
] as const;
/** A date with its month in words, as the languages write it: `12 March 1990`, `March 12, 1990`, `12 Mar. 1990`, `12. März 1990`, `12 de marzo de 1990`. */
const dateInWords = fc
  .tuple(fc.integer({ min: 1, max: 31 }), fc.integer({ min: 0, max: 11 }), fc.integer({ min: 1900, max: 2099 }), fc.nat(7), fc.boolean())
  .map(([day, month, year, form, upper]) => {
    const [english, short, french, german, spanish] = MONTH_NAMES[month]!;
    const written = [
      `${day} ${english} ${year}`,
      `${english} ${day}, ${year}`,
      `${day} ${short} ${year}`,
      `${short}. ${day} ${year}`,
      `${day}th ${english}, ${year}`,
      `${day === 1 ? '1er' : day} ${french} ${year}`,
      `${day}. ${german} ${year}`,
      `${day} de ${spanish} de ${year}`,
    ][form]!;
    return upper ? written.toUpperCase() : written;
  });
/**
 * Ids made of the same words joined without a space, as integrators make them from a name or a date
 * (`john-smith`, `12-Mar-1990`, `march_12_1990`, `maria.garcia`): a refId shape the new rules must leave alone.
 */
const joinedId = fc
  .tuple(
    fc.array(fc.oneof(lowerWord, capitalised, fc.constantFrom(...MONTH_NAMES.flat()), text(digit, 1, 4)), { minLength: 2, maxLength: 4 }),
    fc.constantFrom('-', '_', '.', ''),
  )
  .map(([words, joint]) => words.join(joint));

const date = fc.tuple(fc.integer({ min: 1900, max: 2099 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }));
const pad = (n: number) => String(n).padStart(2, '0');

describe('readsLikePersonalData (property-based)', () => {
  it('never flags a sandbox sample’s refId or recordId (README), nor a demonstration’s refId', () => {
    const ids = [...PEOPLE, ...PUBLISHED_PEOPLE]
      .flatMap((person) => [person.refId, person.recordId, person.blockPassID])
      .filter((id): id is string => typeof id === 'string');
    ids.push(ARCHIVE_DEMO_REF_ID, RATE_LIMIT_DEMO_REF_ID, ENCRYPTED_DEMO_REF_ID, 'queue-1', 'bench-1');
    expect(ids.length).toBeGreaterThan(30);
    for (const id of ids) expect(readsLikePersonalData(id), id).toBeUndefined();
  });

  it('never flags a 24-hex id, a uuid, a refId of letters, digits, - and _, a customer number, or words joined without a space', () => {
    fc.assert(
      fc.property(fc.oneof(hexId, fc.uuid(), refId, customerNumber, joinedId), (id) => {
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

  it('always flags a name typed in lower case ("john smith", "maría garcía lópez"), or in capitals', () => {
    fc.assert(
      fc.property(lowerName, fc.boolean(), (name, upper) => {
        const typed = upper ? name.toUpperCase() : name;
        expect(readsLikePersonalData(typed), typed).toBe("a person's name");
      }),
      RUNS,
    );
  });

  it('always flags a date with its month in words, in English, French, German or Spanish', () => {
    fc.assert(
      fc.property(dateInWords, (written) => {
        expect(readsLikePersonalData(written), written).toBe('a date');
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
    ['12 March 1990', 'a date'],
    ['March 12, 1990', 'a date'],
    ['12 Mar 1990', 'a date'],
    ['1990-03-12', 'a date'],
    ['12.03.1990', 'a date'],
    ['john smith', "a person's name"],
    ['maría garcía lópez', "a person's name"],
    ['ana silva', "a person's name"],
  ])('flags %j as %s', (input, what) => {
    expect(readsLikePersonalData(input)).toBe(what);
  });

  it.each([
    'cust_000482',
    '65f1c2a9e4b0d3a1f0c9b801',
    '12345678',
    // Dashes alone group a customer number (`1234-5678-90`) as often as a phone number: no rule tells them apart.
    '555-123-4567',
    'legacy-2019-0031',
    '1988-13-45',
    '2024/0117/55',
    '+1234567',
    'Ana',
    // Words joined without a space, a month name that is no month, a day that is none, a sentence, a column's heading.
    'john-smith',
    '12-Mar-1990',
    '12 Marchy 1990',
    '32 March 1990',
    'please look up the one i sent you',
    'Customer ref',
    'record id',
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

/** What the search box looks up unasked while the rule has not loaded (plain-id.ts): never what the rule would flag. */
describe('isPlainId', () => {
  const plainChar = fc.constantFrom(...'abcxyzABCXYZ0123456789-_.');
  const anyChar = fc.constantFrom(...'abcxyzABCXYZ0123456789-_.+@ /()éł');

  it('is never true of text the rule flags: letters, digits, -, _ and . in any order, and any other text', () => {
    fc.assert(
      fc.property(fc.oneof(text(plainChar, 1, 30), text(anyChar, 1, 30), phone, lowerName, dateInWords, joinedId), (id) => {
        if (isPlainId(id)) expect(readsLikePersonalData(id), id).toBeUndefined();
      }),
      RUNS,
    );
  });

  it("is true of the ids the box most often gets: a refId with a letter or _, a recordId, a customer number's digits", () => {
    fc.assert(
      fc.property(fc.oneof(hexId, refId, text(digit, 1, 20)), (id) => {
        expect(isPlainId(id), id).toBe(true);
      }),
      RUNS,
    );
  });

  it.each(['1988-07-14', '14.07.1988', '06.12.34.56.78', '1234-5678', 'John Smith', 'a@b.fr', 'Zoë', ''])('is false of %j', (id) => {
    expect(isPlainId(id)).toBe(false);
  });
});
