import { queryOptions } from '@tanstack/react-query';
import type { SessionInfo } from '../../kyc/contract/api.ts';
import { OIDC_START_API_PATH, SESSION_API_PATH } from '../../kyc/contract/api-paths.ts';
import { ApiError } from '../api/api-error.ts';
import { apiRequest, contractSchema } from '../api/api-request.ts';

const sessionInfoSchema = contractSchema('sessionInfoSchema');

export const sessionQueries = {
  all: () => ['session'] as const,
  current: () =>
    queryOptions({
      queryKey: sessionQueries.all(),
      queryFn: async ({ signal }): Promise<SessionInfo> => {
        try {
          return await apiRequest(SESSION_API_PATH, sessionInfoSchema, { signal });
        } catch (error) {
          // Behind an identity-aware proxy that did not identify us: a session with nobody in it.
          if (error instanceof ApiError && error.status === 401) return { mode: 'proxy' };
          throw error;
        }
      },
      staleTime: 5 * 60_000,
      retry: 1,
    }),
};

/** Signs in with the built-in users; throws an ApiError whose message says why not. */
export async function signIn({ username, password }: { username: string; password: string }): Promise<SessionInfo> {
  return apiRequest(SESSION_API_PATH, sessionInfoSchema, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  }).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === 'malformed')
      throw error.reworded('The server answered the sign-in in a way this page does not understand.');
    throw error;
  });
}

/** Ends the session on the server; throws, saying why, when the server did not confirm it. */
export async function signOut(): Promise<void> {
  await apiRequest(SESSION_API_PATH, null, { method: 'DELETE' }).catch((error: unknown) => {
    if (!(error instanceof ApiError)) throw error;
    const why = error.code === 'server_unreachable' ? 'the server could not be reached' : `the server answered HTTP ${error.status}`;
    throw error.reworded(`Not signed out: ${why}. Try again before you leave this computer.`);
  });
}

/**
 * OpenID Connect: asks this server where to sign in, keeping on the server (never in a URL) the page to
 * come back to. Answers the provider's URL, where the caller sends the browser; throws an ApiError that
 * says why not.
 */
export async function startOidcSignIn(returnTo: string): Promise<string> {
  const started = await apiRequest(OIDC_START_API_PATH, contractSchema('oidcStartSchema'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ returnTo }),
  });
  return started.authorizationUrl;
}
