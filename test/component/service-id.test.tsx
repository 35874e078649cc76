import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, stubApi } from './render.tsx';

/**
 * The spec's neutral `serviceID` is `blockPassID` in real answers (upstream-api-facts.md): a service
 * answering by the spec sends `serviceID`, and the page shows it under that name, never "blockPassID: not
 * in this response" with the id nowhere.
 */

const PATH = '/api/candidates/refId/ref-1';
const BASE = { status: 'inreview', refId: 'ref-1', recordId: 'rec-1', isArchived: false, inreviewDate: '2026-01-02T10:00:00.000Z' };

function show(data: unknown) {
  stubApi({ candidates: { [PATH]: () => json({ status: 'success', data }), '/api/export': () => json({ status: 'success' }) } });
  return renderWithProviders('/candidates/refId/ref-1');
}

afterEach(() => {
  vi.restoreAllMocks();
});

const header = async () => (await screen.findByRole('heading', { level: 1 })).closest('header')!;

async function copySummary(user: ReturnType<typeof userEvent.setup>): Promise<string> {
  const writeText = vi.spyOn(navigator.clipboard, 'writeText');
  writeText.mockClear();
  await user.click(screen.getByRole('button', { name: 'Copy summary' }));
  await waitFor(() => expect(writeText).toHaveBeenCalledTimes(1));
  return writeText.mock.calls[0]![0];
}

describe('the service id under the spec’s name, serviceID', () => {
  it('a record with serviceID and no blockPassID: the header and Copy summary show it as serviceID', async () => {
    const user = userEvent.setup();
    show({ ...BASE, serviceID: 'SVC-123456' });
    const card = await header();
    expect(within(card).getByText('serviceID').nextElementSibling).toHaveTextContent('SVC-123456');
    expect(within(card).queryByText('blockPassID')).not.toBeInTheDocument();
    expect(within(card).getByRole('button', { name: /Copy serviceID/ })).toBeInTheDocument();
    const text = await copySummary(user);
    expect(text).toContain('serviceID: SVC-123456');
    expect(text).not.toContain('blockPassID');
  });

  it('both, differing: each shown under its own name, in the header and the summary', async () => {
    const user = userEvent.setup();
    show({ ...BASE, blockPassID: 'BP-1', serviceID: 'SVC-2' });
    const card = await header();
    expect(within(card).getByText('blockPassID').nextElementSibling).toHaveTextContent('BP-1');
    expect(within(card).getByText('serviceID').nextElementSibling).toHaveTextContent('SVC-2');
    const text = await copySummary(user);
    expect(text).toContain('blockPassID: BP-1\nserviceID: SVC-2\n');
  });

  it('both, the same: said once, as blockPassID', async () => {
    show({ ...BASE, blockPassID: 'BP-1', serviceID: 'BP-1' });
    const card = await header();
    expect(within(card).getByText('blockPassID').nextElementSibling).toHaveTextContent('BP-1');
    expect(within(card).queryByText('serviceID')).not.toBeInTheDocument();
  });

  it('neither: blockPassID is named as not in this response; a serviceID that cannot be read is named as such', async () => {
    show({ ...BASE, serviceID: 12 });
    const card = await header();
    expect(within(card).getByText('serviceID').nextElementSibling).toHaveTextContent('in the response, but not readable');
    expect(await screen.findByTestId('unread-fields')).toHaveTextContent('serviceID: text expected, a whole number found');
  });
});
