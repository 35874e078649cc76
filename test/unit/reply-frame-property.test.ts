import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detailsOf, frameProblem } from '../../src/app/handoff/reply-frame.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';

/**
 * The greeting and sign-off are kept in localStorage for good, so no candidate's data may be kept in them
 * (red-team findings: a name, a date of birth, a passport number, the id in another case, an e-mail
 * written "(at)" were kept in the sign-off), while the frames agents write stay kept.
 */

const capitalised = fc.stringMatching(/^[A-Z][a-z]{2,8}$/);
/** A given name and a family name: real given names, made-up family names (no word ends so). */
const fullName = fc.tuple(
  fc.constantFrom('Gertrude', 'Mehmet', 'Ana', 'Zoë', 'Øyvind', 'José', 'Nguyen', 'Ifeoma', 'Łukasz'),
  fc.tuple(capitalised, fc.constantFrom('sson', 'ova', 'escu', 'ini', 'oglu', 'ak')).map(([stem, end]) => stem + end),
);
const date = fc.date({ min: new Date('1930-01-01'), max: new Date('2012-12-31'), noInvalidDate: true }).chain((day) => {
  const [y, m, d] = [day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate()];
  const two = (n: number) => String(n).padStart(2, '0');
  const month = day.toLocaleString('en', { month: 'long', timeZone: 'UTC' });
  return fc.constantFrom(
    `${two(d)}.${two(m)}.${y}`,
    `${y}-${two(m)}-${two(d)}`,
    `${d}/${m}/${y}`,
    `${d} ${month} ${y}`,
    `${month} ${d}, ${y}`,
  );
});
const word = fc.stringMatching(/^[a-z][a-z0-9]{1,10}$/);
const email = fc
  .tuple(word, word, fc.constantFrom('org', 'com', 'de', 'example'))
  .chain(([user, domain, tld]) =>
    fc.constantFrom(
      `${user}@${domain}.${tld}`,
      `${user} (at) ${domain}.${tld}`,
      `${user}[at]${domain}[dot]${tld}`,
      `${user} at ${domain} dot ${tld}`,
      `${user} @ ${domain}.${tld}`,
    ),
  );
/** A candidate's id, and how it is written in the frame: another case, an invisible character inside. */
const id = fc
  .tuple(fc.stringMatching(/^[a-z]{3,6}_[0-9]{4,8}$/), fc.constantFrom('\u200b', '\u00ad', '\u2060', ''))
  .map(([value, hidden]) => ({
    value,
    written: `${value.slice(0, 3)}${hidden}${value.slice(3)}`.toUpperCase(),
  }));
const document = fc
  .tuple(fc.stringMatching(/^[A-Z]{1,2}$/), fc.stringMatching(/^[0-9]{6,8}$/))
  .map(([letters, digits]) => letters + digits);

