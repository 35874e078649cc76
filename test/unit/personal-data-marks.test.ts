import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findPersonalData, type PersonalData, readsLikePersonalData } from '../../src/kyc/view/personal-data.ts';
import { PEOPLE } from '../../src/server/sandbox/people.ts';
import { PUBLISHED_PEOPLE } from '../../src/server/sandbox/published-people.ts';

/**
 * Personal data copied from a sentence, with the sentence's marks around it (`Maria Souza,`, `John Smith!`,
 * `john smith?`) or a remark in brackets after it (`Maria Souza (customer)`), reads as it does without
 * them (UX review): before, a full stop after a name was asked about, a comma was looked up unasked. Ids
 * stay unasked, marks or not.
 */
const RUNS = { numRuns: 1000, seed: 20261201 };

const text = (chars: fc.Arbitrary<string>, min: number, max: number) =>
  fc.array(chars, { minLength: min, maxLength: max }).map((parts) => parts.join(''));
const digit = fc.constantFrom(...'0123456789');
const capitalised = fc
  .tuple(fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZÉŁ'), text(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzéüłø'), 1, 12))
  .map(([first, rest]) => first + rest);
const lowerWord = text(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzáéíóúñüçøłş'), 1, 12).filter(
  (word) => !/^(?:ref|refid|reference|record|recordid|id|ids|customer|candidate|client)$/.test(word),
);
/** `Maria de Souza`, `john smith`, `MARÍA GARCÍA`: a name as typed, capitalised or not. */
const name = fc.oneof(
  fc.tuple(capitalised, fc.constantFrom('', 'de ', 'van '), capitalised).map(([first, particle, last]) => `${first} ${particle}${last}`),
  fc.tuple(fc.array(lowerWord, { minLength: 2, maxLength: 5 }), fc.boolean()).map(([words, upper]) => {
    const typed = words.join(' ');
    return upper ? typed.toUpperCase() : typed;
  }),
);
const phone = fc
  .tuple(fc.constantFrom('+33 ', '+1 ', '0'), fc.array(text(digit, 2, 3), { minLength: 3, maxLength: 4 }))
  .map(([start, groups]) => `${start}${groups.join(' ')}`)
  .filter((number) => number.replace(/\D/g, '').length >= 8);
const date = fc
  .tuple(fc.integer({ min: 1900, max: 2099 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), fc.nat(3))
  .map(([year, month, day, form]) => {
    const [mm, dd] = [month, day].map((n) => String(n).padStart(2, '0'));
    return [`${year}-${mm}-${dd}`, `${dd}.${mm}.${year}`, `${mm}/${dd}/${year}`, `${day} March ${year}`][form]!;
  });
/** What each reads like, whole and without marks. */
const personal: fc.Arbitrary<[string, PersonalData]> = fc.oneof(
  name.map((n): [string, PersonalData] => [n, "a person's name"]),
  fc.emailAddress().map((e): [string, PersonalData] => [e, 'an e-mail address']),
  phone.map((p): [string, PersonalData] => [p, 'a phone number']),
  date.map((d): [string, PersonalData] => [d, 'a date']),
);

/** A sentence's marks before and after, and a remark in brackets after, as a ticket or a mail writes them. */
const lead = text(fc.constantFrom(...'(["\'\u201c\u2018\u00ab\u00bf\u00a1'), 0, 2);
const tail = text(fc.constantFrom(...',;:!?."\')]\u201d\u2019\u00bb\u2026'), 0, 3);
const remark = fc.constantFrom('', ' (customer)', ' [sic]', ' (ticket 4410)', ' (see above)', ' (VIP)');
const inSentence = (bare: fc.Arbitrary<string>) =>
  fc.tuple(lead, bare, remark, tail).map(([before, core, after, marks]) => `${before}${core}${after}${marks}`);

/** Ids as integrators make them: the samples' (README), uuids, recordIds and `cust_000482`-like refIds. */
const sampleIds = [...PEOPLE, ...PUBLISHED_PEOPLE]
  .flatMap((person) => [person.refId, person.recordId, person.blockPassID])
  .filter((id): id is string => typeof id === 'string');
const realisticId = fc.oneof(
  fc.constantFrom(...sampleIds, 'cust_000482', 'user-7781', 'support-ticket-4410', 'crm-55102', 'legacy-2019-0031'),
  fc.uuid(),
  text(fc.constantFrom(...'0123456789abcdef'), 24, 24),
  fc.tuple(fc.constantFrom('cust_', 'user-', 'support-ticket-', 'crm-', 'acct-', 'hu-2026-'), text(digit, 1, 8)).map(([p, n]) => p + n),
  fc
    .tuple(text(fc.constantFrom(...'abcxyzABCXYZ0123456789-_'), 0, 16), fc.constantFrom(...'abcxyzABCXYZ_'), text(digit, 0, 8))
    .map((parts) => parts.join('')),
);

describe('personal data in a sentence’s marks (property-based)', () => {
  it('property: adding sentence punctuation or a remark in brackets around name-like text never makes it skip the question', () => {
    fc.assert(
      fc.property(personal, lead, remark, tail, ([bare, kind], before, after, marks) => {
        const written = `${before}${bare}${after}${marks}`;
        expect(findPersonalData(bare)?.kinds, bare).toContain(kind);
        // Asked about, whatever it is said to read like (`(1900-01-01` is 8 digits after a bracket: a phone number too).
        expect(findPersonalData(written), written).toBeDefined();
      }),
      RUNS,
    );
  });

  it('property: a name in marks reads like a name, as the question says it (not merely "holds")', () => {
    fc.assert(
      fc.property(inSentence(name), (written) => {
        expect(readsLikePersonalData(written), written).toBe("a person's name");
      }),
      RUNS,
    );
  });

  it('property: sample and realistic ids are never asked about, bare or in a sentence’s marks', () => {
    expect(sampleIds.length).toBeGreaterThan(20);
    fc.assert(
      fc.property(realisticId, inSentence(realisticId), (id, written) => {
        expect(findPersonalData(id), id).toBeUndefined();
        expect(findPersonalData(written), written).toBeUndefined();
      }),
      RUNS,
    );
  });
});

describe('personal data in a sentence’s marks', () => {
  it.each([
    ['Maria Souza,', "a person's name"],
    ['John Smith!', "a person's name"],
    ['john smith?', "a person's name"],
    ['Maria Souza (customer)', "a person's name"],
    ['Maria Souza.', "a person's name"],
    ['(Maria Souza (customer)).', "a person's name"],
    ['\u201cMaria de Souza\u201d,', "a person's name"],
    ['Maria Souza; ', "a person's name"],
    ['maria.souza@example.com,', 'an e-mail address'],
    ['<maria.souza@example.com>', 'an e-mail address'],
    ['+33 6 12 34 56 78.', 'a phone number'],
    ['"15.06.1987",', 'a date'],
    ['12 March 1990 (DOB),', 'a date'],
  ])('%j reads like %s', (written, what) => {
    expect(readsLikePersonalData(written)).toBe(what);
    expect(findPersonalData(written)).toEqual({ kinds: [what], whole: true });
  });

  it.each([
    'cust_000482,',
    '(user-7781)',
    'support-ticket-4410!',
    'c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10?',
    '65f1c2a9e4b0d3a1f0c9b810.',
    'cust_000482 (customer)',
    '"crm-55102";',
    'acme(1)',
    '(12345678),',
    '...',
    '()',
  ])('leaves %j alone', (written) => {
    expect(findPersonalData(written)).toBeUndefined();
  });
});
