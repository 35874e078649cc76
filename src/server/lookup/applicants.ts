import { type Applicant, checkApplicantsQuery } from '../../kyc/contract/applicants.ts';
import { seesCertificateOutcomes } from '../../kyc/contract/roles.ts';
import { auditTrail, auditWritable, refuse } from '../audit/audit-trail.ts';
import { listLine } from '../audit/audit-lines.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { STORE_UNAVAILABLE, sendFailure, sendJson } from '../http/http-reply.ts';
import type { SignedInCall } from '../http/routes.ts';
import type { RateLimiter } from '../ops/rate-limit.ts';
import type { QueueIndex } from '../state/queue-index.ts';
import { StoreUnavailableError } from '../state/store.ts';
import type { LookupDeps } from './lookup-steps.ts';
import type { RoomsOf } from './presence-rooms.ts';
import type { QueueCrawler } from './queue-crawler.ts';
import { readView } from './queue-view.ts';

/**
 * `GET /api/applicants?status=&skip=&limit=&counts=&overSla=&attention=`: one page of the queue, for both
 * roles, read from the queue index (issue 32: queue-view.ts), never from the service, whose list only
 * the crawler reads (queue-crawler.ts). With `counts=1`, every tab's count too: the whole view of the
 * queue in one request. A view costs the service nothing and takes no lookup token: it takes one of the
 * user's queue views (limits.queueViewsPerMinute), a bucket of its own, so that one user cannot hammer
 * the index. One audit line per view, written before anything is answered.
 */

/** What an environment's queue is served with. */
export interface ApplicantsQueue {
  index: QueueIndex;
  /** Rows of a queue status waiting longer are over the SLA (none: no SLA). */
  slaHours: number | undefined;
  /** Each user's queue views (their own bucket, not the lookups'). */
  views: RateLimiter;
  /** The environment's crawler (started with the server unless turned off). */
  crawler: QueueCrawler;
  /** Each row's presence rooms (presence-rooms.ts): the page finds who else has a row's candidate open by them. */
  rooms: RoomsOf;
  now?: () => number;
}

export type ApplicantsDeps = Pick<LookupDeps, 'environment' | 'hasStatusKey' | 'access' | 'audit' | 'refusals' | 'metrics'> & {
  queue: ApplicantsQueue;
};

const NO_SLA = new ApiFailure('bad_request', 'overSla=1 needs an SLA, and this environment has none (queueSlaHours is 0).');
const ATTENTION_FOR_COMPLIANCE = new ApiFailure(
  'bad_request',
  "attention=1 is for compliance users and leads: it filters on the certificates' outcome, which support users do not see.",
);

export async function listApplicants(deps: ApplicantsDeps, call: SignedInCall): Promise<void> {
  const checked = checkApplicantsQuery(new URL(call.req.url ?? '/', 'http://x').searchParams);
  const query = checked.ok ? checked.query : undefined;
  const audit = auditTrail(deps, call.res, 'request', listLine(deps.environment, call, query));
  // The limit first, as for lookups: a malformed query costs a view too, and refusals over the limit
  // (or while the shared store is down) are counted rather than written one by one.
  const limited = await takeView(deps, call);
  if (limited) return refuse(call.res, audit, limited, { counted: true });
  const stuck = auditWritable(deps);
  if (stuck) return sendFailure(call.res, stuck);
  if (!checked.ok) return refuse(call.res, audit, new ApiFailure('bad_request', checked.message));
  const compliance = seesCertificateOutcomes(call.identity.role);
  if (checked.query.attention && !compliance) return refuse(call.res, audit, ATTENTION_FOR_COMPLIANCE);
  if (checked.query.overSla && deps.queue.slaHours === undefined) return refuse(call.res, audit, NO_SLA);
  const now = (deps.queue.now ?? Date.now)();
  let view: Awaited<ReturnType<typeof readView>>;
  try {
    view = await readView(deps.queue.index.store, deps.environment, {
      query: checked.query,
      slaHours: deps.queue.slaHours,
      now,
      compliance,
    });
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    return refuse(call.res, audit, STORE_UNAVAILABLE);
  }
  if (!view.ok) return refuse(call.res, audit, view.failure);
  // The view's own line, now that its records are known: whose they were, and whether they carried personal data.
  const { records } = view.data;
  const line = listLine(deps.environment, call, query, null, {
    records: records.length,
    shown: records,
    personalData: personalIn(records),
  });
  const answered = auditTrail(deps, call.res, 'request', line);
  if (!(await answered(200, null))) return;
  const rows = records.map((record) => ({ ...record, rooms: deps.queue.rooms(record) }));
  sendJson(call.res, 200, JSON.stringify({ status: 'success', data: { ...view.data, records: rows } }));
}

/**
 * Whether a page carried personal data (a compliance user's, with a name or a certificate's outcome). Its
 * line names every row it showed either way (by ids only), so that each candidate's Activity shows who saw
 * them in the queue, their status, dates and ids included: this says which kind of view it was.
 */
const personalIn = (records: readonly Applicant[]): boolean =>
  records.some((record) => record.name !== undefined || record.certificate !== undefined);

/** One of the user's queue views; the refusal says how long to wait. */
async function takeView(deps: ApplicantsDeps, call: SignedInCall): Promise<ApiFailure | undefined> {
  let taken: Awaited<ReturnType<RateLimiter['take']>>;
  try {
    taken = await deps.queue.views.take(deps.access.rateLimitKey(call.req, call.identity));
  } catch (error) {
    if (error instanceof StoreUnavailableError) return STORE_UNAVAILABLE;
    throw error;
  }
  if (taken.ok) return undefined;
  deps.metrics.rateLimited.inc({ limit: 'applicants' });
  const { retryAfterSeconds } = taken;
  return new ApiFailure('rate_limited', `You have opened the queue many times in a short time. Try again in ${retryAfterSeconds} s.`, {
    retryAfterSeconds,
  });
}
