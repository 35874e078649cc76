import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { notFoundScreen } from '../../src/app/candidate/not-found-screen.ts';

/**
 * A not-found page's heading names the kinds the id was looked for as: an id tried both ways (the box's guess
 * and the page's one try of the other kind, or the button) is "refId or recordId", whatever its case; a
 * 24-hex id in capitals looked up as a recordId used to be titled a recordId alone even then.
 */
const hex24 = fc.stringMatching(/^[0-9a-fA-F]{24}$/);
const kind = fc.constantFrom('refId' as const, 'recordId' as const);
const actions = {
  retry: 'retry',
  signInAgain: 'signInAgain',
  tryOtherKind: 'tryOtherKind',
  withoutInvisible: 'withoutInvisible',
  withoutMarks: 'withoutMarks',
  inLowerCase: 'inLowerCase',
};
const screenOf = (id: string, asKind: 'refId' | 'recordId', bothKinds: boolean) =>
  notFoundScreen({ kind: asKind, id, bothKinds, actions, waitId: 'wait' });

describe('the not-found heading of a 24-hex id', () => {
  it('property: tried both ways, it names both kinds and says so, and offers the id in lower case exactly when it has capitals', () => {
    fc.assert(
      fc.property(hex24, kind, (id, asKind) => {
        const screen = screenOf(id, asKind, true);
        expect(screen.title).toBe(`No candidate with refId or recordId "${id}"`);
        expect(String(screen.body)).toMatch(/^The KYC service has no candidate with this id, as a refId or as a recordId\./);
        expect(screen.action).toBe(id === id.toLowerCase() ? undefined : 'inLowerCase');
      }),
    );
  });

  it('property: looked up as a recordId alone, it names the recordId alone', () => {
    fc.assert(
      fc.property(hex24, (id) => {
        const screen = screenOf(id, 'recordId', false);
        expect(screen.title).toBe(`No candidate with recordId "${id}"`);
        expect(String(screen.body)).not.toMatch(/as a refId or as a recordId/);
      }),
    );
  });
});
