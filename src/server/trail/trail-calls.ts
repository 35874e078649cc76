import type { AuditFilter } from '../../kyc/contract/audit-search.ts';
import { readsAuditTrail } from '../../kyc/contract/roles.ts';
import type { AuditLog } from '../audit/audit.ts';
import type { AccessControl } from '../auth/access-control.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { leftEarly, methodNotAllowed, STORE_UNAVAILABLE } from '../http/http-reply.ts';
import type { Identity } from '../http/identity.ts';
import { type BodySchema, readJsonBody } from '../http/request-body.ts';
import type { SignedInCall } from '../http/routes.ts';
import type { Limit, Metrics } from '../ops/metrics.ts';
import type { RateLimiter, Take } from '../ops/rate-limit.ts';
import { StoreUnavailableError } from '../state/store.ts';
import type { AuditStore } from './audit-store.ts';
import type { OtherId, SameCandidate } from './same-candidate.ts';
import type { Asker } from './trail-reads.ts';

/** What the audit trail's routes share (audit-routes.ts, audit-export-route.ts): their dependencies, and the steps of a call. */

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
  /** A download that takes nothing for this long is cut off (browserStallMs), as an answer in parts is. */
  stallMs: number;
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

export function leadsOnly(identity: Identity): void {
  if (!readsAuditTrail(identity.role)) {
    throw new ApiFailure('role_forbidden', 'The audit page is for compliance leads: ask whoever runs Candidate Lookup for the lead role.');
  }
}

export /** The candidate's other id, when the filter names them by one and an index knows the other; never a reason to fail the search. */
async function otherIdOf(deps: TrailDeps, filter: AuditFilter): Promise<OtherId | undefined> {
  try {
    return await deps.sameCandidate?.(filter);
  } catch {
    return undefined;
  }
}

/** Whose read of the trail it is, for its turn among this instance's reads (trail-reads.ts); dropped if they go first. */
export function askerOf(deps: Pick<TrailDeps, 'rateLimitKey'>, call: SignedInCall): Asker {
  return { reader: deps.rateLimitKey(call.req, call.identity), signal: leftEarly(call.res) };
}

/**
 * One of the lead's searches or exports; refused, it says how long to wait. Both take from one bucket, so
 * the refusal names both: a search refused after many exports, or the reverse, is the same wait.
 */
export function takeSearch(deps: TrailDeps, call: SignedInCall): Promise<void> {
  return takeFrom(deps, deps.searches, call, 'audit');
}

const REFUSALS: Record<'audit' | 'activity', string> = {
  audit: 'You have searched or exported the audit trail many times in a short time.',
  activity: "You have asked for candidates' activity many times in a short time.",
};

export async function takeFrom(
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
export function readJson<T>(call: SignedInCall, schema: BodySchema<T>, what: string): Promise<T> {
  postOnly(call, what);
  return readJsonBody(call, 16 * 1024, schema, what);
}

/** A POST of JSON, or the refusal that says what to send. */
export function postOnly({ req }: SignedInCall, what: string): void {
  if (req.method !== 'POST') throw methodNotAllowed('POST', `Send the ${what} with POST.`);
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    throw new ApiFailure('unsupported_media_type', `Send the ${what} as JSON.`);
  }
}
