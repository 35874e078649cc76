import { apiBase, CANDIDATES_ROUTE, META_ROUTE } from './api-paths.ts';
import type { LookupKind } from './lookup.ts';

/**
 * The routes of every environment, each below its base (`apiBase`): the server's route table answers
 * these (api-routes.ts, under `/api` and `/api/e/:env`), and the app calls them through the builders
 * here and in api-paths.ts, so that neither side types a path the other could spell differently. The
 * builders of the routes only pages after the first load call are here, apart from api-paths.ts, so
 * that the first load does not carry them.
 */
export const ENVIRONMENT_ROUTES = {
  meta: META_ROUTE,
  candidates: CANDIDATES_ROUTE,
  status: '/status',
  applicants: '/applicants',
  batch: '/batch',
  export: '/export',
  activity: '/activity',
} as const;

/** A lookup at status level: `/api/status/<kind>/<id>`, the id already encoded as one path segment. */
export function statusApiPath(kind: LookupKind, encodedId: string, environment?: string): string {
  return `${apiBase(environment)}${ENVIRONMENT_ROUTES.status}/${kind}/${encodedId}`;
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
