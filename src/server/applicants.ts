import { z } from '../kyc/contract/zod.ts';
import {
  type Applicant,
  type ApplicantsQuery,
  checkApplicantsQuery,
  toApplicant,
  upstreamApplicantsEnvelopeSchema,
} from '../kyc/contract/applicants.ts';
import type { ListAuditEntry } from './audit.ts';
import { type Failure, STORE_UNAVAILABLE, sendError, sendFailure, sendJson } from './http-reply.ts';
import type { Take } from './rate-limit.ts';
import type { SignedInCall } from './routes.ts';
import { StoreUnavailableError } from './state/store.ts';
import { readUpstreamBody } from './upstream-body.ts';
import { type LookupDeps, takeSlot } from './lookup.ts';

/**
 * `GET /api/applicants?status=&skip=&limit=`: one page of the service's list, for both roles. The query
 * is checked, a rate-limit token taken, the service asked (with the status-level key when there is
 * one), its records checked against the contract and reduced to the listed fields, and one audit line
 * written before anything is answered.
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
>;

/** The service's largest page is not documented: a short page is filled up with at most this many more asks. */
const MAX_UPSTREAM_CALLS = 5;

type Page = { records: Applicant[]; total: number; upstreamStatus: number };
type Fetched = { ok: true; page: Page } | { ok: false; failure: Failure; upstreamStatus: number | null };

export async function listApplicants(deps: ApplicantsDeps, call: SignedInCall): Promise<void> {
  const level: ListAuditEntry['level'] = deps.hasStatusKey ? 'status' : 'stripped';
  const checked = checkApplicantsQuery(new URL(call.req.url ?? '/', 'http://x').searchParams);
  const query = checked.ok ? checked.query : undefined;
  const audit = async (
    status: number,
    code: Failure['code'] | null,
    upstreamStatus: number | null,
    records: number | null,
    counted = false,
  ) => {
    try {
      const entry: ListAuditEntry = {
        time: new Date().toISOString(),
        user: call.identity.user,
        role: call.identity.role,
        env: deps.environment,
        kind: 'list',
        filter: query ? (query.status ?? 'all') : null,
        skip: query?.skip ?? null,
        limit: query?.limit ?? null,
        records,
        status,
        code,
        upstreamStatus,
        level: upstreamStatus === null ? null : level,
        durationMs: Math.round(performance.now() - call.started),
      };
      await (counted ? deps.refusals.refused(entry) : deps.audit?.record(entry));
      return true;
    } catch {
      const message = 'This request could not be recorded in the audit log, so it was refused. An administrator must check AUDIT_LOG.';
      sendError(call.res, 503, 'audit_unavailable', message);
      return false;
    }
  };
  const refuse = async (failure: Failure, upstreamStatus: number | null = null, counted = false) => {
    if (await audit(failure.status, failure.code, upstreamStatus, null, counted)) sendFailure(call.res, failure);
  };

  // The limit first, as for lookups: a malformed query costs a token too, and refusals over the limit
  // are counted rather than written one by one.
  let allowed: Take;
  try {
    allowed = await deps.rateLimiter.take(deps.access.rateLimitKey(call.req, call.identity));
  } catch (error) {
    if (error instanceof StoreUnavailableError) return refuse(STORE_UNAVAILABLE);
    throw error;
  }
  if (!allowed.ok) {
    const failure: Failure = {
      status: 429,
      code: 'rate_limited',
      message: `You have made many requests in a short time. Try again in ${allowed.retryAfterSeconds} s.`,
      extra: { retryAfterSeconds: allowed.retryAfterSeconds },
      headers: { 'Retry-After': String(allowed.retryAfterSeconds) },
    };
    return refuse(failure, null, true);
  }
  if (!checked.ok) return refuse({ status: 400, code: 'bad_request', message: checked.message });
  const slot = await takeSlot(deps, call.req, call.res, call.identity);
  if (slot === 'gone') return;
  if (typeof slot !== 'function') return refuse(slot);
  const fetched = await fetchPage(deps, call, checked.query).finally(slot);
  if (!fetched.ok) return refuse(fetched.failure, fetched.upstreamStatus);
  const { records, total, upstreamStatus } = fetched.page;
  if (!(await audit(200, null, upstreamStatus, records.length))) return;
  const data = { records, total, skip: checked.query.skip, limit: checked.query.limit };
  sendJson(call.res, 200, JSON.stringify({ status: 'success', data }));
}

/** One page as asked; a service that serves fewer records than asked is asked again for the rest. */
async function fetchPage(deps: ApplicantsDeps, call: SignedInCall, query: ApplicantsQuery): Promise<Fetched> {
  const records: Applicant[] = [];
  let total = 0;
  let upstreamStatus = 0;
  for (let asks = 0; asks < MAX_UPSTREAM_CALLS; asks++) {
    const part = await fetchOnce(deps, call, { ...query, skip: query.skip + records.length, limit: query.limit - records.length });
    if (!part.ok) return part;
    records.push(...part.page.records);
    ({ total, upstreamStatus } = part.page);
    const complete = records.length >= query.limit || query.skip + records.length >= total;
    if (complete || part.page.records.length === 0) break;
  }
  return { ok: true, page: { records: records.slice(0, query.limit), total, upstreamStatus } };
}

async function fetchOnce(deps: ApplicantsDeps, call: SignedInCall, query: ApplicantsQuery): Promise<Fetched> {
  const upstreamCall = deps.upstream.fetchApplicants({ query, scope: deps.hasStatusKey ? 'status' : 'full' });
  const abort = () => {
    if (!call.res.writableFinished) upstreamCall.abort();
  };
  call.res.once('close', abort);
  try {
    const outcome = await upstreamCall.outcome;
    if (!outcome.ok) return outcome;
    const upstreamStatus = outcome.response.statusCode ?? 200;
    const read = await readUpstreamBody(outcome.response, deps.maxResponseBytes, deps.upstream.keyWatch());
    if (!read.ok) return { ...read, upstreamStatus };
    const broken = (message: string): Fetched => ({ ok: false, failure: { status: 502, code: 'upstream_error', message }, upstreamStatus });
    let json: unknown;
    try {
      json = JSON.parse(read.text);
    } catch {
      return broken('The applicants list of the KYC service is not JSON.');
    }
    const parsed = upstreamApplicantsEnvelopeSchema.safeParse(json);
    if (!parsed.success) {
      // The issues name fields and expected types, never the values.
      return broken(`The applicants list of the KYC service does not have the expected shape: ${z.prettifyError(parsed.error)}`);
    }
    return { ok: true, page: { records: parsed.data.data.records.map(toApplicant), total: parsed.data.data.total, upstreamStatus } };
  } finally {
    call.res.off('close', abort);
  }
}
