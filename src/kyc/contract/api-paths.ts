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
 * The routes of every environment, each below its base (`apiBase`): the server's route table answers
 * these (api-routes.ts, under `/api` and `/api/e/:env`), and the app calls them through the builders
 * below, so that neither side types a path the other could spell differently.
 */
export const ENVIRONMENT_ROUTES = {
  meta: '/meta',
  candidates: '/candidates',
  status: '/status',
  applicants: '/applicants',
  batch: '/batch',
  export: '/export',
  activity: '/activity',
} as const;

/** The routes outside any environment. */
export const SESSION_API_PATH = `${API_PREFIX}/session`;
export const EVENTS_API_PATH = `${API_PREFIX}/events`;
export const OIDC_API_PREFIX = `${API_PREFIX}/oidc`;
export const OIDC_START_API_PATH = `${OIDC_API_PREFIX}/start`;
export const OIDC_CALLBACK_API_PATH = `${OIDC_API_PREFIX}/callback`;

/** A full lookup: `/api/candidates/<kind>/<id>`, the id already encoded as one path segment. */
export function candidateApiPath(kind: LookupKind, encodedId: string, environment?: string): string {
  return `${apiBase(environment)}${ENVIRONMENT_ROUTES.candidates}/${kind}/${encodedId}`;
}

/** A lookup at status level: `/api/status/<kind>/<id>`, the id already encoded as one path segment. */
export function statusApiPath(kind: LookupKind, encodedId: string, environment?: string): string {
  return `${apiBase(environment)}${ENVIRONMENT_ROUTES.status}/${kind}/${encodedId}`;
}

export function metaApiPath(environment?: string): string {
  return `${apiBase(environment)}${ENVIRONMENT_ROUTES.meta}`;
}

/** The applicants list without its query (applicants.ts adds it: `applicantsApiPath`). */
export function applicantsApiBase(environment?: string): string {
  return `${apiBase(environment)}${ENVIRONMENT_ROUTES.applicants}`;
}

export function batchApiPath(environment?: string): string {
  return `${apiBase(environment)}${ENVIRONMENT_ROUTES.batch}`;
}

export function exportApiPath(environment?: string): string {
  return `${apiBase(environment)}${ENVIRONMENT_ROUTES.export}`;
}

export function activityApiPath(environment?: string): string {
  return `${apiBase(environment)}${ENVIRONMENT_ROUTES.activity}`;
}
