import { queryOptions } from '@tanstack/react-query';
import { apiErrorBodySchema, sessionInfoSchema, type SessionInfo } from '../../kyc/contract/api.ts';
import { apiFetch } from '../api-fetch.ts';

export const sessionQuery = () =>
  queryOptions({
    queryKey: ['session'] as const,
    queryFn: async ({ signal }): Promise<SessionInfo> => {
      const response = await apiFetch('/api/session', { signal, headers: { accept: 'application/json' }, credentials: 'same-origin' });
      const body: unknown = await response.json().catch(() => undefined);
      if (response.ok) return sessionInfoSchema.parse(body);
      // Behind an identity-aware proxy that did not identify us: a session with nobody in it.
      if (response.status === 401) return { mode: 'proxy' };
      const error = apiErrorBodySchema.safeParse(body);
      throw new Error(error.success ? error.data.error.message : `/api/session answered HTTP ${response.status}`);
    },
    staleTime: 5 * 60_000,
    retry: 1,
  });

export type SignInResult = { ok: true; session: SessionInfo } | { ok: false; message: string };

export async function signIn(username: string, password: string): Promise<SignInResult> {
  let response: Response;
  try {
    response = await apiFetch('/api/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify({ username, password }),
    });
  } catch {
    return { ok: false, message: 'The Candidate Lookup server could not be reached.' };
  }
  const body: unknown = await response.json().catch(() => undefined);
  const session = sessionInfoSchema.safeParse(body);
  if (response.ok && session.success) return { ok: true, session: session.data };
  if (response.ok) return { ok: false, message: 'The server answered the sign-in in a way this page does not understand.' };
  const error = apiErrorBodySchema.safeParse(body);
  return { ok: false, message: error.success ? error.data.error.message : `Sign-in failed (HTTP ${response.status}).` };
}

export async function signOut(): Promise<void> {
  await apiFetch('/api/session', { method: 'DELETE', credentials: 'same-origin' }).catch(() => undefined);
}
