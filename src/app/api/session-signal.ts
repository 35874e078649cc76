import { OIDC_API_PREFIX, SESSION_API_PATH } from '../../kyc/contract/api-paths.ts';

/**
 * Any call refused because nobody is signed in any more (`401 unauthenticated`): the session ended on
 * the server (it idled out, was signed out in another tab, or the store forgot it). The API layer says
 * so here, and the app shell asks the server again at once, so that the header stops showing the user
 * and "Live" as soon as one call finds out, rather than at the next page load.
 */
const listeners = new Set<() => void>();

export function onSessionRefused(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Told by apiResponse; the session's own routes answer 401 for other reasons (a wrong password), and are not told. */
export function sessionRefused(path: string): void {
  if (path.startsWith(SESSION_API_PATH) || path.startsWith(`${OIDC_API_PREFIX}/`)) return;
  for (const listener of listeners) listener();
}
