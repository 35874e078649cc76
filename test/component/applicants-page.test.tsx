import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi, describe, expect, it } from 'vitest';
import type { Applicant } from '../../src/kyc/contract/applicants.ts';
import { ROW_OPEN_DELAY_MS } from '../../src/app/applicants/row-open.ts';
import { apiError, applicantsAnswer, json, renderWithProviders } from './render.tsx';

const STATUSES = ['waiting', 'inreview', 'approved', 'rejected', 'incomplete'];

function makeApplicants(count: number): Applicant[] {
  return Array.from({ length: count }, (_, index) => {
    const n = String(index + 1).padStart(3, '0');
    return {
      status: STATUSES[index % STATUSES.length]!,
      isArchived: index % 7 === 6,
      recordId: `rec-${n}`,
      refId: `ref-${n}`,
      blockPassID: `bp-${n}`,
    };
  });
}

/**
 * Stands in for the proxy: session, meta and `/api/applicants` over an in-memory list (which a test may
 * change between requests), recording every request.
 */
function stubQueue(options: { applicants?: Applicant[]; reply?: (url: URL) => Response | undefined } = {}) {
  const state = { applicants: options.applicants ?? makeApplicants(12) };
  const requests: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname + input.search : input.url;
      requests.push(path);
      const url = new URL(path, 'http://test');
      if (url.pathname === '/api/session') return json({ mode: 'local', user: 'local', role: 'compliance' });
      if (url.pathname === '/api/meta') return json({ upstream: 'remote' });
      const special = options.reply?.(url);
      if (special) return special;
      if (url.pathname !== '/api/applicants') return apiError(404, 'no_such_route', 'no');
      return applicantsAnswer(url, state.applicants);
    }),
  );
  const listRequests = () => requests.filter((r) => r.startsWith('/api/applicants'));
  const stagingRequests = () => requests.filter((r) => r.startsWith('/api/e/staging/applicants'));
  return { state, requests, listRequests, stagingRequests };
}

const tab = (name: RegExp) => screen.getByRole('tab', { name });
const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

