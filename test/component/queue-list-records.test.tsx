import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Applicant, Skipped } from '../../src/kyc/contract/applicants.ts';
import { applicantsAnswer, json, renderWithProviders } from './render.tsx';

const HOUR = 3_600_000;
const ago = (hours: number) => new Date(Date.now() - hours * HOUR).toISOString();

/**
 * The proxy answering the queue as it reads the list records of the service today: rows may lack a
 * recordId (the current documentation's list) or `isArchived` (early records), carry their own date,
 * name fields that could not be read, and the page how many records it left out.
 */
function stubList(applicants: Applicant[], role: 'compliance' | 'support', skipped?: Skipped) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://test');
      if (url.pathname === '/api/session') return json({ mode: 'proxy', user: role === 'support' ? 'sam' : 'ana', role });
      if (url.pathname === '/api/meta') return json({ upstream: 'remote' });
      const answer = applicantsAnswer(url, applicants, { extra: { waiting: { slaHours: 24, ...(skipped ? { skipped } : {}) } } });
      return answer;
    }),
  );
}

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const cells = (row: HTMLElement) => within(row).getAllByRole('cell');
const headings = () =>
  within(screen.getByRole('table'))
    .getAllByRole('columnheader')
    .map((cell) => cell.textContent);

const WHOLE: Applicant = { status: 'waiting', refId: 'ref-whole', since: ago(30), name: 'Zoë Ångström' };
const EARLY: Applicant = { status: 'waiting', recordId: 'rec-early', refId: 'ref-early' };

describe('queue rows of the list records the service publishes today', () => {
  it('a queue row without recordId is linked by its refId, and "since" shows its own date; without isArchived, archived is "not given"', async () => {
    stubList([WHOLE], 'support');
    renderWithProviders('/applicants?status=waiting');
    await waitFor(() => expect(rows()).toHaveLength(1));
    const [, since, refId, recordId, archived] = cells(rows()[0]!);
    const link = within(refId!).getByRole('link');
    expect(link).toHaveAttribute('href', '/candidates/refId/ref-whole');
    expect(link).toHaveAttribute('data-open', 'refId');
    expect(within(rows()[0]!).getAllByRole('link')).toHaveLength(1);
    expect(since!.querySelector('time')).toHaveAttribute('datetime', WHOLE.since);
    expect(since).toHaveTextContent('1 d 6 h');
    expect(since).toHaveTextContent('Over SLA');
    expect(recordId).toHaveTextContent('not given');
    expect(archived).toHaveTextContent('not given');
    expect(archived).not.toHaveTextContent('No');
  });

  it('a compliance user’s row shows the name from a whole record; a support user’s, given the same answer, does not', async () => {
    stubList([WHOLE, EARLY], 'compliance');
    const first = renderWithProviders('/applicants?status=waiting');
    await waitFor(() => expect(headings()).toEqual(['Status', 'Name', 'Waiting since', 'refId', 'recordId', 'Archived']));
    expect(cells(rows()[0]!)[1]).toHaveTextContent('Zoë Ångström');
    // A record listed without identities has no name to show, and says so.
    expect(cells(rows()[1]!)[1]).toHaveTextContent('not in the list');
    first.unmount();

    stubList([WHOLE, EARLY], 'support');
    renderWithProviders('/applicants?status=waiting');
    await waitFor(() => expect(rows()).toHaveLength(2));
    // The session is known before the rows: the table is final.
    await waitFor(() => expect(headings()).toEqual(['Status', 'Waiting since', 'refId', 'recordId', 'Archived']));
    expect(screen.queryByText('Zoë Ångström')).not.toBeInTheDocument();
  });

  it('a field that could not be read is named on that field, and the records left out are counted with why', async () => {
    const broken: Applicant = {
      status: 'waiting',
      recordId: 'rec-broken',
      unreadable: { isArchived: 'expected true or false', waitingDate: 'expected an ISO 8601 timestamp', blockPassID: 'expected a string' },
    };
    stubList([broken], 'support', { count: 2, reasons: ['no status', 'refId is too long (at most 256 characters)'] });
    renderWithProviders('/applicants?status=waiting');
    await waitFor(() => expect(rows()).toHaveLength(1));
    const [status, since, , , archived] = cells(rows()[0]!);
    expect(archived).toHaveTextContent('not readable (expected true or false)');
    expect(since).toHaveTextContent('not readable (expected an ISO 8601 timestamp)');
    expect(status).toHaveTextContent('blockPassID not readable (expected a string)');
    expect(screen.getByTestId('skipped-records')).toHaveTextContent(
      '2 records of this list could not be read and are not shown: no status; refId is too long (at most 256 characters).',
    );
  });
});
