import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Applicant, QueueIndexState } from '../../src/kyc/contract/applicants.ts';
import { formatSoon } from '../../src/kyc/view/time.ts';
import { renderWithProviders, stubApi } from './render.tsx';

/**
 * The queue while the service limits the crawler's list: the tab strip said All 0 · Waiting 0 · In
 * review 0 for tabs never read (a lead read "nothing in review"), and the open tab "Refresh in a
 * moment" with nothing of the limit or of when the list would be read again.
 */

const approved: Applicant[] = [{ status: 'approved', recordId: 'rec-1', refId: 'ref-1', isArchived: false }];
const tab = (name: RegExp) => screen.getByRole('tab', { name });

function stubLimited(until: Date) {
  const index: QueueIndexState = { at: new Date().toISOString(), crawling: true, dated: 0, of: 0, limited: { until: until.toISOString() } };
  return stubApi({ applicants: approved, queueUnread: ['all', 'waiting', 'inreview'], queueExtras: { inreview: { index } } });
}

describe('tabs not read yet, and a list the service limits', () => {
  it('a tab never read that holds nothing shows "…" named "not read yet", never 0; a read one its count', async () => {
    stubLimited(new Date(Date.now() + 30_000));
    renderWithProviders('/applicants?status=inreview');
    await waitFor(() => expect(tab(/^In review/)).toHaveAccessibleName('In review(not read yet)'));
    expect(tab(/^In review/)).not.toHaveTextContent('0');
    expect(tab(/^Waiting/)).toHaveAccessibleName('Waiting(not read yet)');
    expect(tab(/^Approved/)).toHaveTextContent('Approved1');
  });

  it('the open tab says the service is limiting requests and when the list will be read again, not "in a moment"', async () => {
    const until = new Date(Date.now() + 30_000);
    stubLimited(until);
    renderWithProviders('/applicants?status=inreview');
    const said = `The KYC service is limiting requests; the list will be read again at ${formatSoon(until, { zone: 'local', seconds: true })}.`;
    // Compared as written: the time may hold a narrow no-break space, which toHaveTextContent folds.
    expect((await screen.findByTestId('queue-still-reading')).textContent).toBe(`None read yet: ${said}`);
    expect(screen.getByTestId('queue-still-reading')).not.toHaveTextContent('Refresh in a moment');
    expect(screen.getByTestId('queue-freshness').textContent).toContain(said);
  });
});
