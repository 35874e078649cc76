import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { apiError, envelope, renderWithProviders, stubApi } from './render.tsx';
import { inTimeZone } from './in-time-zone.ts';
import { effectsRun, fakeClock, seconds } from './wait-clock.ts';

/**
 * This server's own limits (`rate_limited`, with when to ask again) on the pages that show them whole:
 * the candidate page's screen, the applicants list and a batch refused before it started. Each counts
 * the server's "in 46 s" down, holds its retry (focus kept, nothing asked) until the wait ends, says the
 * end politely, and then asks again. The clock (Date and the pages' one-second ticks) is the test's.
 */

const LAZY_PAGE = { timeout: 10_000 };
const record = { ...(await sampleCandidates({ now: new Date() }))[1]!.record, refId: 'abc' };

/** The live region a sentence is said in: its end is read out politely, its count not at all. */
const liveOf = (element: HTMLElement) => element.closest('[aria-live]')?.getAttribute('aria-live');

describe("this server's wait on the pages", { timeout: 20_000 }, () => {
  it('the candidate page counts its own limit down, holds Try again with the focus on it, then Try again looks the candidate up', async () => {
    fakeClock();
    let asked = 0;
    const { requests } = stubApi({
      candidates: {
        '/api/candidates/refId/abc': () =>
          ++asked === 1
            ? apiError(429, 'rate_limited', 'You have made many lookups in a short time. Try again in 46 s.', { retryAfterSeconds: 46 })
            : envelope(record),
      },
    });
    renderWithProviders('/candidates/refId/abc');
    const user = userEvent.setup();
    const lookups = () => requests.filter((url) => url === '/api/candidates/refId/abc').length;
    expect(await screen.findByRole('heading', { name: 'Too many lookups' }, LAZY_PAGE)).toBeInTheDocument();
    const body = screen.getByText(/Try again in 46 s/);
    expect(body.closest('div')).toHaveTextContent(
      /^You have made many lookups in a short time\. Try again in 46 s, at [^,]+\. The limit protects the KYC service and keeps lookups accountable\.$/,
    );
    expect(within(body).getByRole('time')).toHaveAttribute('dateTime', '2026-11-24T14:02:47.000Z');
    expect(liveOf(body)).toBe('off');
    const retry = screen.getByRole('button', { name: 'Try again' });
    // Held, not disabled: a disabled button cannot keep the keyboard's focus.
    expect(retry).toHaveAttribute('aria-disabled', 'true');
    expect(retry).toHaveAccessibleDescription(/^You have made many lookups in a short time\. Try again in 46 s/);
    retry.focus();
    await effectsRun();
    seconds(20);
    expect(screen.getByText(/Try again in 26 s/)).toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(lookups()).toBe(1);
    seconds(26);
    const over = screen.getByText('The wait is over: Try again looks the candidate up again.', { exact: false });
    expect(liveOf(over)).toBe('polite');
    expect(retry).toHaveFocus();
    expect(retry).not.toHaveAttribute('aria-disabled');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(lookups()).toBe(2));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Too many lookups' })).not.toBeInTheDocument());
  });

  it('the applicants list counts its limit down and holds Try again until it ends, then reads the list again', async () => {
    fakeClock();
    const page = '/api/applicants?skip=0&limit=50&counts=1';
    const { requests } = stubApi({
      candidates: {
        [page]: () =>
          apiError(429, 'rate_limited', 'You have opened the queue many times in a short time. Try again in 30 s.', {
            retryAfterSeconds: 30,
          }),
      },
    });
    renderWithProviders('/applicants');
    const user = userEvent.setup();
    const reads = () => requests.filter((url) => url === page).length;
    expect(await screen.findByRole('heading', { name: 'Too many requests' }, LAZY_PAGE)).toBeInTheDocument();
    expect(screen.getByText(/Try again in 30 s, at /)).toHaveTextContent(
      /^You have opened the queue many times in a short time\. Try again in 30 s/,
    );
    const retry = screen.getByRole('button', { name: 'Try again' });
    expect(retry).toHaveAttribute('aria-disabled', 'true');
    await effectsRun();
    seconds(10);
    expect(screen.getByText(/Try again in 20 s/)).toBeInTheDocument();
    const before = reads();
    await user.click(retry);
    expect(reads()).toBe(before);
    seconds(20);
    expect(liveOf(screen.getByText('The wait is over: Try again reads the list again.'))).toBe('polite');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(reads()).toBe(before + 1));
  });

  it('a batch refused by its budget counts the wait down and holds Retry until it ends, then looks the ids up', async () => {
    const { requests } = stubApi({
      candidates: {
        '/api/batch': () =>
          apiError(429, 'rate_limited', 'Your batch budget is used up for now: 3 ids can start in 12 s.', { retryAfterSeconds: 12 }),
      },
    });
    renderWithProviders('/batch');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('textbox', { name: 'refIds to look up' }, LAZY_PAGE));
    await user.paste('x\ny\nz');
    fakeClock();
    await user.click(screen.getByRole('button', { name: 'Look up all' }));
    const batches = () => requests.filter((url) => url === '/api/batch').length;
    const said = await screen.findByText(/3 ids can start in 12 s, at /);
    expect(within(said).getByRole('time')).toHaveAttribute('dateTime', '2026-11-24T14:02:13.000Z');
    const retry = screen.getByRole('button', { name: 'Retry the 3 left' });
    expect(retry).toHaveAttribute('aria-disabled', 'true');
    await effectsRun();
    seconds(5);
    expect(screen.getByText(/3 ids can start in 7 s/)).toBeInTheDocument();
    await user.click(retry);
    expect(batches()).toBe(1);
    seconds(7);
    expect(liveOf(screen.getByText('The wait is over.'))).toBe('polite');
    expect(retry).not.toHaveAttribute('aria-disabled');
    await user.click(retry);
    await waitFor(() => expect(batches()).toBe(2));
  });
});

