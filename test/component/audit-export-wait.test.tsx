import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditRow } from './audit-row.ts';
import { apiError, json, renderWithProviders, stubApi } from './render.tsx';

/**
 * A lead's third export of the audit trail while two of theirs are still under way: the server refuses it
 * `429 rate_limited` as it refuses past their searches' limit, but says which (`reason: exports_under_way`).
 * Only another download would be refused: the page says so in a notice of its own, counting its wait down,
 * and holds Download CSV alone; Search, Newer and Older go on.
 */

const UNDER_WAY = 'You already have 2 downloads of the audit trail under way: wait for them to finish.';

const bodiesOf = (fetchMock: ReturnType<typeof stubApi>['fetchMock'], path: string) =>
  fetchMock.mock.calls.filter(([input]) => String(input) === path);

const seconds = (n: number) =>
  act(() => {
    vi.advanceTimersByTime(n * 1000);
  });

/** The page of a lead whose first export is refused as a third under way (5 s), the next answered with a file. */
function showExportsUnderWay() {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  let exports = 0;
  const api = stubApi({
    session: { mode: 'proxy', user: 'lena', role: 'lead' },
    candidates: {
      '/api/audit/status': () => json({ source: { kind: 'files' }, instances: [] }),
      '/api/audit/search': () => json({ rows: [auditRow({ user: 'ana' })], source: { kind: 'files' }, next: 'cursor-2' }),
      '/api/audit/export': () =>
        ++exports === 1
          ? apiError(
              429,
              'rate_limited',
              `${UNDER_WAY} Try again in 5 s.`,
              { retryAfterSeconds: 5, reason: 'exports_under_way' },
              { 'retry-after': '5' },
            )
          : new Response('time\r\n', { headers: { 'content-type': 'text/csv' } }),
    },
  });
  renderWithProviders('/audit');
  return api;
}

const buttons = () => {
  const filters = within(screen.getByRole('form', { name: 'Filters' }));
  return {
    search: filters.getByRole('button', { name: 'Search the trail' }),
    csv: filters.getByRole('button', { name: /Download CSV|Exporting/ }),
    older: screen.getByRole('button', { name: 'Older' }),
  };
};

describe('the audit page, an export refused while two downloads are under way', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says so in its own notice counted down, holds Download CSV alone, and leaves Search, Newer and Older usable', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { fetchMock } = showExportsUnderWay();
    expect(await screen.findByText('ana', {}, { timeout: 10_000 })).toBeInTheDocument();
    await user.click(buttons().csv);
    const notice = (await screen.findByText(/Try again in 5 s/)).closest<HTMLElement>('[role="alert"]')!;
    expect(notice).toHaveTextContent(
      new RegExp(`^${UNDER_WAY} Try again in 5 s, at [^,]+\\. Only Download CSV waits: Search, Newer and Older can be used meanwhile\\.$`),
    );
    // Before: said as the searches' limit, Search and the pager held for 5 s though searching was not limited.
    expect(buttons().search).not.toHaveAttribute('aria-disabled');
    expect(buttons().older).not.toHaveAttribute('aria-disabled');
    expect(screen.queryByText(/The results below are those of the last search answered/)).toBeNull();
    await waitFor(() => expect(buttons().csv).toHaveAttribute('aria-disabled', 'true'));
    expect(buttons().csv).toHaveAccessibleDescription(new RegExp(`^${UNDER_WAY} Try again in 5 s`));
    // Held: a download pressed asks nothing; a search is asked.
    await user.click(buttons().csv);
    expect(bodiesOf(fetchMock, '/api/audit/export')).toHaveLength(1);
    const searched = bodiesOf(fetchMock, '/api/audit/search').length;
    await user.click(buttons().search);
    await waitFor(() => expect(bodiesOf(fetchMock, '/api/audit/search')).toHaveLength(searched + 1));
    await seconds(2);
    expect(notice).toHaveTextContent(/Try again in 3 s/);
    await seconds(4);
    expect(notice).toHaveTextContent(/^The wait is over: Download CSV can be used again\.$/);
    expect(buttons().csv).not.toHaveAttribute('aria-disabled');
    await user.click(buttons().csv);
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(bodiesOf(fetchMock, '/api/audit/export')).toHaveLength(2);
    expect(screen.queryByText(/The wait is over|Try again in/)).toBeNull();
    click.mockRestore();
  });
});