const GREETINGS = [
  'Hello,',
  'Hi there,',
  'Dear Sir or Madam,',
  'Dear customer,',
  'Hello Team,',
  'Good morning,',
  'Dear Valued Customer,',
  // Letters' own words in other languages (the day's review found these refused as names).
  'Sehr geehrte Damen und Herren,',
  'Madame, Monsieur,',
  'Estimado cliente,',
  // Greeting words of those languages, "Account Holder" and a title alone (the review found these refused as names).
  'Guten Tag,',
  'Hallo zusammen,',
  'Buenos días,',
  'Bom dia,',
  'Dear Account Holder,',
  'Dear Mr/Ms,',
  '',
];
const SIGN_OFF_LINES = [
  'Kind regards,',
  'Best,',
  'The Support Team',
  'Sam from Support',
  'Mon-Fri 09.00-17.00',
  'Yours sincerely,',
  'Customer Care, Acme Bank',
  'Thank you for your patience.',
  'Support 2025-2026, desk 4410',
  // Who the agent works for, ended by an organisation's word (the day's review found these refused as names).
  'Mit freundlichen Grüßen',
  'Acme Corp Support',
  'Candidate Lookup Support',
  'Customer Support, Open Banking Ltd',
  'Client Onboarding Team, North America',
  // Set phrases and a team's field of work (the review found these refused as a name: "Have a nice day").
  'Have a nice day',
  'Have a great weekend',
  'Cheers,',
  'Warm regards,',
  'Best wishes,',
  'Quick update',
  'Quick update below',
  'Account Security',
  'Fraud Prevention',
  'Acme Payments',
  // Closings of other languages, a department and when it answers (the review found these refused as names).
  'Met vriendelijke groet,',
  'Have a Great Day!',
  'Financial Crime Prevention',
  'Identity & Fraud Prevention',
  'Available Monday to Friday',
  'Closed Dec 2026',
];
/** Sign-off lines as agents write them in lower case, where a name would stand (the review of lower-case names). */
const LOWER_CASE_LINES = [
  'kind regards',
  'thanks',
  'best wishes',
  'the support team',
  'thanks so much',
  'thanks a lot',
  'talk soon',
  'hope this helps',
  'thanks for reaching out',
  'take care',
  'sam from support',
  'sam, senior analyst',
];
const none = { ids: [], details: [] };
/** How a name is written: as it is, in lower case, in capitals, or with its case mixed. */
const writtenIn = fc.constantFrom(
  (name: string) => name,
  (name: string) => name.toLowerCase(),
  (name: string) => name.toUpperCase(),
  (name: string) => name.replace(/\p{L}/gu, (letter, index: number) => (index % 2 ? letter.toLowerCase() : letter.toUpperCase())),
);
/** A record as a compliance user's page has it: the candidate's name in its identities. */
const recordOf = (given: string, family: string) =>
  ({
    status: 'approved',
    refId: 'r1',
    identities: { given_name: { type: 'string', value: given }, family_name: { type: 'string', value: family } },
  }) as unknown as CandidateRecord;

