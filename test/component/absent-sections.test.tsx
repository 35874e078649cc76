import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo } from '../../src/kyc/contract/api.ts';
import { json, renderWithProviders, stubApi } from './render.tsx';

/**
 * What the candidate page says of what an answer lacks (the audit against the service's published
 * answers): only the status and one id can be relied on, and a key has one of three scopes, so a missing
 * section or id is said as "not in this response", never as a fact about the key or the candidate; and a
 * field the notice above names as unreadable is never "not provided" beside it.
 */

const BASE = {
  status: 'inreview',
  refId: 'ref-1',
  recordId: '65f2000000000000000000a1',
  blockPassID: 'bp-1',
  isArchived: false,
  waitingDate: '2024-03-01T10:00:00.000Z',
  inreviewDate: '2024-03-02T10:00:00.000Z',
};
const ADA = { given_name: { type: 'string', value: 'Ada' }, family_name: { type: 'string', value: 'Lovelace' } };

/** Each answer by the path it is asked at, as the service sent it (not as this project's contract would write it). */
function showAnswers(answers: Record<string, unknown>, path: string, session?: SessionInfo) {
  const candidates = Object.fromEntries(Object.entries(answers).map(([at, data]) => [at, () => json({ status: 'success', data })]));
  stubApi({ candidates, ...(session ? { session } : {}) });
  return renderWithProviders(path);
}

const show = (data: unknown, session?: SessionInfo) =>
  showAnswers({ '/api/candidates/refId/ref-1': data }, '/candidates/refId/ref-1', session);

afterEach(() => vi.restoreAllMocks());

describe('an answer without a refId', () => {
  it('says "not in this response" in the header, as for a missing recordId, never "none assigned"', async () => {
    const { refId: _, ...withoutRefId } = BASE;
    showAnswers({ '/api/candidates/recordId/65f2000000000000000000a1': withoutRefId }, '/candidates/recordId/65f2000000000000000000a1');
    const header = (await screen.findByRole('heading', { level: 1 })).closest('header')!;
    expect(within(header).getByText('refId').nextElementSibling).toHaveTextContent(/^not in this response$/);
    expect(document.body).not.toHaveTextContent(/none assigned/);
  });
});

describe('a field the notice names as unreadable', () => {
  it('is "sent, but could not be read" beside it, not "not provided": an e-mail without a value, an address as an object', async () => {
    show({
      ...BASE,
      identities: {
        ...ADA,
        email: { type: 'string' },
        address: { type: 'string', value: { city: 'London', country: 'GBR' } },
      },
    });
    const notice = await screen.findByTestId('unread-fields');
    expect(notice).toHaveTextContent('identities.email');
    expect(notice).toHaveTextContent('identities.address');
    const card = screen.getByRole('heading', { name: 'Identity' }).closest('section')!;
    expect(within(card).getByText('E-mail').nextElementSibling).toHaveTextContent(/^sent, but could not be read \(see above\)$/);
    expect(within(card).getByText('Date of birth').nextElementSibling).toHaveTextContent(/^not provided$/);
    expect(screen.getByTestId('contact-unread')).toHaveTextContent(/^Address: sent, but could not be read \(see above\)\.$/);
    // The phone was not sent at all: that one is "not provided".
    expect(screen.getByTestId('contact-not-provided')).toHaveTextContent(/^No phone number was provided\.$/);
    expect(document.body).not.toHaveTextContent(/No address/);
  });

  it('attack: an attribute named "email.x" with an unreadable value does not pass for the e-mail, nor "address.x" for the address', async () => {
    show({ ...BASE, identities: { ...ADA, 'email.x': 7, 'address.x': [1] } });
    const notice = await screen.findByTestId('unread-fields');
    expect(notice).toHaveTextContent('identities.email.x');
    const card = screen.getByRole('heading', { name: 'Identity' }).closest('section')!;
    expect(within(card).getByText('E-mail').nextElementSibling).toHaveTextContent(/^not provided$/);
    expect(screen.getByTestId('contact-not-provided')).toHaveTextContent(/^No address or phone number was provided\.$/);
    expect(screen.queryByTestId('contact-unread')).not.toBeInTheDocument();
  });
});