describe('the applicants queue', () => {
  it('shows tabs with counts from total, and the listed fields of each record', async () => {
    const { listRequests } = stubQueue();
    renderWithProviders('/applicants');
    expect(await screen.findByRole('heading', { level: 1, name: 'Applicants' })).toBeInTheDocument();
    await waitFor(() => expect(rows()).toHaveLength(12));
    await waitFor(() => expect(tab(/^All/)).toHaveTextContent('All12'));
    expect(tab(/^Waiting/)).toHaveTextContent('Waiting3');
    expect(tab(/^In review/)).toHaveTextContent('In review3');
    expect(tab(/^Approved/)).toHaveTextContent('Approved2');
    expect(tab(/^All/)).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveAccessibleName(/^All/);
    const first = within(rows()[0]!)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    // Status, since (no date known in this list), refId, recordId, archived; no dashboard configured, so no empty cell for it.
    expect(first).toEqual(['◔Waiting', 'not known yet', 'ref-001', 'rec-001', 'No']);
    expect(within(rows()[6]!).getAllByRole('cell')[4]).toHaveTextContent('Yes');
    // One request for the whole view: the page with every tab's count.
    expect(listRequests()).toEqual(['/api/applicants?skip=0&limit=50&counts=1']);
    expect(screen.getByTestId('fetched-at')).toHaveTextContent(/^Fetched .+ago|now/);
    // Its relative time changes every 30 s: not in a live region, where it would be read out each time.
    expect(screen.getByTestId('fetched-at').closest('[aria-live]')).toBeNull();
  });

  it('is linked from the header, marked as the current page there', async () => {
    const user = userEvent.setup();
    stubQueue();
    const { router } = renderWithProviders('/');
    const link = await screen.findByRole('link', { name: 'Applicants' });
    expect(link).not.toHaveAttribute('aria-current');
    await user.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/applicants'));
    expect(screen.getByRole('link', { name: 'Applicants' })).toHaveAttribute('aria-current', 'page');
    await waitFor(() => expect(rows()).toHaveLength(12));
  });

  it('a tab filters, and keeps its state in the address', async () => {
    const user = userEvent.setup();
    const { listRequests } = stubQueue();
    const { router } = renderWithProviders('/applicants');
    await waitFor(() => expect(rows()).toHaveLength(12));
    await user.click(tab(/^In review/));
    await waitFor(() => expect(router.state.location.search).toBe('?status=inreview'));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(tab(/^In review/)).toHaveAttribute('aria-selected', 'true');
    expect(tab(/^All/)).toHaveAttribute('aria-selected', 'false');
    for (const row of rows()) expect(within(row).getAllByRole('cell')[0]).toHaveTextContent('In review');
    expect(listRequests()).toContain('/api/applicants?status=inreview&skip=0&limit=50&counts=1');
    // The count of the tab left stays known (from the view's counts).
    await waitFor(() => expect(tab(/^All/)).toHaveTextContent('All12'));
  });

  it('tabs follow the keyboard: arrows and Home/End move, Enter opens', async () => {
    const user = userEvent.setup();
    stubQueue();
    const { router } = renderWithProviders('/applicants?status=waiting');
    await waitFor(() => expect(rows()).toHaveLength(3));
    const selected = tab(/^Waiting/);
    expect(selected).toHaveAttribute('tabindex', '0');
    for (const other of [tab(/^All/), tab(/^In review/), tab(/^Approved/), tab(/^Incomplete/)]) {
      expect(other).toHaveAttribute('tabindex', '-1');
    }
    selected.focus();
    await user.keyboard('{ArrowRight}');
    expect(tab(/^In review/)).toHaveFocus();
    expect(tab(/^In review/)).toHaveAttribute('aria-selected', 'false');
    // The tab the arrows reached is the list's one stop in the Tab order: Tab goes on from it into the panel.
    expect(tab(/^In review/)).toHaveAttribute('tabindex', '0');
    expect(selected).toHaveAttribute('tabindex', '-1');
    await user.keyboard('{End}');
    expect(tab(/^Incomplete/)).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(tab(/^All/)).toHaveFocus();
    await user.keyboard('{ArrowLeft}{Home}{ArrowRight}{ArrowRight}{Enter}');
    expect(tab(/^In review/)).toHaveFocus();
    await waitFor(() => expect(router.state.location.search).toBe('?status=inreview'));
    expect(tab(/^In review/)).toHaveAttribute('aria-selected', 'true');
    // Arrowed away and left: coming back into the list lands on the selected tab.
    await user.keyboard('{ArrowRight}');
    await user.tab();
    expect(screen.getByRole('tablist').contains(document.activeElement)).toBe(false);
    expect(tab(/^In review/)).toHaveAttribute('tabindex', '0');
  });

  it('pages by 50, with the page number in the address', async () => {
    const user = userEvent.setup();
    const { listRequests } = stubQueue({ applicants: makeApplicants(120) });
    const { router } = renderWithProviders('/applicants');
    await waitFor(() => expect(rows()).toHaveLength(50));
    const pages = screen.getByRole('navigation', { name: 'Pages' });
    expect(pages).toHaveTextContent('Showing 1–50 of 120 · page 1 of 3');
    expect(within(pages).queryByRole('link', { name: /Previous/ })).not.toBeInTheDocument();
    await user.click(within(pages).getByRole('link', { name: /Next page/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await waitFor(() => expect(within(rows()[0]!).getAllByRole('cell')[2]).toHaveTextContent('ref-051'));
    expect(listRequests()).toContain('/api/applicants?skip=50&limit=50&counts=1');
    await user.click(screen.getByRole('link', { name: /Next page/ }));
    await waitFor(() => expect(rows()).toHaveLength(20));
    expect(screen.getByRole('navigation', { name: 'Pages' })).toHaveTextContent('Showing 101–120 of 120 · page 3 of 3');
    expect(screen.queryByRole('link', { name: /Next page/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: /Previous page/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    // Three pages of 50 rows in jsdom take seconds on a loaded machine: more time, the same assertions.
  }, 20_000);

  it('a row opens its candidate by recordId, or by refId when there is none', async () => {
    const user = userEvent.setup();
    const applicants = makeApplicants(2);
    delete applicants[1]!.recordId;
    stubQueue({ applicants });
    const { router } = renderWithProviders('/applicants');
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(within(rows()[0]!).getByRole('link')).toHaveAttribute('href', '/candidates/recordId/rec-001');
    expect(within(rows()[1]!).getByRole('link')).toHaveAttribute('href', '/candidates/refId/ref-002');
    expect(within(rows()[1]!).getAllByRole('cell')[3]).toHaveTextContent('not given');
    await user.click(within(rows()[1]!).getByRole('link'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/refId/ref-002'));
  });

  it('an id can be selected on its row: a double-click or a drag over it opens nothing; a click elsewhere on the row opens it', async () => {
    const user = userEvent.setup();
    const { requests } = stubQueue({ applicants: makeApplicants(2) });
    const { router } = renderWithProviders('/applicants');
    await waitFor(() => expect(rows()).toHaveLength(2));
    const link = within(rows()[0]!).getByRole('link');
    const refId = within(rows()[0]!).getByText('ref-001');
    // Later than any open a click of these may have started (timers of the same page run in order).
    const afterTheWait = () => act(() => new Promise((resolve) => setTimeout(resolve, ROW_OPEN_DELAY_MS + 50)));
    await user.dblClick(link);
    await user.dblClick(refId);
    await user.pointer([{ keys: '[MouseLeft>]', target: link, offset: 0 }, { offset: 5 }, { keys: '[/MouseLeft]' }]);
    expect(window.getSelection()?.toString()).toBe('rec-0');
    await afterTheWait();
    expect(router.state.location.pathname).toBe('/applicants');
    expect(requests.filter((url) => url.startsWith('/api/candidates'))).toEqual([]);
    // A single click on the row's date cell, away from its link, opens the candidate.
    window.getSelection()?.removeAllRanges();
    await user.click(within(rows()[1]!).getAllByRole('cell')[1]!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/candidates/recordId/rec-002'));
  });

  it('a double-click on a hyphenated id that is not the link selects all of it, and opens nothing (UX review)', async () => {
    const user = userEvent.setup();
    const applicants: Applicant[] = [
      { status: 'waiting', isArchived: false, recordId: '65f1c2a9e4b0d3a1f0c9b899', refId: 'user-7781', blockPassID: 'bp-1' },
    ];
    const { requests } = stubQueue({ applicants });
    const { router } = renderWithProviders('/applicants');
    await waitFor(() => expect(rows()).toHaveLength(1));
    // Before: the word under the pointer, "7781" (or "user", or a lone "-").
    await user.dblClick(within(rows()[0]!).getByText('user-7781'));
    expect(window.getSelection()?.toString()).toBe('user-7781');
    await act(() => new Promise((resolve) => setTimeout(resolve, ROW_OPEN_DELAY_MS + 50)));
    expect(router.state.location.pathname).toBe('/applicants');
    expect(requests.filter((url) => url.startsWith('/api/candidates'))).toEqual([]);
    window.getSelection()?.removeAllRanges();
  });

  it("Enter on a row's link opens its candidate at once, as before", async () => {
    stubQueue({ applicants: makeApplicants(2) });
    const { router } = renderWithProviders('/applicants');
    await waitFor(() => expect(rows()).toHaveLength(2));
    within(rows()[1]!).getByRole('link').focus();
    await userEvent.setup().keyboard('{Enter}');
    expect(router.state.location.pathname).toBe('/candidates/recordId/rec-002');
  });

  it('is per environment: /e/<name>/applicants asks that environment, and rows open candidates in it', async () => {
    const { listRequests, stagingRequests } = stubQueue({
      reply: (url) => {
        if (!url.pathname.startsWith('/api/e/staging/applicants')) return undefined;
        const records = makeApplicants(2);
        return json({ status: 'success', data: { records, total: 2, skip: 0, limit: Number(url.searchParams.get('limit')) } });
      },
    });
    renderWithProviders('/e/staging/applicants');
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(listRequests()).toEqual([]);
    expect(stagingRequests()).toEqual(['/api/e/staging/applicants?skip=0&limit=50&counts=1']);
    expect(within(rows()[0]!).getByRole('link')).toHaveAttribute('href', '/e/staging/candidates/recordId/rec-001');
  });

  it('an empty tab says so', async () => {
    stubQueue({ applicants: makeApplicants(12).filter((a) => a.status !== 'approved') });
    renderWithProviders('/applicants?status=approved');
    expect(await screen.findByText('No candidates are approved.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await waitFor(() => expect(tab(/^Approved/)).toHaveTextContent('Approved0'));
  });

  it('Refresh fetches again: rows, counts and the time change', async () => {
    const user = userEvent.setup();
    const { state, listRequests } = stubQueue();
    renderWithProviders('/applicants');
    await waitFor(() => expect(tab(/^Waiting/)).toHaveTextContent('Waiting3'));
    const before = listRequests().length;
    const fetchedAt = () => screen.getByTestId('fetched-at').querySelector('time')!.getAttribute('datetime');
    const firstFetch = fetchedAt();
    state.applicants = [...state.applicants, ...makeApplicants(5).map((a) => ({ ...a, status: 'waiting', recordId: `new-${a.recordId}` }))];
    // The refresh a minute later, on a clock moved ahead rather than waited for (only Date: the timers run).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60_000 });
    try {
      await user.click(screen.getByRole('button', { name: 'Refresh' }));
      await waitFor(() => expect(tab(/^Waiting/)).toHaveTextContent('Waiting8'));
      await waitFor(() => expect(tab(/^All/)).toHaveTextContent('All17'));
    } finally {
      vi.useRealTimers();
    }
    expect(rows()).toHaveLength(17);
    // The whole view again, in one request.
    expect(listRequests().length).toBe(before + 1);
    expect(fetchedAt()).not.toBe(firstFetch);
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeEnabled();
  });

  it('says when the service does not offer the list, rather than showing an error', async () => {
    stubQueue({
      reply: (url) =>
        url.pathname === '/api/applicants'
          ? apiError(404, 'applicants_unavailable', 'This KYC service does not offer the applicants list.')
          : undefined,
    });
    renderWithProviders('/applicants');
    expect(await screen.findByRole('heading', { name: 'This KYC service does not offer the applicants list' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument();
  });

  it('explains a failure and tries again on request', async () => {
    const user = userEvent.setup();
    let failing = true;
    stubQueue({
      reply: (url) =>
        failing && url.pathname === '/api/applicants' && url.searchParams.get('limit') === '50'
          ? apiError(502, 'upstream_unreachable', 'The KYC service could not be reached (connection refused).')
          : undefined,
    });
    renderWithProviders('/applicants');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveAttribute('data-error-kind', 'upstream_unreachable');
    expect(within(alert).getByRole('heading')).toHaveTextContent('The KYC service cannot be reached');
    expect(alert).toHaveTextContent('connection refused');
    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(rows()).toHaveLength(12));
  });

  it('keeps the keyboard on Try again while it tries again, and after it failed again', async () => {
    const user = userEvent.setup();
    let release: (() => void) | undefined;
    let calls = 0;
    const failure = () => apiError(502, 'upstream_unreachable', 'The KYC service could not be reached (connection refused).');
    stubQueue({
      reply: (url) => {
        if (url.pathname !== '/api/applicants' || url.searchParams.get('limit') !== '50') return undefined;
        calls += 1;
        if (calls === 1) return failure();
        return new Promise<Response>((resolve) => {
          release = () => resolve(failure());
        }) as never;
      },
    });
    renderWithProviders('/applicants');
    const retry = within(await screen.findByRole('alert')).getByRole('button', { name: 'Try again' });
    retry.focus();
    await user.keyboard('{Enter}');
    // The error stays while it tries: its skeleton in place took the button, and the keyboard, away.
    await waitFor(() => expect(retry).toHaveAttribute('aria-disabled', 'true'));
    expect(retry).toHaveFocus();
    act(() => release!());
    await waitFor(() => expect(retry).not.toHaveAttribute('aria-disabled'));
    expect(retry).toHaveFocus();
    expect(calls).toBe(2);
  });

  it('shows a loading state while the first page is on its way', async () => {
    stubQueue({ reply: (url) => (url.pathname === '/api/applicants' ? (new Promise(() => {}) as never) : undefined) });
    renderWithProviders('/applicants');
    expect(await screen.findByRole('status')).toHaveTextContent('Loading the applicants…');
  });

  it('an address it does not understand falls back to all, first page', async () => {
    stubQueue();
    renderWithProviders('/applicants?status=escalated&page=zero');
    await waitFor(() => expect(rows()).toHaveLength(12));
    expect(tab(/^All/)).toHaveAttribute('aria-selected', 'true');
  });

  it('a page past the end links to the last page', async () => {
    const user = userEvent.setup();
    stubQueue({ applicants: makeApplicants(60) });
    const { router } = renderWithProviders('/applicants?page=9');
    expect(await screen.findByText(/There is no page 9: this list has 2 pages/)).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Go to the last page' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await waitFor(() => expect(rows()).toHaveLength(10));
  });
});
