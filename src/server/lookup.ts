import type http from 'node:http';
import { checkId, decodeIdSegment, type LookupKind } from '../kyc/contract/lookup.ts';
import type { ArchivingGuard } from './archiving-guard.ts';
import type { AuditEntry, AuditLog } from './audit.ts';
import { type Audit, auditTrail, lookupLine, refuse } from './audit-trail.ts';
import type { RefusalLog } from './audit-refusals.ts';
import type { AccessControl } from './auth/access-control.ts';
import type { Identity } from './auth/identity.ts';
import { answerFull, type FullAnswer, isEncoded } from './full-answer.ts';
import { bytesSent, errorCodeSent, type Failure, STORE_UNAVAILABLE, sendFailure, sendJson } from './http-reply.ts';
import { partsAccepted } from './multipart-answer.ts';
import { type Limit, type Metrics, upstreamOutcome } from './metrics.ts';
import type { PartsBudget } from './parts-budget.ts';
import type { RateLimiter } from './rate-limit.ts';
import { StoreUnavailableError } from './state/store.ts';
import { type Reduced, reduceToStatusLevel } from './status-level.ts';
import type { UpstreamClient, UpstreamOutcome } from './upstream-client.ts';
import type { UpstreamSlots } from './upstream-slots.ts';

/**
 * One lookup, audit then answer: read the id, take a rate-limit token, ask the service, check the
 * response, and only once the audit line is written let an answer (or a refusal) leave. An audit log
 * that cannot be written turns every answer into a 503: the lookup fails closed.
 */

export interface LookupDeps {
  /** The environment's name, for the audit line. */
  environment: string;
  upstream: UpstreamClient;
  /** A status-level key is configured: support users' lookups are made with it. */
  hasStatusKey: boolean;
  access: Pick<AccessControl, 'rateLimitKey'>;
  rateLimiter: RateLimiter;
  audit: AuditLog | undefined;
  /** Refusals over the rate limit, counted per user rather than written one by one. */
  refusals: RefusalLog;
  maxResponseBytes: number;
  /** What answers in parts being built may hold at once (parts-budget.ts). */
  partsBudget: PartsBudget;
  /** Each user's requests to the service under way at once, bounded; a wait longer than `timeoutMs` is refused. */
  upstreamSlots: UpstreamSlots;
  timeoutMs: number;
  /** Where a key seen in an answer is reported (the key itself never is). */
  warn: (line: string) => void;
  /** Refuses full-level lookups once the key is seen to archive after extract; sees every full answer. */
  archiving: ArchivingGuard;
  metrics: Metrics;
}

export interface LookupCall {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  identity: Identity;
  kind: LookupKind;
  /** The path text after `/<kind>/`, still percent-encoded. */
  encodedId: string;
  /** `performance.now()` when the request arrived. */
  started: number;
  /** Status level whatever the role (the candidate page's freshness check). */
  statusOnly?: boolean;
}

type Level = NonNullable<AuditEntry['level']>;

