import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIST_KEY_CHECK_ADVICE, listKeyCheckAdvice } from '../../src/kyc/contract/list-key-check.ts';
import { ROLES } from '../../src/kyc/contract/roles.ts';

/** The key check's advice, by role (list-key-check.ts): only a support user's is another, and only the advice changes. */
describe('property: the key check’s advice is reworded for support users only, and only the advice', () => {
  const role = fc.option(fc.constantFrom(...ROLES), { nil: undefined });

  it('a message ending with the advice: the same facts, the advice a support user can follow', () => {
    fc.assert(
      fc.property(fc.string(), role, (facts, who) => {
        const told = listKeyCheckAdvice(`${facts}${LIST_KEY_CHECK_ADVICE}`, who);
        if (who !== 'support') {
          expect(told).toBe(`${facts}${LIST_KEY_CHECK_ADVICE}`);
          return;
        }
        expect(told.startsWith(facts)).toBe(true);
        expect(told.slice(facts.length)).toMatch(
          /^Ask a compliance user to open any candidate here, or an administrator to configure a status-level key/,
        );
        expect(told).not.toContain('Open any candidate as a compliance user');
      }),
    );
  });

  it('any other message, whoever reads it: as the server said it', () => {
    fc.assert(
      fc.property(fc.string(), role, (message, who) => {
        fc.pre(!message.endsWith(LIST_KEY_CHECK_ADVICE));
        expect(listKeyCheckAdvice(message, who)).toBe(message);
      }),
    );
  });
});