describe('the greeting and sign-off kept in the browser', () => {
  it('never saves a frame holding a generated name, date, e-mail address, document number or the candidate id', () => {
    const greeting = fc.constantFrom(...GREETINGS);
    const held = fc.oneof(
      fullName.map(([given, family]) => ({ greeting: `Dear ${given} ${family} and team,`, signOff: '' })),
      fullName.map(([given, family]) => ({ greeting: `hello ${given.toLowerCase()} ${family.toLowerCase()},`, signOff: '' })),
      fc.tuple(greeting, fullName).map(([g, [given, family]]) => ({ greeting: g, signOff: `Kind regards,\nRe: ${given} ${family}` })),
      fc.tuple(greeting, date).map(([g, d]) => ({ greeting: g, signOff: `Best,\nborn ${d}` })),
      fc.tuple(greeting, email).map(([g, e]) => ({ greeting: g, signOff: `Sam\n${e}` })),
      fc.tuple(greeting, document).map(([g, d]) => ({ greeting: g, signOff: `passport ${d}` })),
    );
    fc.assert(
      fc.property(held, (frame) => {
        expect(frameProblem(frame, none), JSON.stringify(frame)).toMatch(/^Not saved/);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(greeting, id, (g, { value, written }) => {
        expect(frameProblem({ greeting: g, signOff: `Re: ${written}` }, { ids: [value], details: [] })).toMatch(/this candidate's id/);
      }),
      { numRuns: 200 },
    );
  });

  it('attack: refuses the candidate\'s id with any mark or space between its parts, and any id written apart after "user" or "cust"', () => {
    // A space, "/", "#", ":" or a dash between the parts kept an id ("user 7781" on another page, "cust/000482" on its own).
    const mark = fc.constantFrom(' ', '/', '#', ': ', ' – ', '—', ' / ', '·', '\\', ' # ');
    const parts = fc.tuple(
      fc.constantFrom('user', 'cust', 'customer', 'ticket', 'case', 'ref', 'client'),
      fc.stringMatching(/^[0-9]{4,7}$/),
    );
    fc.assert(
      fc.property(fc.constantFrom(...GREETINGS), parts, mark, (g, [letters, digits], between) => {
        const own = { ids: [`${letters}_${digits}`], details: [] };
        expect(frameProblem({ greeting: g, signOff: `Re: ${letters}${between}${digits}` }, own)).toMatch(/this candidate's id/);
        expect(frameProblem({ greeting: g, signOff: `Re: ${letters.toUpperCase()}${between}${digits}` }, none)).toMatch(
          /a document or reference number/,
        );
      }),
      { numRuns: 200 },
    );
  });

  it('attack: refuses any candidate name, in any case, anywhere in a frame, where the page has their record', () => {
    const signOff = fc.array(fc.constantFrom(...SIGN_OFF_LINES), { minLength: 1, maxLength: 3 }).map((lines) => lines.join('\n'));
    fc.assert(
      fc.property(fullName, writtenIn, signOff, fc.nat(), ([given, family], write, s, at) => {
        const words = s.split(' ');
        const where = at % (words.length + 1);
        const withName = [...words.slice(0, where), write(`${given} ${family}`), ...words.slice(where)].join(' ');
        const known = { ids: ['r1'], details: detailsOf(recordOf(given, family)) };
        expect(frameProblem({ greeting: 'Hello,', signOff: withName }, known), withName).toMatch(/this candidate's name/);
      }),
      { numRuns: 300 },
    );
  });

  it("attack: refuses any one word of the candidate's name, in any case, inside a sentence, and keeps the ordinary frames on their page", () => {
    // "Thanks again ada, for your patience" was kept for Ada Augusta Lovelace: only her name's parts
    // ("Ada Augusta") and the whole were compared, not each word of them.
    const candidate = fc
      .tuple(fullName, fullName, fc.boolean())
      .map(([[given, family], [second, other], doubleFamily]) =>
        doubleFamily ? { given, family: `${family}-${other}` } : { given: `${given} ${second}`, family },
      );
    const sentence = fc.constantFrom(
      (word: string) => ({ greeting: 'Hello,', signOff: `Thanks again ${word}, for your patience` }),
      (word: string) => ({ greeting: `Hi, we spoke with ${word} today.`, signOff: '' }),
      (word: string) => ({ greeting: 'Hello,', signOff: `Kind regards,\nSam (for ${word})` }),
    );
    fc.assert(
      fc.property(candidate, writtenIn, sentence, fc.nat(), ({ given, family }, write, place, at) => {
        const words = `${given} ${family}`.split(/[\s-]/u);
        const frame = place(write(words[at % words.length]!));
        const known = { ids: ['r1'], details: detailsOf(recordOf(given, family)) };
        expect(frameProblem(frame, known), JSON.stringify(frame)).toMatch(/this candidate's name/);
      }),
      { numRuns: 150 },
    );
    // Common words in the frames agents write are no candidate's name (fullName holds none of them).
    const signOff = fc.array(fc.constantFrom(...SIGN_OFF_LINES, ...LOWER_CASE_LINES), { maxLength: 3 }).map((lines) => lines.join('\n'));
    fc.assert(
      fc.property(candidate, fc.constantFrom(...GREETINGS), signOff, ({ given, family }, greeting, s) => {
        const known = { ids: ['r1'], details: detailsOf(recordOf(given, family)) };
        expect(frameProblem({ greeting, signOff: s }, known), s).toBeUndefined();
      }),
      { numRuns: 150 },
    );
  });

  it("attack: refuses any full name, in any case, where a frame puts a name, on a page that knows no candidate's name", () => {
    const placed = fc.constantFrom(
      (name: string) => ({ greeting: `Dear ${name},`, signOff: '' }),
      (name: string) => ({ greeting: `hi, ${name}`, signOff: '' }),
      (name: string) => ({ greeting: 'Hello,', signOff: `Thanks ${name}` }),
      (name: string) => ({ greeting: 'Hello,', signOff: `Kind regards,\n${name}` }),
      (name: string) => ({ greeting: 'Hello,', signOff: `kind regards, ${name}` }),
      (name: string) => ({ greeting: 'Hello,', signOff: `Re: ${name}, born in Lisbon` }),
      (name: string) => ({ greeting: 'Hello,', signOff: `${name} and team` }),
      (name: string) => ({ greeting: 'Hello,', signOff: `Best wishes from ${name}` }),
      (name: string) => ({ greeting: `Greetings from ${name}`, signOff: '' }),
      (name: string) => ({ greeting: `Hello from the Acme team to ${name},`, signOff: '' }),
      (name: string) => ({ greeting: `Hello from Acme, ${name},`, signOff: '' }),
      (name: string) => ({ greeting: `Good morning, ${name}`, signOff: '' }),
      (name: string) => ({ greeting: `Guten Tag, ${name}`, signOff: '' }),
      (name: string) => ({ greeting: `Dear Mr/Ms ${name},`, signOff: '' }),
    );
    fc.assert(
      fc.property(fullName, writtenIn, placed, ([given, family], write, place) => {
        const frame = place(write(`${given} ${family}`));
        expect(frameProblem(frame, none), JSON.stringify(frame)).toMatch(/a person's name/);
      }),
      { numRuns: 500 },
    );
  });

  it("keeps the signed-in agent's own full name, in any case, and refuses another's beside it", () => {
    const userName = fc.constantFrom(
      (given: string, family: string) => `${given}.${family}`.toLowerCase(),
      (given: string, family: string) => `${given}.${family}@example.org`,
      (given: string, family: string) => `${given} ${family}`,
    );
    const signed = fc.constantFrom(
      (name: string) => `Kind regards, ${name}`,
      (name: string) => `Thanks,\n${name}`,
      (name: string) => `${name}\nCustomer Support, Open Banking Ltd`,
    );
    fc.assert(
      fc.property(fullName, fullName, userName, writtenIn, signed, ([given, family], other, user, write, sign) => {
        const own = sign(write(`${given} ${family}`));
        expect(frameProblem({ greeting: 'Hello,', signOff: own }, none, user(given, family)), own).toBeUndefined();
        fc.pre(other[1] !== family);
        const another = sign(write(`${other[0]} ${other[1]}`));
        expect(frameProblem({ greeting: 'Hello,', signOff: another }, none, user(given, family)), another).toMatch(/a person's name/);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the ordinary frames in lower case too', () => {
    const lower = (line: string) => line.toLowerCase();
    const signOff = fc
      .array(fc.constantFrom(...SIGN_OFF_LINES.map(lower), ...LOWER_CASE_LINES), { maxLength: 3 })
      .map((lines) => lines.join('\n'));
    fc.assert(
      fc.property(fc.constantFrom(...GREETINGS.map(lower)), signOff, (greeting, s) => {
        expect(frameProblem({ greeting, signOff: s }, none), s).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the ordinary frames', () => {
    const signOff = fc.array(fc.constantFrom(...SIGN_OFF_LINES), { maxLength: 3 }).map((lines) => lines.join('\n'));
    fc.assert(
      fc.property(fc.constantFrom(...GREETINGS), signOff, (greeting, s) => {
        expect(frameProblem({ greeting, signOff: s }, { ids: ['cust_000482'], details: [] })).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('keeps an ordinary frame whatever the candidate\'s city is, unless it names the city capitalised after "from"', () => {
    // In the town of Best (NL), "Hello from the best team," was refused as where the candidate lives.
    const fromGreetings = ['Hello from the best team,', 'hello from all of us,', 'Hello from the Acme team,', 'Greetings from Hong Kong,'];
    const greeting = fc.constantFrom(...GREETINGS, ...fromGreetings);
    const signOff = fc.array(fc.constantFrom(...SIGN_OFF_LINES, ...LOWER_CASE_LINES), { maxLength: 3 }).map((lines) => lines.join('\n'));
    // The city as a record may write it: a word of the frame itself, the likeliest to be matched, or any word.
    const city = fc.tuple(greeting, signOff, fc.nat(), fc.boolean(), capitalised, writtenIn);
    fc.assert(
      fc.property(city, ([g, s, pick, own, other, write]) => {
        const words = `${g} ${s}`.match(/\p{L}+/gu) ?? [];
        const place = write(own && words.length > 0 ? words[pick % words.length]! : other);
        // The capitalised words after a greeting's "from", up to its comma: "Acme", "Hong", "Kong".
        const named =
          /^\p{L}+ from /iu.test(g) &&
          g
            .split(',')[0]!
            .split(' ')
            .slice(2)
            .some((word) => /^\p{Lu}/u.test(word) && word.toLowerCase() === place.toLowerCase());
        const problem = frameProblem({ greeting: g, signOff: s }, { ids: [], details: [], places: [place] }, 'sam');
        if (named) expect(problem, `${place}: ${g}`).toMatch(/is where this candidate lives/);
        else expect(problem, `${place}: ${g}\n${s}`).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });
});
