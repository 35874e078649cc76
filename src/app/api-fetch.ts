import { APP_REQUEST_HEADER } from '../kyc/contract/api.ts';

/**
 * Every call of the app to this server's `/api`: with the header the server requires of the app's own
 * pages, and the session cookie. Call sites use this, never `fetch` directly.
 */
export function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set(APP_REQUEST_HEADER.name, APP_REQUEST_HEADER.value);
  return fetch(path, { credentials: 'same-origin', ...init, headers });
}
