import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/app/api/api-error.ts';
import { SaidWait } from '../../src/app/candidate/retry-wait.tsx';
import { apiError, renderWithProviders, stubApi } from './render.tsx';
import { effectsRun, fakeClock, seconds } from './wait-clock.ts';

/**
 * The wait the server names for a failure whose sentence does not say it (`Retry-After` on "Try again in
 * a moment."), counted down by SaidWait (retry-wait.tsx): on the candidate page, for a lookup held back
 * while the key is checked, and on the queue's error, for a tab held back with a wait. The count is not
 * read out each second; its end is, once, politely. The clock (Date and the one-second tick) is the test's.
 */

const LAZY_PAGE = { timeout: 10_000 };
const liveOf = (element: HTMLElement) => element.closest('[aria-live]')?.getAttribute('aria-live');

describe('SaidWait', () => {
  it('counts the seconds left down, its count not read out, its end said politely once', async () => {
    fakeClock();
    const error = new ApiError('archiving_check_unavailable', 'Try again in a moment.', { status: 503, retryAfterSeconds: 5 });
    render(<SaidWait error={error} over="The wait is over." id="wait" />);
    const count = screen.getByText(/^Try again in 5 s, at /);
    expect(liveOf(count)).toBe('off');
    await effectsRun();
    seconds(2);
    expect(screen.getByText(/^Try again in 3 s, at /)).toBeInTheDocument();
    seconds(3);
    const over = screen.getByText('The wait is over.');
    expect(liveOf(over)).toBe('polite');
    expect(over).toHaveAttribute('id', 'wait');
  });

  it('says nothing when the server named no wait', () => {
    const { container } = render(
      <SaidWait error={new ApiError('upstream_rate_limited', 'Wait a minute.', { status: 429 })} over="Over." />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});

describe('the waits the server names on the pages', { timeout: 20_000 }, () => {
  it('a lookup held back while the key is checked (503, Retry-After 5): the page counts the wait down and Try again is described by it', async () => {
    fakeClock();
    const { requests } = stubApi({
      candidates: {
        '/api/candidates/refId/abc': () =>
          apiError(
            503,
            'archiving_check_unavailable',
            'The KYC service is still sending its answer to another full lookup. Try again in a moment.',
            { retryAfterSeconds: 5 },
            { 'retry-after': '5' },
          ),
      },
    });
    renderWithProviders('/candidates/refId/abc');
    const user = userEvent.setup();
    expect(
      await screen.findByRole('heading', { name: 'Full lookups are held back until the API key is checked' }, LAZY_PAGE),
    ).toBeInTheDocument();
    const retry = screen.getByRole('button', { name: 'Try again' });
    expect(retry).toHaveAttribute('aria-disabled', 'true');
    // Before: held for 5 s with nothing saying how long (its description pointed at no element).
    expect(retry).toHaveAccessibleDescription(/^Try again in 5 s, at /);
    await effectsRun();
    seconds(3);
    expect(screen.getByText(/^Try again in 2 s, at /)).toBeInTheDocument();
    seconds(2);
    expect(liveOf(screen.getByText('The wait is over: try again.'))).toBe('polite');
    const before = requests.filter((url) => url === '/api/candidates/refId/abc').length;
    await user.click(retry);
    await waitFor(() => expect(requests.filter((url) => url === '/api/candidates/refId/abc').length).toBe(before + 1));
  });

  it("the queue's tab held back with a wait its sentence does not say: counted down, Try again held until it ends", async () => {
    fakeClock();
    const page = '/api/applicants?skip=0&limit=50&counts=1';
    stubApi({
      candidates: {
        [page]: () =>
          apiError(
            503,
            'archiving_check_unavailable',
            'The applicants list is read once a lookup here has shown that the API key keeps identity data.',
            { retryAfterSeconds: 5 },
          ),
      },
    });
    renderWithProviders('/applicants');
    expect(
      await screen.findByRole('heading', { name: 'The list is held back until the API key is known to keep identity data' }, LAZY_PAGE),
    ).toBeInTheDocument();
    const retry = screen.getByRole('button', { name: 'Try again' });
    expect(retry).toHaveAccessibleDescription(/^Try again in 5 s, at /);
    await effectsRun();
    seconds(5);
    expect(liveOf(screen.getByText('The wait is over: Try again reads the list again.'))).toBe('polite');
    expect(retry).not.toHaveAttribute('aria-disabled');
  });
});
