import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { framed, frameInUse, frameProblem, type ReplyFrame, reframed, trimmedFrame } from '../../src/app/handoff/reply-frame.ts';
import { capitalised, GREETINGS, SIGN_OFF_LINES } from './reply-frame-corpus.ts';

/**
 * The greeting and sign-off go around the reply as they are typed, saved or not (UX review: typed and not
 * saved, they were left out of the copied reply without a word), once the frame's rules let them through:
 * typed key by key, the reply holds at each key the last frame the rules let through, and at the end the
 * one typed whenever the rules keep it. A refused one is never in it.
 */

const known = { ids: ['a3b6c9d2-1e4f-4a7b-8c0d-9e2f5a8b1c4d', '65f1c2a9e4b0d3a1f0c9b805'], details: [] };
/** A greeting or sign-off line as agents write them, or one with a customer's name, e-mail address or number in it. */
const line = (general: readonly string[]) =>
  fc.oneof(
    fc.constantFrom(...general),
    capitalised.map((name) => `Hello ${name},`),
    fc.constantFrom(
      'Kind regards,\nZoë Ångström',
      'zoe.angstrom@example.se',
      'Call +46 70-123 45 67',
      'Re: a3b6c9d2-1e4f-4a7b-8c0d-9e2f5a8b1c4d',
    ),
  );
/** Each state of the fields as the frame is typed, key by key: the greeting, then the sign-off. */
const keys = ({ greeting, signOff }: ReplyFrame): ReplyFrame[] => [
  ...[...greeting].map((_, at) => ({ greeting: [...greeting].slice(0, at + 1).join(''), signOff: '' })),
  ...[...signOff].map((_, at) => ({ greeting, signOff: [...signOff].slice(0, at + 1).join('') })),
];

describe('a greeting and sign-off typed, saved or not', () => {
  it('are around the reply at each key once the rules let them through, and never when they refuse them', () => {
    const body = fc.string({ minLength: 1, maxLength: 60 }).filter((b) => b.trim() === b && b !== '');
    const typed = fc.record({ greeting: line(GREETINGS), signOff: line(SIGN_OFF_LINES) });
    fc.assert(
      fc.property(body, typed, (b, frame) => {
        let applied: ReplyFrame = { greeting: '', signOff: '' };
        let text = b;
        for (const fields of keys(frame)) {
          const next = frameInUse(applied, fields, known, 'sam');
          const refused = frameProblem(trimmedFrame(fields), known, 'sam');
          expect(next).toEqual(refused === undefined ? trimmedFrame(fields) : applied);
          text = reframed(text, applied, next);
          applied = next;
          expect(text).toBe(framed(b, applied));
        }
        if (frameProblem(trimmedFrame(frame), known, 'sam') === undefined) expect(text).toBe(framed(b, trimmedFrame(frame)));
      }),
      { numRuns: 120 },
    );
  });
});
