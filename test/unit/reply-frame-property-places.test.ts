import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameProblem } from '../../src/app/handoff/reply-frame.ts';
import { capitalised, GREETINGS, LOWER_CASE_LINES, SIGN_OFF_LINES, writtenIn } from './reply-frame-corpus.ts';

/**
 * The greeting and sign-off are kept in localStorage for good, so no candidate's data may be kept in them
 * (red-team findings: a name, a date of birth, a passport number, the id in another case, an e-mail
 * written "(at)" were kept in the sign-off), while the frames agents write stay kept.
 */

describe('the greeting and sign-off kept in the browser', () => {
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
