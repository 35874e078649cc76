import { queryOptions } from '@tanstack/react-query';
import { apiErrorBodySchema, oidcStartSchema, sessionInfoSchema, type SessionInfo } from '../../kyc/contract/api.ts';
import { apiFetch } from '../api-fetch.ts';

export const sessionQueries = {
  all: () => ['session'] as const,
  current: () =>
    queryOptions({
      queryKey: sessionQueries.all(),
      queryFn: async ({ signal }): Promise<SessionInfo> => {
        const response = await apiFetch('/api/session', { signal, headers: { accept: 'application/json' }, credentials: 'same-origin' });
        const body: unknown = await response.json().catch(() => undefined);
        if (response.ok) return sessionInfoSchema.parse(body);
        // Behind an identity-aware proxy that did not identify us: a session with nobody in it.
        if (response.status === 401) return { mode: 'proxy' };
        const error = apiErrorBodySchema.safeParse(body);
        if (error.success) throw new SessionError(error.data.error.message, error.data.error.code);
        throw new SessionError(`/api/session answered HTTP ${response.status}`);
      },
      staleTime: 5 * 60_000,
      retry: 1,
    }),
};

/** Who is signed in could not be learnt; `code` is the server's error code when it gave one. */
export class SessionError extends Error {
  override name = 'SessionError';
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** Signs in with the built-in users; throws an Error whose message says why not. */
export async function signIn({ username, password }: { username: string; password: string }): Promise<SessionInfo> {
  let response: Response;
  try {
    response = await apiFetch('/api/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify({ username, password }),
    });
  } catch {
    throw new Error('The Candidate Lookup server could not be reached.');
  }
  const body: unknown = await response.json().catch(() => undefined);
  const session = sessionInfoSchema.safeParse(body);
  if (response.ok && session.success) return session.data;
  if (response.ok) throw new Error('The server answered the sign-in in a way this page does not understand.');
  const error = apiErrorBodySchema.safeParse(body);
  throw new Error(error.success ? error.data.error.message : `Sign-in failed (HTTP ${response.status}).`);
}

/** Ends the session on the server; throws, saying why, when the server did not confirm it. */
export async function signOut(): Promise<void> {
  let response: Response;
  try {
    response = await apiFetch('/api/session', { method: 'DELETE', credentials: 'same-origin' });
  } catch {
    throw new Error('Not signed out: the server could not be reached. Try again before you leave this computer.');
  }
  if (!response.ok)
    throw new Error(`Not signed out: the server answered HTTP ${response.status}. Try again before you leave this computer.`);
}

/**
 * OpenID Connect: asks this server where to sign in, keeping on the server (never in a URL) the page to
 * come back to. Answers the provider's URL, where the caller sends the browser; throws an Error that
 * says why not.
 */
export async function startOidcSignIn(returnTo: string): Promise<string> {
  let response: Response;
  try {
    response = await apiFetch('/api/oidc/start', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ returnTo }),
    });
  } catch {
    throw new Error('The Candidate Lookup server could not be reached.');
  }
  const body: unknown = await response.json().catch(() => undefined);
  const started = oidcStartSchema.safeParse(body);
  if (response.ok && started.success) return started.data.authorizationUrl;
  const error = apiErrorBodySchema.safeParse(body);
  throw new Error(error.success ? error.data.error.message : `The sign-in could not start (HTTP ${response.status}).`);
}
