import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { notFoundScreen } from '../../src/app/candidate/not-found-screen.ts';

/**
 * The not-found screen's one-click offer of the id meant (without a sentence's marks, or invisible
 * characters): never of text that reads like personal data, which it would send again without the search
 * box's question; and its sentence says "it" of one mark, "them" of more.
 */
const actions = {
  retry: 'retry',
  signInAgain: 'signInAgain',
  tryOtherKind: 'tryOtherKind',
  withoutInvisible: 'withoutInvisible',
  withoutMarks: 'withoutMarks',
  inLowerCase: 'inLowerCase',
};
const screenOf = (id: string) => notFoundScreen({ kind: 'refId', id, bothKinds: false, actions, waitId: 'wait' });

const capitalised = fc
  .tuple(fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'), fc.stringMatching(/^[a-z]{1,10}$/))
  .map(([first, rest]) => first + rest);
const mark = fc.constantFrom(',', '!', '?', ';', ':', '.', ')', '"');

describe('the not-found offer of the id meant', () => {
  it.each(['Maria Souza,', 'John Smith!', 'john smith?', '(Maria Souza)', 'maria.souza@example.com,', 'Maria Souza\u200b'])(
    'attack: %j is not offered without its marks (or invisible characters) as a one-click lookup, and is said to read like personal data',
    (id) => {
      const screen = screenOf(id);
      expect(screen.action).toBeUndefined();
      expect(String(screen.body)).toMatch(
        /It reads like (a person's name|an e-mail address): the KYC service finds candidates by refId or recordId only\./,
      );
      expect(String(screen.body)).not.toMatch(/likely the one meant/);
    },
  );

  it("property: a name with a sentence's mark after it is never offered as a lookup", () => {
    fc.assert(
      fc.property(capitalised, capitalised, mark, (first, last, after) => {
        expect(screenOf(`${first} ${last}${after}`).action).toBeUndefined();
      }),
    );
  });

  it.each([
    ['support-ticket-4410,', 'the comma after it', 'it'],
    ['#user-7781', 'the hash before it', 'it'],
    ['(cust_000482)', 'the brackets around it', 'them'],
    ["'user-7781',", 'the quotes around it and the comma after it', 'them'],
    ['cust_000482..', 'the two full stops after it', 'them'],
  ])('%j is offered without %s, "the id without %s"', (id, marks, pronoun) => {
    const screen = screenOf(id);
    expect(screen.action).toBe('withoutMarks');
    expect(screen.body).toBe(
      `The refId has ${marks}, likely from the sentence it was copied from: the id without ${pronoun} is likely the one meant.`,
    );
  });

  it("says a refId that is no recordId isn't one in plain words", () => {
    expect(screenOf('crm-00000').body).toBe(
      "The KYC service has no candidate with this refId. Check the id (it isn't a recordId either: those are 24 hexadecimal characters).",
    );
  });
});
