import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameProblem } from '../../src/app/handoff/reply-frame.ts';
import { fullName, GREETINGS, none, SIGN_OFF_LINES } from './reply-frame-corpus.ts';

/**
 * The greeting and sign-off are kept in localStorage for good, so no candidate's data may be kept in them
 * (red-team findings: a name, a date of birth, a passport number, the id in another case, an e-mail
 * written "(at)" were kept in the sign-off), while the frames agents write stay kept.
 */

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
        // On another page a year alone written apart ("case 2026") is kept, as a year is everywhere (it was
        // refused); joined by "#" or "—" it is one word of letters and digits, as "case-2026" is.
        const another = frameProblem({ greeting: g, signOff: `Re: ${letters.toUpperCase()}${between}${digits}` }, none);
        if (/^(?:19|20)[0-9]{2}$/.test(digits) && !['#', '—'].includes(between)) expect(another).toBeUndefined();
        else expect(another).toMatch(/a document or reference number/);
      }),
      { numRuns: 200 },
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
});
