import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detailsOf, frameProblem } from '../../src/app/handoff/reply-frame.ts';
import { fullName, GREETINGS, LOWER_CASE_LINES, none, recordOf, SIGN_OFF_LINES, writtenIn } from './reply-frame-corpus.ts';

/**
 * The greeting and sign-off are kept in localStorage for good, so no candidate's data may be kept in them
 * (red-team findings: a name, a date of birth, a passport number, the id in another case, an e-mail
 * written "(at)" were kept in the sign-off), while the frames agents write stay kept.
 */

describe('the greeting and sign-off kept in the browser', () => {
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

  it('attack: refuses one given name after a closing, in any case, and keeps a closing before the ordinary lines', () => {
    // "Cheers gertrude", "Thank you, gertrude", "Thanks again xiuying," were kept on a support user's page.
    const closing = fc.constantFrom(
      'Cheers',
      'Cheers,',
      'Thank you,',
      'Thanks again',
      'Kind regards,',
      'Many thanks,',
      'Thank you so much,',
    );
    fc.assert(
      fc.property(closing, fullName, writtenIn, (close, [given], write) => {
        const signOff = `${close} ${write(given)}`;
        expect(frameProblem({ greeting: 'Hello,', signOff }, none, 'sam'), signOff).toMatch(/reads like a person's name/);
      }),
      { numRuns: 200 },
    );
    // A closing before a sentence, a team, the user's own name or another closing names no one.
    const line = fc.constantFrom(...SIGN_OFF_LINES, ...LOWER_CASE_LINES, 'for your patience', 'the Acme team', 'Sam', 'sam');
    fc.assert(
      fc.property(closing, line, (close, rest) => {
        // After a comma, as a line of its own would be ("Cheers Available Monday" reads as a name without).
        const signOff = `${close.endsWith(',') ? close : `${close},`} ${rest}`;
        expect(frameProblem({ greeting: 'Hello,', signOff }, none, 'sam'), signOff).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });
});
