import type { LookupKind } from './lookup.ts';

/**
 * What the browser needs of the `/api` contract before it checks any answer: the paths, the header the
 * app sends, and the pages a sign-in can be refused to. No schema: the app's first load carries no zod
 * (its schemas, api.ts, load with the first answer to check), so nothing here may import it.
 */

/**
 * Why an OpenID Connect sign-in gave no session. The server sends the browser back to
 * `/sign-in-refused/<reason>`, a page of the app that explains it.
 */
export const SIGN_IN_REFUSALS = ['no_role', 'stale', 'rejected', 'provider_unavailable', 'store_unavailable'] as const;
export type SignInRefusal = (typeof SIGN_IN_REFUSALS)[number];
export const SIGN_IN_REFUSED_PATH = '/sign-in-refused/';

export const API_PREFIX = '/api';

/**
 * The embedded sandbox has no operator console: its environment's dashboard link opens this page of the
 * app, which says where a real service's decision is taken (`/sandbox-dashboard/<recordId>`).
 */
export const SANDBOX_DASHBOARD_PATH = '/sandbox-dashboard/';
export const SANDBOX_DASHBOARD_URL = `${SANDBOX_DASHBOARD_PATH}{recordId}`;

/**
 * Sent by the app on every `/api` call, and required by the server: a page on another site cannot send a
 * custom header without a CORS preflight, which the server refuses, so it cannot make lookups in a
 * signed-in user's name.
 */
export const APP_REQUEST_HEADER = { name: 'X-Candidate-Lookup', value: '1' } as const;

/** The API's path prefix for an environment: `/api`, or `/api/e/<name>` for one other than the default. */
export function apiBase(environment: string | undefined): string {
  return environment === undefined ? API_PREFIX : `${API_PREFIX}/e/${encodeURIComponent(environment)}`;
}

/**
 * An environment's name from its path segment (`/e/<name>`, in the app's pages and in the API alike):
 * decoded, or as written when it is not correctly percent-encoded (no environment is named so).
 */
export function decodeEnvironmentName(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Two routes of every environment the first load calls (the others, and the table of all of them the
 * server answers: environment-paths.ts).
 */
export const META_ROUTE = '/meta';
export const CANDIDATES_ROUTE = '/candidates';

/** The routes outside any environment. */
export const SESSION_API_PATH = `${API_PREFIX}/session`;
export const OIDC_API_PREFIX = `${API_PREFIX}/oidc`;
export const OIDC_START_API_PATH = `${OIDC_API_PREFIX}/start`;
export const OIDC_CALLBACK_API_PATH = `${OIDC_API_PREFIX}/callback`;

/** A full lookup: `/api/candidates/<kind>/<id>`, the id already encoded as one path segment. */
export function candidateApiPath(kind: LookupKind, encodedId: string, environment?: string): string {
  return `${apiBase(environment)}${CANDIDATES_ROUTE}/${kind}/${encodedId}`;
}

export function metaApiPath(environment?: string): string {
  return `${apiBase(environment)}${META_ROUTE}`;
}
