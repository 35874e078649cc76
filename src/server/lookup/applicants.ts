import { z } from '../../kyc/contract/zod.ts';
import {
  type Applicant,
  type ApplicantFilter,
  type ApplicantsQuery,
  checkApplicantsQuery,
  DOCUMENTED_FILTERS,
  type Skipped,
  upstreamApplicantsEnvelopeSchema,
} from '../../kyc/contract/applicants.ts';
import { joinSkipped, readListRecord, withSkipped } from '../../kyc/contract/list-record.ts';
import { auditTrail, auditWritable, listLine, refuse } from '../audit/audit-trail.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { sendFailure, sendJson } from '../http/http-reply.ts';
import type { SignedInCall } from '../http/routes.ts';
import { readValue, WholeValue } from '../answer/answer-value.ts';
import { type LookupDeps, leftEarly, takeSlot, takeToken, unreadableAnswer } from './lookup-steps.ts';
import { otherTabCounts, withPageCount } from './queue-counts.ts';
import { type ApplicantsQueue, type FetchOnce, type Fetched, queuePage } from './queue-page.ts';

/**
 * `GET /api/applicants?status=&skip=&limit=&counts=`: one page of the service's list, for both roles (with
 * `counts=1`, every tab's count too: the whole view of the queue in one request). The query
 * is checked, a rate-limit token taken, the service asked (with the status-level key when there is
 * one), its records read one by one (list-record.ts: what cannot be read is left out and counted, never
 * the page's failure) and reduced to the listed fields, and one audit line written before anything is answered.
 */
/** The queue is per environment, with the lookups' audit log, limits and bounds. */
export type ApplicantsDeps = Pick<
  LookupDeps,
  | 'environment'
  | 'upstream'
  | 'hasStatusKey'
  | 'access'
  | 'rateLimiter'
  | 'audit'
  | 'refusals'
  | 'upstreamSlots'
  | 'timeoutMs'
  | 'maxResponseBytes'
  | 'metrics'
> & {
  /** The queue index, its filler and the environment's settings (none: the service's order, no dates). */
  queue?: ApplicantsQueue;
};

/** The service's largest page is not documented: a short page is filled up with at most this many more asks. */
const MAX_UPSTREAM_CALLS = 5;

/** Read through the answer's one scan (answer-value.ts); a body that is not JSON, or ends early, is not a list. */
const NOT_A_LIST = new ApiFailure('upstream_error', 'The applicants list of the KYC service is not JSON.');
const NOT_JSON = { notJson: NOT_A_LIST, incomplete: NOT_A_LIST };
/** A count no longer wanted: the view's page failed. */
const DROPPED = new ApiFailure('upstream_unreachable', 'The count was dropped.');

export async function listApplicants(deps: ApplicantsDeps, call: SignedInCall): Promise<void> {
  const level = deps.hasStatusKey ? 'status' : 'stripped';
  const checked = checkApplicantsQuery(new URL(call.req.url ?? '/', 'http://x').searchParams);
  const query = checked.ok ? checked.query : undefined;
  const audit = auditTrail(deps, call.res, 'request', listLine(deps.environment, call, query, level));

  // The limit first, as for lookups: a malformed query costs a token too, and refusals over the limit
  // (or while the shared store is down) are counted rather than written one by one.
  const limited = await takeToken(deps, call.req, call.identity, 'applicants');
  if (limited) return refuse(call.res, audit, limited, null, false, true);
  const stuck = auditWritable(deps);
  if (stuck) return sendFailure(call.res, stuck);
  if (!checked.ok) return refuse(call.res, audit, new ApiFailure('bad_request', checked.message));
  // The service asked to wait (its 429): the list is not asked for either until then (service-wait.ts).
  const waiting = deps.upstream.waiting();
  if (waiting) return refuse(call.res, audit, waiting, null, false, true);
  const gone = leftEarly(call.res);
  const slot = await takeSlot(deps, call.req, call.identity, gone);
  if (slot === 'gone') return;
  if (typeof slot !== 'function') return refuse(call.res, audit, slot);
  // The other tabs' counts are part of this one request (its token, its audit line), each in a slot of its own.
  const dropped = new AbortController();
  gone.addEventListener('abort', () => dropped.abort(), { once: true });
  const counting = checked.query.counts
    ? otherTabCounts(checked.query, (asked, signal) => tabPage(deps, call, asked, signal), isRefused, dropped.signal)
    : undefined;
  const fetched = await viewPage(deps, call, checked.query).finally(slot);
  const refused = fetched.ok ? undefined : refusedFilter(checked.query, fetched.upstreamStatus);
  // A refused filter with the counts is the view of a tab not offered (an old link): answered with the others' counts.
  if (!fetched.ok && !(refused && counting)) {
    dropped.abort();
    return refuse(call.res, audit, refused ?? fetched.failure, fetched.upstreamStatus, fetched.upstreamStatus !== null);
  }
  const page = fetched.ok ? fetched.page : { records: [], total: 0, upstreamStatus: fetched.upstreamStatus ?? 0 };
  const counts = counting && withPageCount(await counting, checked.query, fetched.ok ? fetched.page : undefined, !fetched.ok);
  const { records, total, upstreamStatus, ...about } = page;
  // The page's own line, now that its records are known.
  const answered = auditTrail(deps, call.res, 'request', listLine(deps.environment, call, query, level, records.length));
  if (!(await answered(200, refused ? refused.code : null, upstreamStatus, true))) return;
  const data = { records, total, skip: checked.query.skip, limit: checked.query.limit, ...about, ...counts };
  sendJson(call.res, 200, JSON.stringify({ status: 'success', data }));
}