describe('the end of a wait, said by its clock time', { timeout: 20_000 }, () => {
  // START, 14:02:01 UTC, is 22:02:01 here: a wait of two hours ends tomorrow.
  inTimeZone('Asia/Singapore');

  /** The candidate page refused by this server's limit with a wait of `wait` seconds: the countdown's sentence. */
  async function refusedFor(wait: number) {
    fakeClock();
    stubApi({
      candidates: {
        '/api/candidates/refId/abc': () =>
          apiError(429, 'rate_limited', `You have made many lookups in a short time. Try again in ${wait} s.`, { retryAfterSeconds: wait }),
      },
    });
    renderWithProviders('/candidates/refId/abc');
    await screen.findByRole('heading', { name: 'Too many lookups' }, LAZY_PAGE);
    return screen.getByText(/Try again in /);
  }

  it('a wait under an hour is said as how long and the time alone, not a full date', async () => {
    const said = await refusedFor(70);
    // Before: "Try again in 70 s (at Nov 24, 2026, 10:03:11 PM UTC+8)."
    expect(said).toHaveTextContent(/short time\. Try again in 1 min 10 s, at [^,]+\.$/);
    const end = within(said).getByRole('time');
    expect(end).toHaveAttribute('dateTime', '2026-11-24T14:03:11.000Z');
    expect(end.textContent).toMatch(/10:03:11/);
    expect(end.textContent).not.toMatch(/2026|Nov|24/);
    await effectsRun();
    seconds(25);
    expect(said).toHaveTextContent(/Try again in 45 s, at /);
  });

  it('a wait into another day keeps the date', async () => {
    const said = await refusedFor(2 * 3600);
    expect(said).toHaveTextContent(/Try again in 2 h, at /);
    const end = within(said).getByRole('time');
    expect(end).toHaveAttribute('dateTime', '2026-11-24T16:02:01.000Z');
    expect(end.textContent).toMatch(/Nov 25, 2026|25 Nov 2026/);
  });
});

describe('the end of a wait on a 12-hour clock', { timeout: 20_000 }, () => {
  // START, 14:02:01 UTC: the wait ends in the afternoon, at 2 o'clock.
  inTimeZone('UTC');

  it('says the hour as people write it, "2:02:49 PM", without a leading zero (UX review)', async () => {
    fakeClock();
    const message = 'You have made many lookups in a short time. Try again in 48 s.';
    stubApi({ candidates: { '/api/candidates/refId/abc': () => apiError(429, 'rate_limited', message, { retryAfterSeconds: 48 }) } });
    renderWithProviders('/candidates/refId/abc');
    await screen.findByRole('heading', { name: 'Too many lookups' }, LAZY_PAGE);
    const end = within(screen.getByText(/Try again in /)).getByRole('time');
    expect(end).toHaveAttribute('dateTime', '2026-11-24T14:02:49.000Z');
    // Before: "02:02:49 PM".
    expect(end.textContent).toMatch(/^2:02:49\sPM\b/);
  });
});
