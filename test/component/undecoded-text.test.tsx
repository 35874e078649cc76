import { screen } from '@testing-library/react';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { candidateRecordSchema } from '../../src/kyc/contract/schema.ts';
import { replacementCharactersIn } from '../../src/kyc/view/replacement-characters.ts';
import { json, renderWithProviders, stubApi } from './render.tsx';

/**
 * An answer whose declared charset this server cannot decode (UTF-16, Shift_JIS…) reaches the page with
 * U+FFFD in place of what could not be read: the page says how many, once, beside the unread-fields
 * notice, rather than showing "Silv�o" as if it were sent so.
 */

const BASE = {
  status: 'inreview',
  refId: 'ref-1',
  recordId: '65f2000000000000000000a1',
  isArchived: false,
  waitingDate: '2024-03-01T10:00:00.000Z',
};

function show(data: unknown) {
  stubApi({ candidates: { '/api/candidates/refId/ref-1': () => json({ status: 'success', data }) } });
  return renderWithProviders('/candidates/refId/ref-1');
}

afterEach(() => vi.restoreAllMocks());

describe('characters of the answer that could not be read', () => {
  it('are counted over the record’s strings and said once, beside the fields not read', async () => {
    show({
      ...BASE,
      identities: {
        given_name: { type: 'string', value: 'Jo\uFFFD\uFFFDo' },
        family_name: { type: 'string', value: 'Silv\uFFFDo' },
        // An attribute that cannot be read: the unread-fields notice, and this one under it.
        email: { type: 'string' },
      },
      customFields: { 'not\uFFFD': 'a \uFFFD' },
    });
    const notice = await screen.findByTestId('undecoded-text');
    expect(notice).toHaveTextContent('5 characters of the service’s answer could not be read (shown as \uFFFD).');
    expect(screen.getAllByTestId('undecoded-text')).toHaveLength(1);
    expect(screen.getByTestId('unread-fields').nextElementSibling).toBe(notice);
  });

  it('says nothing of an answer read whole', async () => {
    show({ ...BASE, identities: { given_name: { type: 'string', value: 'João' }, family_name: { type: 'string', value: 'Silvão' } } });
    expect(await screen.findByRole('heading', { level: 1, name: 'João Silvão' })).toBeInTheDocument();
    expect(screen.queryByTestId('undecoded-text')).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/could not be read \(shown as/);
  });

  it('says one character in the singular', async () => {
    show({ ...BASE, identities: { given_name: { type: 'string', value: 'Jo\uFFFDo' } } });
    expect(await screen.findByTestId('undecoded-text')).toHaveTextContent(/^1 character of the service’s answer could not be read/);
  });

  it('property: the count is the U+FFFD in every string of the answer, keys and values kept beside the map included', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'é', '\uFFFD', ' ') });
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.boolean(), fc.array(tie('value'), { maxLength: 3 }), tie('object')),
      object: fc.dictionary(text, tie('value'), { maxKeys: 3 }),
    }));
    const attribute = fc.record({ type: fc.constant('string'), value: text });
    fc.assert(
      fc.property(
        fc.dictionary(text, attribute, { maxKeys: 3 }),
        fc.dictionary(text, json.value, { maxKeys: 3 }),
        (identities, customFields) => {
          const sent = { ...BASE, identities, customFields };
          const record = candidateRecordSchema.parse(sent);
          // What came, counted in the JSON as sent: every U+FFFD is in a string, and JSON.stringify writes it as itself.
          const expected = [...JSON.stringify(sent)].filter((char) => char === '\uFFFD').length;
          expect(replacementCharactersIn(record)).toBe(expected);
        },
      ),
    );
  });
});
