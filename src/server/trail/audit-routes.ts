import type http from 'node:http';
import {
  ACTIVITY_ACTIONS,
  ACTIVITY_DAYS,
  type ActivityAnswer,
  activityRequestSchema,
  AUDIT_PAGE_SIZE,
  AUDIT_PATHS,
  type AuditFilter,
  type AuditSearchAnswer,
  auditQuerySchema,
  MAX_ACTIVITY_ROWS,
  MAX_AUDIT_EXPORT_ROWS,
} from '../../kyc/contract/audit-search.ts';
import { readsAuditTrail, seesActivity } from '../../kyc/contract/roles.ts';
import { downloadName } from '../../kyc/contract/download-name.ts';
import { writeLine } from '../audit/audit-trail.ts';
import { auditReadLine } from '../audit/audit-lines.ts';
import type { AuditLog } from '../audit/audit.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { countBytes, leftEarly, methodNotAllowed, STORE_UNAVAILABLE, sendJson } from '../http/http-reply.ts';
import type { AccessControl } from '../auth/access-control.ts';
import type { Limit, Metrics } from '../ops/metrics.ts';
import type { RateLimiter, Take } from '../ops/rate-limit.ts';
import { StoreUnavailableError } from '../state/store.ts';
import { type BodySchema, readJsonBody } from '../http/request-body.ts';
import type { Identity } from '../http/identity.ts';
import { any, get, type Route, type SignedInCall } from '../http/routes.ts';
import { csvHeader, csvRow } from './audit-csv.ts';
import { asLogged, readerFilter } from './audit-match.ts';
import type { AuditStore } from './audit-store.ts';
import type { Asker } from './trail-reads.ts';
import type { OtherId, SameCandidate } from './same-candidate.ts';

/**
 * The audit trail in the app (issue 34). The audit page's routes, leads only: a search (a page of rows,
 * newest first), its CSV export and the chain's state; each search and export is itself audited, before
 * its answer leaves, and refused (503) when that line cannot be written. A candidate's Activity
 * (`/api/activity`, an environment's route: composition/api-routes.ts) for compliance users and leads. Every answer
 * is `no-store`, and holds ids, who, when and from where: never candidate data.
 */

export interface TrailDeps {
  store: AuditStore;
  audit: AuditLog;
  /** A search by one id also finds the lines asked by the candidate's other id (same-candidate.ts). */
  sameCandidate?: SameCandidate;
  /**
   * Each lead's searches and exports (limits.auditSearchesPerMinute), a bucket of their own: each one
   * writes an audit line quoting its filters and reads the trail, so that unbounded, one lead grew the
   * log by 2 MB in 10 s.
   */
  searches: RateLimiter;
  rateLimitKey: AccessControl['rateLimitKey'];
  metrics: Pick<Metrics, 'rateLimited'>;
}

/** A candidate's Activity: the trail, and each user's reads of it (limits.activityPerMinute). */
export interface ActivityDeps {
  store: AuditStore;
  /**
   * Each user's Activity reads, a bucket of their own: each one reads the trail (this instance's files for
   * up to two seconds, without a database), and unbounded one user sent 518 in a few seconds.
   */
  reads: RateLimiter;
  rateLimitKey: AccessControl['rateLimitKey'];
  metrics: Pick<Metrics, 'rateLimited'>;
}

export function auditRoutes(deps: TrailDeps): Route[] {
  return [
    any(AUDIT_PATHS.search, (call) => searchRoute(deps, call)),
    any(AUDIT_PATHS.export, (call) => exportRoute(deps, call)),
    get(AUDIT_PATHS.status, async (call) => {
      leadsOnly(call.identity);
      sendJson(call.res, 200, JSON.stringify(await deps.store.status()));
    }),
  ];
}

