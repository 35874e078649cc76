import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, renderWithProviders, stubApi } from './render.tsx';

/**
 * Issue 30: the page shows what the service's answer holds and names what it lacks, rather than refusing
 * the record for one field ("The response has an unexpected shape … at data.isArchived").
 */

const PATH = '/api/candidates/refId/ref-1';

function show(data: unknown) {
  stubApi({ candidates: { [PATH]: () => json({ status: 'success', data }) } });
  return renderWithProviders('/candidates/refId/ref-1');
}

const header = async () => (await screen.findByRole('heading', { level: 1 })).closest('header')!;

describe('a candidate page read liberally (issue 30)', () => {
  it('the 2018 status answer without isArchived: the candidate is shown, and the flag named as not in the answer', async () => {
    show({
      status: 'inreview',
      recordId: '5b0e8a3c4f1d2e0012ab34cd',
      refId: 'ref-1',
      blockPassID: '5b0e8a3c4f1d2e0012ab34ce',
      waitingDate: '2018-05-30T10:11:12.000Z',
      inreviewDate: '2018-05-30T11:00:00.000Z',
    });
    const card = await header();
    expect(within(card).getByRole('heading', { level: 1 })).toHaveTextContent('ref-1');
    expect(within(card).getByText('Archived').nextElementSibling).toHaveTextContent('not in this response');
    expect(screen.queryByText(/unexpected shape/)).not.toBeInTheDocument();
    expect(screen.queryByTestId('unread-fields')).not.toBeInTheDocument();
  });

  it('a record without blockPassID that starts an archive-after-extract deletion shows the warning and the record', async () => {
    show({
      status: 'approved',
      refId: 'ref-1',
      recordId: 'rec-1',
      isArchived: false,
      approvedDate: '2019-02-02T09:00:00.000Z',
      willArchiveAtDate: new Date(Date.now() + 10_000).toISOString(),
      identities: { given_name: { type: 'string', value: 'Ada' }, family_name: { type: 'string', value: 'Lovelace' } },
    });
    expect(await screen.findByTestId('archive-warning')).toHaveTextContent('This lookup started the deletion');
    const card = await header();
    expect(within(card).getByText('blockPassID').nextElementSibling).toHaveTextContent('not in this response');
    expect(within(card).getByRole('heading', { level: 1 })).toHaveTextContent('Ada Lovelace');
  });

  it('the published archive example (archived, no blockPassID, nothing but status): says archived, never "status only"', async () => {
    show({ status: 'approved', refId: 'ref-1', recordId: 'rec-1', isArchived: true, approvedDate: '2019-02-02T09:00:00.000Z' });
    expect(await screen.findByText(/Identity data was archived on the service/)).toBeInTheDocument();
    expect(screen.queryByText(/returns status only/)).not.toBeInTheDocument();
    expect(within(await header()).getByText('blockPassID').nextElementSibling).toHaveTextContent('not in this response');
  });

  it('an answer that cannot be shown (no status) still shows the deletion warning its lookup started', async () => {
    show({ refId: 'ref-1', willArchiveAtDate: new Date(Date.now() + 10_000).toISOString() });
    expect(await screen.findByTestId('archive-warning')).toHaveTextContent('This lookup started the deletion');
    expect(await screen.findByText(/The record has no status/)).toBeInTheDocument();
  });

  it('names each field in another form than the contract’s, with what was expected, and shows the rest', async () => {
    show({
      status: 'waiting',
      refId: 'ref-1',
      recordId: 'rec-1',
      isArchived: 'no',
      blockPassID: 7,
      waitingDate: '2026-11-20T10:00:00.000Z',
      // A bare string is read as a string attribute sent without a type (identity-forms.ts); a number is no attribute.
      identities: { given_name: { type: 'string', value: 'Ada' }, passport: 42 },
      customFields: { accountRef: 'ACC-100234' },
    });
    const notice = await screen.findByTestId('unread-fields');
    expect(notice).toHaveTextContent('3 fields of the KYC service’s answer could not be read');
    expect(notice).toHaveTextContent('isArchived: true or false expected, text found');
    expect(notice).toHaveTextContent('blockPassID: text expected, a whole number found');
    expect(notice).toHaveTextContent('identities.passport: an attribute ({type, value}) expected, a whole number found');
    const card = await header();
    expect(within(card).getByText('blockPassID').nextElementSibling).toHaveTextContent('in the response, but not readable');
    expect(within(card).getByText('Archived').nextElementSibling).toHaveTextContent('in the response, but not readable');
    // The rest of the record is there: the name from identities, the custom field, and no "status only" notice.
    expect(within(card).getByRole('heading', { level: 1 })).toHaveTextContent('Ada');
    expect(screen.getByText('ACC-100234')).toBeInTheDocument();
    expect(screen.queryByText(/returns status only/)).not.toBeInTheDocument();
  });
});
