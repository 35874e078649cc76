import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inTimeZone } from './in-time-zone.ts';
import { json, renderWithProviders, stubApi } from './render.tsx';

/** The audit page's quick ranges (UX review: a lead typed a whole date and time into From and Before for "today"). */

function showAuditPage() {
  const api = stubApi({
    session: { mode: 'proxy', user: 'lena', role: 'lead' },
    candidates: {
      '/api/audit/status': () => json({ source: { kind: 'files' }, instances: [] }),
      '/api/audit/search': () => json({ rows: [], source: { kind: 'files' } }),
    },
  });
  renderWithProviders('/audit');
  const searches = () =>
    api.fetchMock.mock.calls
      .filter(([input]) => String(input) === '/api/audit/search')
      .map(([, init]) => JSON.parse(String(init?.body ?? '{}')) as { from?: string; to?: string });
  return { searches };
}

const value = (label: RegExp) => (screen.getByLabelText(label) as HTMLInputElement).value;

describe('the audit page on the day Santiago skips its midnight (6 September 2026, 00:00 is 01:00)', () => {
  inTimeZone('America/Santiago');
  afterEach(() => {
    vi.useRealTimers();
  });

  it("fills From and Before with a whole day of the reader's zone and searches, shows the range chosen, and leaves it editable", async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-09-06T15:00:00Z') });
    const user = userEvent.setup();
    const { searches } = showAuditPage();
    await screen.findByText(/No line of the trail matches/);
    const group = screen.getByRole('group', { name: 'Quick range (days of your time zone)' });
    const names = within(group)
      .getAllByRole('button')
      .map((button) => [button.textContent, button.getAttribute('aria-pressed')]);
    expect(names).toEqual([
      ['Today', 'false'],
      ['Yesterday', 'false'],
      ['Last 7 days', 'false'],
      ['Last 30 days', 'false'],
    ]);

    await user.click(within(group).getByRole('button', { name: 'Today' }));
    // (A browser writes zero seconds or leaves them out.)
    expect(value(/^From/)).toMatch(/^2026-09-06T00:00(:00)?$/);
    expect(value(/^Before/)).toMatch(/^2026-09-07T00:00(:00)?$/);
    // A 23-hour day: from its first instant (01:00, UTC-3) to the next midnight, Before exclusive.
    await waitFor(() => expect(searches()).toHaveLength(2));
    expect(searches()[1]).toMatchObject({ from: '2026-09-06T04:00:00.000Z', to: '2026-09-07T03:00:00.000Z' });
    expect(within(group).getByRole('button', { name: 'Today' })).toHaveAttribute('aria-pressed', 'true');

    // By keyboard: the next press moves the choice.
    within(group).getByRole('button', { name: 'Last 7 days' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(searches()).toHaveLength(3));
    expect(searches()[2]).toMatchObject({ from: '2026-08-31T04:00:00.000Z', to: '2026-09-07T03:00:00.000Z' });
    expect(within(group).getByRole('button', { name: 'Last 7 days' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(group).getByRole('button', { name: 'Today' })).toHaveAttribute('aria-pressed', 'false');

    // Edited by hand, it is no quick range any more, and Search searches what the fields say.
    await user.clear(screen.getByLabelText(/^From/));
    await user.type(screen.getByLabelText(/^From/), '2026-09-05T00:00:00');
    expect(within(group).getByRole('button', { name: 'Last 7 days' })).toHaveAttribute('aria-pressed', 'false');
    await user.click(screen.getByRole('button', { name: 'Search the trail' }));
    await waitFor(() => expect(searches()).toHaveLength(4));
    expect(searches()[3]).toMatchObject({ from: '2026-09-05T04:00:00.000Z', to: '2026-09-07T03:00:00.000Z' });
  });

  it('counts UTC days while the page shows UTC times', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-09-06T02:00:00Z') });
    const user = userEvent.setup();
    const { searches } = showAuditPage();
    await screen.findByText(/No line of the trail matches/);
    await user.click(screen.getByRole('button', { name: 'UTC times' }));
    const group = screen.getByRole('group', { name: 'Quick range (UTC days)' });
    await user.click(within(group).getByRole('button', { name: 'Yesterday' }));
    await waitFor(() => expect(searches()).toHaveLength(2));
    expect(searches()[1]).toMatchObject({ from: '2026-09-05T00:00:00.000Z', to: '2026-09-06T00:00:00.000Z' });
  });
});