function leadsOnly(identity: Identity): void {
  if (!readsAuditTrail(identity.role)) {
    throw new ApiFailure('role_forbidden', 'The audit page is for compliance leads: ask whoever runs Candidate Lookup for the lead role.');
  }
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

/** The candidate's other id, when the filter names them by one and an index knows the other; never a reason to fail the search. */
async function otherIdOf(deps: TrailDeps, filter: AuditFilter): Promise<OtherId | undefined> {
  try {
    return await deps.sameCandidate?.(filter);
  } catch {
    return undefined;
  }
}

/** Names offered for a user who found nothing; never a reason to fail the search. */
async function similarUsersOf(deps: TrailDeps, call: SignedInCall, typed: string, started: number): Promise<string[]> {
  try {
    return await deps.store.similarUsers(typed, started, askerOf(deps, call));
  } catch {
    return [];
  }
}

/** The filtered rows as CSV, streamed as they are read; the export's line is written before the first byte. */
async function exportRoute(deps: TrailDeps, call: SignedInCall): Promise<void> {
  leadsOnly(call.identity);
  postOnly(call, 'export');
  await takeSearch(deps, call);
  const { cursor: _cursor, limit: _limit, ...filter } = await readJson(call, auditQuerySchema, 'export');
  if (!(await writeLine(deps, call.res, 'export of the audit trail', auditReadLine(call, 'export', filter)))) return;
  const also = await otherIdOf(deps, filter);
  const { res } = call;
  res.writeHead(200, {
    'content-type': 'text/csv; charset=utf-8',
    // A fallback for scripts (curl -OJ), by the server's clock and offset. No browser user ever gets this name:
    // the route answers only a POST of JSON with the app's header, which no address typed, link or form can
    // send (http/request-guard.ts), so only the page's fetch reads it, and the page saves the body as a Blob
    // (which carries no header) under the reviewer's clock and offset (app/audit/audit-queries.ts).
    'content-disposition': `attachment; filename="${downloadName('audit', new Date())}"`,
    'cache-control': 'no-store',
  });
  try {
    await send(res, csvHeader());
    // The rows the table shows for the same filters (readerFilter): not this export's own line, nor the search's before it.
    for await (const row of deps.store.exportRows(
      readerFilter(asLogged({ ...filter, ...also }), call.identity.user),
      MAX_AUDIT_EXPORT_ROWS,
      askerOf(deps, call),
    )) {
      if (res.destroyed) return;
      await send(res, csvRow(row));
    }
    res.end();
  } catch {
    // Half a file must not pass for a whole one: the download fails.
    res.destroy();
  }
}

/** Writes, waiting for the socket when its buffer is full: a slow download holds a page of rows, not the whole export. */
function send(res: http.ServerResponse, text: string): Promise<void> {
  countBytes(res, Buffer.byteLength(text));
  if (res.write(text)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    res.once('drain', resolve);
    res.once('close', () => reject(new Error('closed')));
  });
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

/** Whose read of the trail it is, for its turn among this instance's reads (trail-reads.ts); dropped if they go first. */
function askerOf(deps: Pick<TrailDeps, 'rateLimitKey'>, call: SignedInCall): Asker {
  return { reader: deps.rateLimitKey(call.req, call.identity), signal: leftEarly(call.res) };
}

/**
 * One of the lead's searches or exports; refused, it says how long to wait. Both take from one bucket, so
 * the refusal names both: a search refused after many exports, or the reverse, is the same wait.
 */
function takeSearch(deps: TrailDeps, call: SignedInCall): Promise<void> {
  return takeFrom(deps, deps.searches, call, 'audit');
}

const REFUSALS: Record<'audit' | 'activity', string> = {
  audit: 'You have searched or exported the audit trail many times in a short time.',
  activity: "You have asked for candidates' activity many times in a short time.",
};

async function takeFrom(
  deps: Pick<TrailDeps, 'rateLimitKey' | 'metrics'>,
  bucket: RateLimiter,
  call: SignedInCall,
  limit: 'audit' | 'activity',
): Promise<void> {
  let taken: Take;
  try {
    taken = await bucket.take(deps.rateLimitKey(call.req, call.identity));
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw STORE_UNAVAILABLE;
    throw error;
  }
  if (taken.ok) return;
  deps.metrics.rateLimited.inc({ limit: limit satisfies Limit });
  const { retryAfterSeconds } = taken;
  throw new ApiFailure('rate_limited', `${REFUSALS[limit]} Try again in ${retryAfterSeconds} s.`, { retryAfterSeconds });
}

/** A POSTed JSON body of at most 16 kB checked against its schema; every refusal says what was wrong, in a line. */
function readJson<T>(call: SignedInCall, schema: BodySchema<T>, what: string): Promise<T> {
  postOnly(call, what);
  return readJsonBody(call, 16 * 1024, schema, what);
}

/** A POST of JSON, or the refusal that says what to send. */
function postOnly({ req }: SignedInCall, what: string): void {
  if (req.method !== 'POST') throw methodNotAllowed('POST', `Send the ${what} with POST.`);
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    throw new ApiFailure('unsupported_media_type', `Send the ${what} as JSON.`);
  }
}