/** A page of the list as the queue answers it: ordered by age where it can be (queue-page.ts). */
function viewPage(deps: ApplicantsDeps, call: SignedInCall, query: ApplicantsQuery, signal?: AbortSignal): Promise<Fetched> {
  const once: FetchOnce = (asked) => fetchOnce(deps, call, asked, signal);
  return deps.queue ? queuePage(deps.environment, deps.queue, query, once, (asked) => fetchPage(once, asked)) : fetchPage(once, query);
}

/** Another tab's one-record page, for its count: in one of the user's upstream slots, as a page of its own would be; `dropped`: no longer wanted. */
async function tabPage(deps: ApplicantsDeps, call: SignedInCall, query: ApplicantsQuery, dropped: AbortSignal) {
  const slot = await takeSlot(deps, call.req, call.identity, dropped);
  if (slot === 'gone' || typeof slot !== 'function') return slot;
  return viewPage(deps, call, query, dropped)
    .catch(() => 'gone' as const)
    .finally(slot);
}

const isRefused = (filter: ApplicantFilter | undefined, upstreamStatus: number | null) =>
  refusedFilter({ status: filter, skip: 0, limit: 1 }, upstreamStatus) !== undefined;

/**
 * A filter the service does not document, which it answers 400 or 404: it does not offer it (the page
 * then leaves its tab out), rather than the list being unavailable or broken.
 */
function refusedFilter(query: ApplicantsQuery, upstreamStatus: number | null): ApiFailure | undefined {
  if (!query.status || DOCUMENTED_FILTERS.includes(query.status) || (upstreamStatus !== 400 && upstreamStatus !== 404)) return undefined;
  const message = `This KYC service does not offer the "${query.status}" filter (HTTP ${upstreamStatus}): its candidates are listed under All.`;
  return new ApiFailure('applicants_unavailable', message);
}

/** One page as asked; a service that serves fewer records than asked is asked again for the rest. */
async function fetchPage(fetchOnce: FetchOnce, query: ApplicantsQuery): Promise<Fetched> {
  const records: Applicant[] = [];
  let skipped: Skipped | undefined;
  let total = 0;
  let upstreamStatus = 0;
  // What the service served, read or not: the next ask starts after it.
  let served = 0;
  for (let asks = 0; asks < MAX_UPSTREAM_CALLS; asks++) {
    const part = await fetchOnce({ ...query, skip: query.skip + served, limit: query.limit - served });
    if (!part.ok) return part;
    records.push(...part.page.records);
    skipped = joinSkipped(skipped, part.page.skipped);
    const count = part.page.records.length + (part.page.skipped?.count ?? 0);
    served += count;
    ({ total, upstreamStatus } = part.page);
    const complete = served >= query.limit || query.skip + served >= total;
    if (complete || count === 0) break;
  }
  return { ok: true, page: { records: records.slice(0, query.limit), total, upstreamStatus, ...(skipped ? { skipped } : {}) } };
}

async function fetchOnce(deps: ApplicantsDeps, call: SignedInCall, query: ApplicantsQuery, dropped?: AbortSignal): Promise<Fetched> {
  if (dropped?.aborted) return { ok: false, failure: DROPPED, upstreamStatus: null };
  const upstreamCall = deps.upstream.fetchApplicants({ query, scope: deps.hasStatusKey ? 'status' : 'full' });
  const abort = () => {
    if (!call.res.writableFinished || dropped?.aborted) upstreamCall.abort();
  };
  // A count listens to the view's signal (the browser left, or the page failed); the page to its response.
  if (dropped) dropped.addEventListener('abort', abort, { once: true });
  else call.res.once('close', abort);
  try {
    const outcome = await upstreamCall.outcome;
    if (!outcome.ok) return outcome;
    const upstreamStatus = outcome.response.statusCode ?? 200;
    const unreadable = unreadableAnswer(outcome.response);
    if (unreadable) {
      outcome.response.destroy();
      return { ok: false, failure: unreadable, upstreamStatus };
    }
    const limits = { maxResponseBytes: deps.maxResponseBytes, keys: deps.upstream.keys };
    const read = await readValue(outcome.response, limits, (path) => new WholeValue(path), NOT_JSON);
    if (!read.ok) return { ...read, upstreamStatus };
    const parsed = upstreamApplicantsEnvelopeSchema.safeParse(read.value);
    if (!parsed.success) {
      // The issues name fields and expected types, never the values.
      const message = `The applicants list of the KYC service does not have the expected shape: ${z.prettifyError(parsed.error)}`;
      return { ok: false, failure: new ApiFailure('upstream_error', message), upstreamStatus };
    }
    const { records, skipped } = readRecords(parsed.data.data.records, call.identity.role === 'compliance');
    return { ok: true, page: { records, total: parsed.data.data.total, upstreamStatus, ...(skipped ? { skipped } : {}) } };
  } finally {
    if (dropped) dropped.removeEventListener('abort', abort);
    else call.res.off('close', abort);
  }
}

/** Each record read on its own: those that cannot be read are left out, counted and said why, never the page's failure. */
function readRecords(values: readonly unknown[], names: boolean): { records: Applicant[]; skipped: Skipped | undefined } {
  const records: Applicant[] = [];
  const reasons: string[] = [];
  for (const value of values) {
    const read = readListRecord(value, { names });
    if (read.ok) records.push(read.applicant);
    else reasons.push(read.reason);
  }
  return { records, skipped: withSkipped(undefined, reasons) };
}
