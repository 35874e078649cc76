import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { apiError, json, renderWithProviders, stubApi } from './render.tsx';

const OIDC = { mode: 'oidc', provider: 'Contoso' } as const;
const STORE_DOWN_MESSAGE = 'Candidate Lookup cannot reach its session store (Redis), so sign-in and lookups are paused.';

describe('OpenID Connect sign-in in the browser', () => {
  it('offers "Sign in with <provider>", and starts with the page asked for kept on the server', async () => {
    const { fetchMock } = stubApi({
      session: OIDC,
      candidates: { '/api/oidc/start': apiError(502, 'identity_provider_unavailable', 'Contoso could not be reached to sign in.') },
    });
    renderWithProviders('/candidates/refId/abc');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with Contoso' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Contoso could not be reached to sign in.');
    const start = fetchMock.mock.calls.find(([url]) => url === '/api/oidc/start')!;
    expect(start[1]).toMatchObject({ method: 'POST', body: JSON.stringify({ returnTo: '/candidates/refId/abc' }) });
    // The button is usable again after a failure.
    expect(screen.getByRole('button', { name: 'Sign in with Contoso' })).toBeEnabled();
  });

  it('shows who is signed in through the provider, with a sign-out button', async () => {
    stubApi({ session: { ...OIDC, user: 'ana@example.org', role: 'compliance' } });
    renderWithProviders('/');
    expect(await screen.findByTestId('session')).toHaveTextContent('ana@example.org');
    expect(screen.getByTestId('session')).toHaveTextContent('Compliance');
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('says when sign-out did not reach the server, so nobody leaves the desk believing they are signed out', async () => {
    const user = userEvent.setup();
    const { fetchMock } = stubApi({ session: { ...OIDC, user: 'ana@example.org', role: 'compliance' } });
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
      init?.method === 'DELETE' ? Promise.reject(new TypeError('Failed to fetch')) : fetchMock(input, init),
    );
    renderWithProviders('/');
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Not signed out: the server could not be reached');
    // Still signed in, as the server says: the button stays to try again.
    expect(await screen.findByRole('button', { name: 'Sign out' })).toBeEnabled();
  });

  it('says nothing more when sign-out worked', async () => {
    const user = userEvent.setup();
    const { fetchMock } = stubApi({ session: { ...OIDC, user: 'ana@example.org', role: 'compliance' } });
    let signedOut = false;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === 'DELETE') {
        signedOut = true;
        return Promise.resolve(new Response(null, { status: 204 }));
      }
      if (signedOut && String(input) === '/api/session') return Promise.resolve(json(OIDC));
      return fetchMock(input, init);
    });
    renderWithProviders('/');
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('button', { name: 'Sign in with Contoso' })).toBeInTheDocument();
    expect(screen.queryByText(/Not signed out/)).not.toBeInTheDocument();
  });

  it('explains a user without a role, with nothing to retry', async () => {
    stubApi({ session: OIDC });
    renderWithProviders('/sign-in-refused/no_role');
    expect(await screen.findByRole('heading', { level: 1, name: 'Your account has no access to Candidate Lookup' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('none of the groups');
    expect(screen.queryByRole('button', { name: /sign|try/i })).not.toBeInTheDocument();
  });

  it('explains each other refusal and offers to start again', async () => {
    for (const [reason, title, button] of [
      ['stale', 'The sign-in did not complete', 'Start the sign-in again'],
      ['rejected', 'The sign-in provider refused the sign-in', 'Try again'],
      ['provider_unavailable', 'The sign-in provider cannot be reached', 'Try again'],
      ['store_unavailable', 'Sign-in is paused', 'Try again'],
      ['made-up', 'The sign-in did not complete', 'Sign in'],
    ] as const) {
      stubApi({ session: OIDC });
      const view = renderWithProviders(`/sign-in-refused/${reason}`);
      expect(await screen.findByRole('heading', { level: 1, name: title }), reason).toBeInTheDocument();
      expect(await screen.findByRole('button', { name: button }), reason).toBeInTheDocument();
      view.unmount();
    }
  });
});

describe('the shared session store down', () => {
  it('says sign-in and lookups are paused instead of the page, and comes back on "Try again"', async () => {
    let down = true;
    stubApi({
      session: () =>
        down
          ? apiError(503, 'store_unavailable', STORE_DOWN_MESSAGE, {}, { 'Retry-After': '5' })
          : json({ mode: 'users', user: 'ana', role: 'compliance' }),
    });
    renderWithProviders('/');
    // The session is asked once more after a second before the page gives up.
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Sign-in and lookups are paused' }, { timeout: 15_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('resumes by itself');
    down = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByTestId('session')).toHaveTextContent('ana'));
    expect(screen.queryByText('Sign-in and lookups are paused')).not.toBeInTheDocument();
  });

  it('gives a lookup refused for it its own screen with a retry button', async () => {
    stubApi({ candidates: { '/api/candidates/refId/abc': apiError(503, 'store_unavailable', STORE_DOWN_MESSAGE) } });
    renderWithProviders('/candidates/refId/abc');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign-in and lookups are paused' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveAttribute('data-error-kind', 'store_unavailable');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
