import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { notARecord } from '../../src/server/answer/not-a-record.ts';
import { apiError, renderWithProviders, stubApi } from './render.tsx';

/**
 * An answer of the service's that is no record (`not_a_record`) comes back the same when asked again:
 * its screen offered "Try again" as its one action, which gave the same answer. It now says that trying
 * again will not change it, and who can act: an administrator, with the message's words.
 */

const PATH = '/api/candidates/refId/abc';

async function shown(failure: ReturnType<typeof notARecord>) {
  stubApi({ candidates: { [PATH]: apiError(failure.status, failure.code, failure.message) } });
  const { unmount } = renderWithProviders('/candidates/refId/abc');
  const card = await screen.findByRole('alert');
  expect(card).toHaveAttribute('data-error-kind', 'not_a_record');
  return { card, unmount };
}

describe('the screen of an answer that is no record', () => {
  it('an encrypted or unknown answer: no Try again, what will not change it, and who can act', async () => {
    const failure = notARecord({ cause: 'unknown' }, { baseUrl: 'KYC_BASE_URL', key: 'KYC_API_KEY' });
    const { card } = await shown(failure);
    expect(within(card).getByRole('heading', { name: 'The answer is not a readable record' })).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(card).toHaveTextContent(failure.message);
    expect(card).toHaveTextContent('Trying again will not change this while the KYC service answers so: an administrator must act on it');
    // The way on is still there.
    expect(within(card).getByRole('link', { name: 'New lookup' })).toBeInTheDocument();
  });

  it('every cause alike: a list, a text, another status, a web page', async () => {
    for (const why of [{ cause: 'list' }, { cause: 'text' }, { cause: 'status', status: 'pending' }, { cause: 'web_page' }] as const) {
      const { card, unmount } = await shown(notARecord(why));
      expect(within(card).queryByRole('button', { name: 'Try again' }), why.cause).not.toBeInTheDocument();
      expect(card, why.cause).toHaveTextContent('Trying again will not change this');
      unmount();
    }
  });
});
