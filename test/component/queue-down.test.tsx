import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { LIST_KEY_CHECK_ADVICE } from '../../src/kyc/contract/list-key-check.ts';
import type { Role } from '../../src/kyc/contract/roles.ts';
import { apiError, json, renderWithProviders } from './render.tsx';
import { effectsRun, fakeClock, seconds } from './wait-clock.ts';

/**
 * Found by the UI review (1 December) on an environment whose KYC service cannot be reached: the queue's
 * key-check explanation told a support user to open a candidate as a compliance user (any user's lookup
 * shows the key, the advice now says);
 * Try again stayed greyed for 5 s (the answer's Retry-After) with no word of why nor until when; and
 * while a read was under way, nothing beside it said so.
 */

/** The server's message for a list held back until a lookup shows the key keeps data (crawler-full-key.ts). */
const KEY_CHECK = `The applicants list is read once a lookup here has shown that the API key keeps identity data: without a status-level key it is read with the full key, and a key that archives after extract would delete every candidate on it. ${LIST_KEY_CHECK_ADVICE}`;

/** The proxy for a user of `role`: every page of the list answered by `reply`. */
function stubList(role: Role, reply: () => Response | Promise<Response>) {
  let calls = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
      const url = new URL(path, 'http://test');
      if (url.pathname === '/api/session') return json({ mode: 'proxy', user: `${role}-user`, role });
      if (url.pathname === '/api/meta') return json({ upstream: 'remote' });
      if (url.pathname !== '/api/applicants') return apiError(404, 'no_such_route', 'no');
      if (url.searchParams.get('limit') === '50') calls += 1;
      return reply();
    }),
  );
  return { calls: () => calls };
}

const keyCheck = () => apiError(503, 'archiving_check_unavailable', KEY_CHECK, { retryAfterSeconds: 5 }, { 'retry-after': '5' });

describe('the queue held back for the key check: one advice for every role', () => {
  it.each(['support', 'compliance', 'lead'] as const)('a %s user is told that opening any candidate here unblocks it', async (role) => {
    stubList(role, keyCheck);
    renderWithProviders('/applicants');
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(screen.getByText(new RegExp(`${role}-user`))).toBeInTheDocument());
    expect(alert).toHaveTextContent(LIST_KEY_CHECK_ADVICE);
    expect(alert).toHaveTextContent('read once a lookup here has shown that the API key keeps identity data');
  });
});

describe('Try again on the queue’s error: why it is held, and until when', () => {
  it('a wait the answer asked for without words (Retry-After) is counted down beside the held button', async () => {
    fakeClock();
    stubList('compliance', keyCheck);
    renderWithProviders('/applicants');
    const alert = await screen.findByRole('alert');
    const retry = within(alert).getByRole('button', { name: 'Try again' });
    expect(retry).toHaveAttribute('aria-disabled', 'true');
    // Before: held with no word of why. Now "Try again in 5 s, at 14:02:06 UTC.", which describes the held button.
    const countdown = within(alert).getByText(/^Try again in 5 s, at /);
    expect(retry.getAttribute('aria-describedby')).toBe(countdown.closest('[id]')!.id);
    await effectsRun();
    seconds(5);
    expect(alert).toHaveTextContent('The wait is over: Try again reads the list again.');
    expect(retry).not.toHaveAttribute('aria-disabled');
  });

  it('while a read is under way, says so beside Try again, which keeps its words', async () => {
    const user = userEvent.setup();
    let release: (() => void) | undefined;
    const down = () => apiError(502, 'upstream_unreachable', 'The KYC service could not be reached (connection refused).');
    const list = stubList('support', () => {
      if (list.calls() === 1) return down();
      return new Promise<Response>((resolve) => {
        release = () => resolve(down());
      });
    });
    renderWithProviders('/applicants');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading')).toHaveTextContent('The KYC service cannot be reached');
    const retry = within(alert).getByRole('button', { name: 'Try again' });
    // No wait asked: Try again is not held.
    expect(retry).not.toHaveAttribute('aria-disabled');
    await user.click(retry);
    await waitFor(() => expect(within(alert).getByTestId('queue-retrying')).toHaveTextContent('Reading the list…'));
    expect(retry).toHaveAttribute('aria-disabled', 'true');
    expect(retry).toHaveAccessibleName('Try again');
    act(() => release!());
    await waitFor(() => expect(within(alert).getByTestId('queue-retrying')).toBeEmptyDOMElement());
    expect(retry).not.toHaveAttribute('aria-disabled');
  });
});