export async function lookup(deps: LookupDeps, call: LookupCall): Promise<void> {
  const level = levelOf(call.statusOnly ? 'support' : call.identity.role, deps.hasStatusKey);
  countLookup(deps.metrics, call, level);
  const asked = readId(call.encodedId);
  const audit = auditTrail(deps, call.res, 'lookup', lookupLine(deps.environment, call, call.kind, asked.auditId, level));
  // The user's limit comes before anything else: every request costs a token, an invalid id too, and
  // once over the limit (or while the shared store is down) the refusals are counted rather than
  // written one by one.
  const limited = await takeToken(deps, call.req, call.identity, 'lookup');
  if (limited) return refuse(call.res, audit, limited, null, false, true);
  if (deps.audit && !deps.audit.available()) return void sendFailure(call.res, AUDIT_STUCK);
  if (!asked.ok) return refuse(call.res, audit, asked.failure);
  // Whatever the user's role, a lookup with the full key makes such a key delete the candidate's data.
  const archiving = level === 'status' ? undefined : await deps.archiving.refusal();
  if (archiving) return refuse(call.res, audit, archiving);

  const slot = await takeSlot(deps, call.req, call.res, call.identity);
  if (slot === 'gone') return;
  if (typeof slot !== 'function') return refuse(call.res, audit, slot);
  call.res.once('close', slot);
  // Asked again now, and one at a time until the key is known not to archive (archiving-guard.ts).
  const pass = level === 'status' ? undefined : await deps.archiving.admit(deps.timeoutMs, closed(call.res));
  if (pass && !pass.ok) {
    if (pass.failure?.code === 'rate_limited') deps.metrics.rateLimited.inc({ limit: 'archiving_check' });
    return pass.failure && refuse(call.res, audit, pass.failure);
  }

  // Support users never get picture parts: their answer is the status level, plain JSON.
  const inParts = level === 'full' && partsAccepted(call.req) ? call.req : undefined;
  // Asked uncompressed (upstream-client.ts): every byte is checked before it is passed on. The service is asked for JSON.
  const upstreamCall = deps.upstream.fetchCandidate({
    kind: call.kind,
    id: asked.id,
    scope: level === 'status' ? 'status' : 'full',
    browserHeaders: inParts ? { ...call.req.headers, accept: 'application/json' } : call.req.headers,
  });
  call.res.once('close', () => {
    // A full-level request, once sent, is read to its end for willArchiveAtDate (archive-watch.ts).
    if (!call.res.writableFinished && !pass) upstreamCall.abort();
  });
  const lookupAt = Date.now();
  const outcome = await timedOutcome(deps.metrics, upstreamCall.outcome);
  const watched = pass?.watch(outcome, lookupAt, call.res);
  if (!outcome.ok) return refuse(call.res, audit, outcome.failure, outcome.upstreamStatus, outcome.upstreamStatus !== null);

  const upstreamRes = watched ?? outcome.response;
  const upstreamStatus = upstreamRes.statusCode ?? 200;
  if (!isFramed(upstreamRes)) {
    upstreamRes.destroy();
    const message = 'The KYC service sent a response without a length, so it could not be checked to be complete.';
    return refuse(call.res, audit, { status: 502, code: 'upstream_error', message }, upstreamStatus, true);
  }
  if (isEncoded(upstreamRes)) {
    upstreamRes.destroy();
    const message = 'The KYC service sent a compressed answer although none was asked for, so it could not be checked.';
    return refuse(call.res, audit, { status: 502, code: 'upstream_error', message }, upstreamStatus, true);
  }
  if (level === 'full') {
    const full: FullAnswer = { upstreamRes, guard: deps.upstream.answerGuard(upstreamRes), audit, upstreamStatus, inParts };
    return answerFull(call.res, full, deps);
  }
  const reduced = await reduceToStatusLevel(upstreamRes, deps.maxResponseBytes, deps.upstream.keys);
  return answerStatusLevel(call.res, reduced, audit, upstreamStatus);
}

/** Counts the lookup while it is answered, and its outcome, time and bytes once its connection is done. */
function countLookup(metrics: Metrics, call: LookupCall, level: Level): void {
  metrics.lookupsInFlight.inc();
  call.res.once('close', () => {
    metrics.lookupsInFlight.dec();
    const code = errorCodeSent(call.res) ?? (call.res.writableFinished ? 'ok' : 'cut');
    metrics.lookups.inc({ code, role: call.identity.role, level });
    metrics.lookupSeconds.observe({ level }, (performance.now() - call.started) / 1000);
    metrics.lookupBytes.inc({ level }, bytesSent(call.res));
  });
}

/** The upstream's answer (or failure), timed until its status line. */
export async function timedOutcome(metrics: Metrics, pending: Promise<UpstreamOutcome>): Promise<UpstreamOutcome> {
  const end = metrics.upstreamSeconds.startTimer();
  const outcome = await pending;
  end({
    outcome: outcome.ok
      ? upstreamOutcome(outcome.response.statusCode ?? 200)
      : upstreamOutcome(outcome.upstreamStatus, outcome.failure.code),
  });
  return outcome;
}

/** Compliance users get the full record; support users the status level, by the status key or stripped here. */
export function levelOf(role: Identity['role'], hasStatusKey: boolean): Level {
  if (role === 'compliance') return 'full';
  return hasStatusKey ? 'status' : 'stripped';
}

type AskedId = { ok: true; id: string; auditId: string } | { ok: false; failure: Failure; auditId: string };

