import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findPersonalData, saysFound } from '../../src/kyc/view/personal-data.ts';

const RUNS = { numRuns: 2000, seed: 20261130 };

const text = (chars: fc.Arbitrary<string>, min: number, max: number) =>
  fc.array(chars, { minLength: min, maxLength: max }).map((parts) => parts.join(''));
const idChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_');
const pad = (n: number) => String(n).padStart(2, '0');
/** A whole date as people write one: `1988-07-14`, `14.07.1988`, `07/14/1988`, `12 March 1990`, `March 12, 1990`. */
const wholeDate = fc
  .tuple(fc.integer({ min: 1900, max: 2099 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), fc.nat(4))
  .map(([year, month, day, form]) => {
    const name = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'][
      month - 1
    ]!;
    return [
      `${year}-${pad(month)}-${pad(day)}`,
      `${day}.${month}.${year}`,
      `${pad(month)}/${pad(day)}/${year}`,
      `${day} ${name} ${year}`,
      `${name} ${day}, ${year}`,
    ][form]!;
  });
/** Words around it, anything but the marks a plain id is made of where they touch it. */
const around = fc.string({ maxLength: 30 });
const apart = fc.constantFrom(' ', ', ', ': ', ' (', '\t', ' – ');
/** A plain id: a run of letters, digits, `-` and `_` (`cust_000482`, `user-7781`, `legacy-1988-07-14`) that is no whole date. */
const plainId = text(idChar, 1, 40).filter((id) => !/^(?:\d{4}-\d\d?-\d\d?|\d\d?-\d\d?-\d{4})$/.test(id));

describe('findPersonalData (property-based)', () => {
  it('attack: any text that contains an e-mail address or a whole date is asked about', () => {
    fc.assert(
      fc.property(around, apart, fc.oneof(fc.emailAddress(), wholeDate), apart, around, (before, left, found, right, after) => {
        const typed = `${before}${left}${found}${right}${after}`;
        expect(findPersonalData(typed), typed).toBeDefined();
      }),
      RUNS,
    );
  });

  it('no plain id is asked about', () => {
    fc.assert(
      fc.property(plainId, (id) => {
        expect(findPersonalData(id), id).toBeUndefined();
      }),
      RUNS,
    );
  });

  it('an id shaped like an e-mail address is asked about as before: it reads like one as a whole', () => {
    fc.assert(
      fc.property(fc.emailAddress(), (email) => {
        expect(findPersonalData(email)).toEqual({ kinds: ['an e-mail address'], whole: true });
      }),
      RUNS,
    );
  });
});

describe('findPersonalData', () => {
  it.each([
    ['Mehmet Yılmaz 1968-05-21', "holds a person's name and a date"],
    ['DOB 15.06.1987', 'holds a date'],
    ['born 12 March 1990', 'holds a date'],
    ['Mehmet Yilmaz, 21.05.1968', "holds a person's name and a date"],
    ['mehmet.yilmaz@example.com.tr please help', 'holds an e-mail address'],
    ['ana.silva@example.com cust_000482', 'holds an e-mail address'],
  ])('attack: the UX review’s %j %s', (typed, said) => {
    const found = findPersonalData(typed);
    expect(found && saysFound(found)).toBe(said);
  });

  it.each([
    ['Mehmet Yılmaz 21 May', "holds a person's name and a date"],
    ['21.05. Mehmet Yılmaz', "holds a person's name and a date"],
    ['DOB:15.06.1987.', 'holds a date'],
    ['(born 12 de marzo de 1990)', 'holds a date'],
    ['ana@example.com 1990-01-02', 'holds an e-mail address and a date'],
    ['ana@example.com', 'reads like an e-mail address'],
    ['Maria de Souza', "reads like a person's name"],
  ])('%j %s', (typed, said) => {
    const found = findPersonalData(typed);
    expect(found && saysFound(found)).toBe(said);
  });

  it.each([
    'cust_000482',
    'user-7781',
    'legacy-1988-07-14',
    '1988-07-14-a',
    'x 1988-13-45',
    'support-ticket-4410',
    'Customer 42',
    'please look up the one i sent you',
    'ref 21.05',
    '@example.com',
    'a@b',
  ])('leaves %j alone', (typed) => {
    expect(findPersonalData(typed)).toBeUndefined();
  });
});
