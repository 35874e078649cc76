import {
  ACTIVITY_ACTIONS,
  ACTIVITY_DAYS,
  type ActivityAnswer,
  activityRequestSchema,
  AUDIT_PAGE_SIZE,
  AUDIT_PATHS,
  type AuditSearchAnswer,
  auditQuerySchema,
  MAX_ACTIVITY_ROWS,
} from '../../kyc/contract/audit-search.ts';
import { seesActivity } from '../../kyc/contract/roles.ts';
import { writeLine } from '../audit/audit-trail.ts';
import { auditReadLine } from '../audit/audit-lines.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { sendJson } from '../http/http-reply.ts';
import { any, get, type Route, type SignedInCall } from '../http/routes.ts';
import { exportRoute, exportsUnderWay } from './audit-export-route.ts';
import { asLogged, readerFilter } from './audit-match.ts';
import {
  type ActivityDeps,
  askerOf,
  leadsOnly,
  otherIdOf,
  postOnly,
  readJson,
  takeFrom,
  takeSearch,
  type TrailDeps,
} from './trail-calls.ts';

export type { ActivityDeps, TrailDeps } from './trail-calls.ts';

/**
 * The audit trail in the app (issue 34). The audit page's routes, leads only: a search (a page of rows,
 * newest first), its CSV export and the chain's state; each search and export is itself audited, before
 * its answer leaves, and refused (503) when that line cannot be written. A candidate's Activity
 * (`/api/activity`, an environment's route: composition/api-routes.ts) for compliance users and leads. Every answer
 * is `no-store`, and holds ids, who, when and from where: never candidate data.
 */

export function auditRoutes(deps: TrailDeps): Route[] {
  const exporting = exportsUnderWay();
  return [
    any(AUDIT_PATHS.search, (call) => searchRoute(deps, call)),
    any(AUDIT_PATHS.export, (call) => exportRoute(deps, exporting, call)),
    get(AUDIT_PATHS.status, async (call) => {
      leadsOnly(call.identity);
      sendJson(call.res, 200, JSON.stringify(await deps.store.status()));
    }),
  ];
}

async function searchRoute(deps: TrailDeps, call: SignedInCall): Promise<void> {
  leadsOnly(call.identity);
  // Taken before the body is read, once it is a POST of JSON (a GET searches nothing): a malformed search is charged too.
  postOnly(call, 'search');
  await takeSearch(deps, call);
  const { cursor, limit, ...filter } = await readJson(call, auditQuerySchema, 'search');
  // The names offered after a search that found nothing share the search's time bound, not a new one.
  const started = performance.now();
  const also = await otherIdOf(deps, filter);
  // The page marks the rows after a break in their instance's chain (the store knows their places), and
  // lists whom each queue view showed: "who looked at whom" (a candidate's Activity needs neither).
  const found = await deps.store.search(readerFilter(asLogged({ ...filter, ...also }), call.identity.user), {
    limit: limit ?? AUDIT_PAGE_SIZE,
    ...(cursor ? { cursor } : {}),
    marked: true,
    shown: true,
    asker: askerOf(deps, call),
  });
  const line = auditReadLine(call, 'search', filter, { ...(cursor ? { page: true } : {}), rows: found.rows.length });
  // Part of a name finds no one (the search wants the whole name): the names that contain it are offered.
  const similar =
    filter.user !== undefined && !cursor && found.rows.length === 0 ? await similarUsersOf(deps, call, filter.user, started) : [];
  const answer: AuditSearchAnswer = {
    ...found,
    ...(also ? { alsoSearched: also } : {}),
    ...(similar.length ? { similarUsers: similar } : {}),
  };
  if (await writeLine(deps, call.res, 'search of the audit trail', line)) sendJson(call.res, 200, JSON.stringify(answer));
}

/** Names offered for a user who found nothing; never a reason to fail the search. */
async function similarUsersOf(deps: TrailDeps, call: SignedInCall, typed: string, started: number): Promise<string[]> {
  try {
    return await deps.store.similarUsers(typed, started, askerOf(deps, call));
  } catch {
    return [];
  }
}

/**
 * `POST /api/activity` (`/api/e/<name>/activity`): who looked this candidate up in this environment, at
 * what level, and what they carried out of the page, in the last 90 days, newest first. By either id, as
 * a line names the candidate by the id its lookup was asked with. Not audited itself: it is part of the
 * candidate page, whose lookup has its line.
 */
export async function activityRoute(deps: ActivityDeps, environment: string, call: SignedInCall, now = Date.now()): Promise<void> {
  if (!seesActivity(call.identity.role)) {
    throw new ApiFailure('role_forbidden', "A candidate's activity is for compliance users and leads.");
  }
  // Taken before the body is read, once it is a POST of JSON, as a search's is.
  postOnly(call, 'activity request');
  await takeFrom(deps, deps.reads, call, 'activity');
  const asked = await readJson(call, activityRequestSchema, 'activity request');
  if (asked.refId === undefined && asked.recordId === undefined)
    throw new ApiFailure('bad_request', 'Name the candidate: refId, recordId or both.');
  const since = new Date(now - ACTIVITY_DAYS * 86_400_000).toISOString();
  const filter = asLogged({ ...asked, env: environment, from: since, actions: ACTIVITY_ACTIONS });
  // Marked as the audit page's search marks them: a row after a break in its instance's chain says so.
  const found = await deps.store.search(filter, { limit: MAX_ACTIVITY_ROWS, marked: true, asker: askerOf(deps, call) });
  const answer: ActivityAnswer = {
    rows: found.rows,
    since,
    more: found.next !== undefined,
    source: found.source,
    ...(found.searched ? { searched: found.searched } : {}),
  };
  sendJson(call.res, 200, JSON.stringify(answer));
}