/**
 * The id asked for. The audit line holds the decoded id whenever the path text decodes as one segment,
 * valid or not; when it does not (a "/" in it, or broken percent-encoding), the path text as received.
 */
export function readId(encodedId: string): AskedId {
  const invalid = (message: string): Failure => ({ status: 400, code: 'invalid_id', message });
  const decoded = decodeIdSegment(encodedId);
  if (!decoded.ok) {
    const message =
      decoded.problem === 'not_one_segment'
        ? 'The id must be one URL path segment: encode "/" as %2F.'
        : 'The id is not correctly percent-encoded.';
    return { ok: false, failure: invalid(message), auditId: encodedId };
  }
  const check = checkId(decoded.id);
  if (!check.ok) return { ok: false, failure: invalid(check.message), auditId: decoded.id };
  return { ok: true, id: decoded.id, auditId: decoded.id };
}

/** While the audit log hangs, lookups are refused at once rather than each waiting for the timeout. */
const AUDIT_STUCK: Failure = {
  status: 503,
  code: 'audit_unavailable',
  message: 'The audit log is not answering, so lookups are refused for now. An administrator must check AUDIT_LOG.',
};

/**
 * A token of the user's rate limit, or the refusal: 429 over the limit, 503 when the shared store cannot
 * be asked. Either repeats for as long as the user keeps asking, so it is counted, not written each time.
 */
export async function takeToken(
  deps: Pick<LookupDeps, 'rateLimiter' | 'access' | 'metrics'>,
  req: http.IncomingMessage,
  identity: Identity,
  limit: Limit,
): Promise<Failure | undefined> {
  let allowed: Awaited<ReturnType<RateLimiter['take']>>;
  try {
    allowed = await deps.rateLimiter.take(deps.access.rateLimitKey(req, identity));
  } catch (error) {
    if (error instanceof StoreUnavailableError) return STORE_UNAVAILABLE;
    throw error;
  }
  if (allowed.ok) return undefined;
  deps.metrics.rateLimited.inc({ limit });
  return {
    status: 429,
    code: 'rate_limited',
    message: `You have made many lookups in a short time. Try again in ${allowed.retryAfterSeconds} s.`,
    extra: { retryAfterSeconds: allowed.retryAfterSeconds },
    headers: { 'Retry-After': String(allowed.retryAfterSeconds) },
  };
}

/**
 * One of the user's slots for a request to the service (upstream-slots.ts): its release, `gone` when the
 * browser left while waiting, or the refusal when the wait was too long.
 */
export async function takeSlot(
  deps: Pick<LookupDeps, 'upstreamSlots' | 'timeoutMs' | 'access' | 'metrics'>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  identity: Identity,
): Promise<(() => void) | 'gone' | Failure> {
  const gone = new AbortController();
  const leave = () => gone.abort();
  res.once('close', leave);
  const release = await deps.upstreamSlots.acquire(deps.access.rateLimitKey(req, identity), deps.timeoutMs, gone.signal);
  res.off('close', leave);
  if (release) return release;
  if (gone.signal.aborted) return 'gone';
  deps.metrics.rateLimited.inc({ limit: 'in_flight' });
  return {
    status: 429,
    code: 'rate_limited',
    message: 'You have several lookups waiting for the KYC service already. Try again when they are done.',
    extra: { retryAfterSeconds: 1 },
    headers: { 'Retry-After': '1' },
  };
}

/** Aborted when the browser goes away. */
function closed(res: http.ServerResponse): AbortSignal {
  const gone = new AbortController();
  res.once('close', () => gone.abort());
  return gone.signal;
}

/** Without a length or chunked framing, a body cut short would look complete: such a body is not passed on. */
export function isFramed(upstreamRes: Pick<http.IncomingMessage, 'headers'>): boolean {
  return upstreamRes.headers['content-length'] !== undefined || /\bchunked\b/i.test(upstreamRes.headers['transfer-encoding'] ?? '');
}

/** Support users: the status-level record only, checked here whichever key fetched it. */
async function answerStatusLevel(res: http.ServerResponse, reduced: Reduced, audit: Audit, upstreamStatus: number) {
  if (!reduced.ok) return refuse(res, audit, reduced.failure, upstreamStatus, true);
  if (await audit(200, null, upstreamStatus, true)) sendJson(res, 200, reduced.body);
}
