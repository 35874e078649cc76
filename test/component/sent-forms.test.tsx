import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, renderWithProviders, stubApi } from './render.tsx';

/**
 * What the service sends in a form the contract does not name is shown for what it is: an id sent as a
 * JSON number is the record's id, read as its digits and said so (before: "The response has an unexpected
 * shape … neither a refId nor a recordId that can be read"); a value sent as empty text is "sent empty"
 * (before: "not in this response", which points at the key's scope; a picture "A file of an unknown type ·
 * 0 B" with a Download of nothing; a certificate "not valid JSON (Unexpected end of JSON input)").
 */

function show(id: string, data: unknown) {
  const path = `/api/candidates/refId/${id}`;
  stubApi({ candidates: { [path]: () => json({ status: 'success', data }) } });
  return renderWithProviders(`/candidates/refId/${id}`);
}

const header = async () => (await screen.findByRole('heading', { level: 1 })).closest('header')!;

describe('an id sent as a JSON number', () => {
  it('the record is shown, its refId as its digits, said sent as a number', async () => {
    show('12345', {
      status: 'approved',
      refId: 12345,
      approvedDate: '2026-11-01T10:00:00.000Z',
      identities: { given_name: { type: 'string', value: 'Ana' } },
    });
    const card = await header();
    expect(within(card).getByRole('heading', { level: 1 })).toHaveTextContent('Ana');
    const refId = within(card).getByText('refId').nextElementSibling as HTMLElement;
    expect(refId).toHaveTextContent('12345');
    expect(within(refId).getByTestId('id-sent-as-number')).toHaveTextContent('(sent as a number, read as its digits)');
    expect(screen.queryByText(/unexpected shape/)).not.toBeInTheDocument();
  });

  it('an id sent as text carries no such note; a fractional number is still not an id', async () => {
    show('ref-1', { status: 'approved', refId: 'ref-1', recordId: 12345.5 });
    await header();
    expect(screen.queryByTestId('id-sent-as-number')).not.toBeInTheDocument();
    expect(await screen.findByTestId('unread-fields')).toHaveTextContent('recordId: text expected, a number found');
  });
});

describe('values sent empty', () => {
  it('given name, family name, date of birth and e-mail sent as "" each say "sent empty", never "not in this response"', async () => {
    show('ref-1', {
      status: 'approved',
      refId: 'ref-1',
      identities: {
        given_name: { type: 'string', value: '' },
        family_name: { type: 'string', value: '' },
        dob: { type: 'string', value: '' },
        email: { type: 'string', value: ' ' },
        address: { type: 'string', value: '{"city":"Lyon","state":""}' },
      },
    });
    const identity = (await screen.findByRole('heading', { name: 'Identity' })).closest('section')!;
    for (const label of ['Given name', 'Family name', 'Date of birth', 'E-mail']) {
      expect(within(identity).getByText(label).nextElementSibling, label).toHaveTextContent(/^sent empty$/);
    }
    expect(identity).not.toHaveTextContent('not in this response');
  });

  it('a picture sent as "" says "sent empty", with no file of an unknown type and nothing to download', async () => {
    show('ref-1', { status: 'approved', refId: 'ref-1', identities: { selfie: { type: 'base64', value: '' } } });
    const card = await screen.findByTestId('picture-sent-empty');
    expect(card).toHaveTextContent('sent empty');
    expect(screen.queryByText(/A file of an unknown type/)).not.toBeInTheDocument();
    expect(screen.queryByText(/0 B/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Download/ })).not.toBeInTheDocument();
  });

  it('a certificate sent as "" says "sent empty", not "not valid JSON (Unexpected end of JSON input)"', async () => {
    show('ref-1', { status: 'approved', refId: 'ref-1', certs: { 'onfido-service-cert': '' } });
    const panel = await screen.findByTestId('certificate-sent-empty');
    expect(panel.closest('article')).toHaveTextContent('sent empty');
    expect(screen.queryByText(/not valid JSON/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Unexpected end of JSON input/)).not.toBeInTheDocument();
  });
});
