import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { APPLICANT_FILTERS, type Applicant } from '../../src/kyc/contract/applicants.ts';
import type { Idless } from '../../src/kyc/contract/idless.ts';
import { json, renderWithProviders } from './render.tsx';

const DAY = 86_400_000;

/** The proxy's queue of Waiting: `rows` as rows, `idless` the candidates it counts without an id. */
function stubQueue(rows: Applicant[], idless: Idless[]) {
  const counted = rows.length + idless.reduce((sum, tally) => sum + tally.count, 0);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://test');
      if (url.pathname === '/api/session') return json({ mode: 'proxy', user: 'sam', role: 'support' });
      if (url.pathname === '/api/meta') return json({ upstream: 'remote' });
      const counts = Object.fromEntries(
        ['all', ...APPLICANT_FILTERS].map((tab) => [tab, tab === 'all' || tab === 'waiting' ? counted : 0]),
      );
      const data = { records: rows, total: rows.length, skip: 0, limit: 50, slaHours: 48, overSla: 1, idless };
      return json({ status: 'success', data: { ...data, counts, overSlaByTab: { waiting: 1 }, overSlaPartialTabs: [], refused: [] } });
    }),
  );
}

describe('queue candidates listed without an id', () => {
  it('an empty Waiting table with one counted says how long it has waited and where to find it, not that the queue is empty', async () => {
    const oldest = new Date(Date.now() - 324 * DAY).toISOString();
    stubQueue([], [{ status: 'waiting', count: 1, dated: 1, oldest, newest: oldest }]);
    renderWithProviders('/applicants?status=waiting');
    const note = await screen.findByTestId('idless-records');
    expect(note).toHaveTextContent(
      /^1 waiting candidate since .+ \(324 days\) has no id and cannot be opened here: look for it in the KYC service's dashboard\.$/,
    );
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByText(/no waiting candidates/i)).not.toBeInTheDocument();
  });

  it('beside rows, several are counted with the oldest’s wait, and those with a blockPassID are said to carry one', async () => {
    const oldest = new Date(Date.now() - 10 * DAY).toISOString();
    const newest = new Date(Date.now() - DAY).toISOString();
    stubQueue(
      [{ status: 'waiting', refId: 'ref-1', since: newest }],
      [{ status: 'waiting', count: 3, dated: 2, oldest, newest, blockPassIDs: 2 }],
    );
    renderWithProviders('/applicants?status=waiting');
    await waitFor(() => expect(screen.getByRole('table')).toBeInTheDocument());
    expect(screen.getByTestId('idless-records')).toHaveTextContent(
      /^3 waiting candidates, the oldest since .+ \(10 days\), have no id and cannot be opened here: look for them in the KYC service's dashboard\. 2 of them carry a blockPassID, which the dashboard can search by\.$/,
    );
  });

  it('attack: candidates listed only with ids this tool cannot open are said why in words, never with the ids', async () => {
    const oldest = new Date(Date.now() - 3 * DAY).toISOString();
    stubQueue([], [{ status: 'waiting', count: 1, dated: 1, oldest, newest: oldest, badIds: 1 }]);
    renderWithProviders('/applicants?status=waiting');
    expect(await screen.findByTestId('idless-records')).toHaveTextContent(
      /^1 waiting candidate since .+ \(3 days\) cannot be opened here: its id is not one this tool can open\. Look for it in the KYC service's dashboard\.$/,
    );
  });

  it('a tally mixing candidates without an id and with ids this tool cannot open says how many of each', async () => {
    stubQueue([], [{ status: 'waiting', count: 3, dated: 0, badIds: 2 }]);
    renderWithProviders('/applicants?status=waiting');
    expect(await screen.findByTestId('idless-records')).toHaveTextContent(
      /^3 waiting candidates cannot be opened here: 1 has no id, and 2 carry ids this tool cannot open\. Look for them in the KYC service's dashboard\.$/,
    );
  });
});
