import type http from 'node:http';
import { type BatchEvent, type BatchRequest, batchRequestSchema, batchRowOf } from '../kyc/contract/batch.ts';
import { checkId, type LookupKind } from '../kyc/contract/lookup.ts';
import { z } from '../kyc/contract/zod.ts';
import type { ServedEnvironment } from './api-environments.ts';
import type { AuditEntry } from './audit.ts';
import type { RefusalLog } from './audit-refusals.ts';
import type { AccessControl } from './auth/access-control.ts';
import type { Identity } from './auth/identity.ts';
import { type Failure, readBody, STORE_UNAVAILABLE, sendError, sendFailure } from './http-reply.ts';
import { isFramed, levelOf, timedOutcome } from './lookup.ts';
import { requestIdOf } from './log.ts';
import type { RateLimiter, Take } from './rate-limit.ts';
import { type OneResult, runBatch } from './batch-runner.ts';
import type { SignedInCall } from './routes.ts';
import { StoreUnavailableError } from './state/store.ts';
import { reduceToStatusLevel } from './status-level.ts';

/**
 * `POST /api/batch` (`/api/e/<name>/batch`): up to 500 ids at status level, for every role. The ids
 * arrive once, in the body; the answer is NDJSON, one line per row as each lookup finishes, then a
 * `done` line. Batches have their own budget (ids per minute per user), reserved whole before the first
 * lookup, and run a few lookups at a time. Every id gets its own audit line, marked `batch`.
 */
export interface BatchDeps {
  budget: RateLimiter;
  access: Pick<AccessControl, 'rateLimitKey'>;
  /** Batches refused over the budget are counted per user, not written one line each. */
  refusals: RefusalLog;
  /** Lookups of one batch under way at once. */
  concurrency: number;
}

type FoundRow = ReturnType<typeof batchRowOf>;

/** 500 ids of at most 256 characters, as JSON, with room to spare. */
const MAX_BODY_BYTES = 1024 * 1024;

export async function batchRoute(served: ServedEnvironment, batch: BatchDeps, call: SignedInCall): Promise<void> {
  const { req, res, identity } = call;
  if (req.method !== 'POST') {
    return sendError(res, 405, 'method_not_allowed', 'Send a batch as POST with a JSON body.', undefined, { Allow: 'POST' });
  }
  // JSON only: a form or text/plain POST from another site cannot start a batch.
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    return sendError(res, 415, 'bad_request', 'Send the batch as JSON: {"kind":"refId","ids":[…]}.');
  }
  const request = await readRequest(req);
  if (!request.ok) return sendFailure(res, request.failure);
  const { kind, ids } = request.batch;

  const refused = await reserveBudget(batch, req, identity, ids.length);
  if (refused?.code === 'rate_limited') served.deps.metrics.rateLimited.inc({ limit: 'batch' });
  if (refused) {
    await auditRefusedBatch(served, batch.refusals, call, kind, ids.length, refused).catch(() => {});
    return sendFailure(res, refused);
  }

  res.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' });
  const write = (event: BatchEvent) => {
    if (!res.destroyed) res.write(`${JSON.stringify(event)}\n`);
  };
  // The browser went away (cancel, closed tab): nothing new is started.
  const gone = new AbortController();
  res.once('close', () => gone.abort());
  let found = 0;
  await runBatch<FoundRow>({
    count: ids.length,
    concurrency: batch.concurrency,
    signal: gone.signal,
    lookup: (index) => lookupOne(served, call, kind, ids[index]!, index, gone.signal),
    onResult(index, result) {
      if (result.ok) found++;
      write(result.ok ? result.row : { type: 'row', index, ok: false, code: result.code, message: result.message });
    },
    onWait: (seconds) => write({ type: 'wait', seconds }),
  });
  if (gone.signal.aborted) return;
  write({ type: 'done', found, failed: ids.length - found });
  res.end();
}

async function readRequest(req: http.IncomingMessage): Promise<{ ok: true; batch: BatchRequest } | { ok: false; failure: Failure }> {
  const bad = (message: string, status = 400): { ok: false; failure: Failure } => ({
    ok: false,
    failure: { status, code: 'bad_request', message },
  });
  let text: string;
  try {
    text = await readBody(req, MAX_BODY_BYTES);
  } catch {
    return bad('The batch is too large: at most 500 ids of at most 256 characters.', 413);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return bad('The batch is not valid JSON.');
  }
  const parsed = batchRequestSchema.safeParse(json);
  if (!parsed.success) return bad(`The batch is not valid: ${z.prettifyError(parsed.error).replace(/\n/g, ' ')}`);
  return { ok: true, batch: parsed.data };
}

async function reserveBudget(batch: BatchDeps, req: http.IncomingMessage, identity: Identity, count: number): Promise<Failure | undefined> {
  if (count > batch.budget.capacity) {
    return {
      status: 400,
      code: 'bad_request',
      message: `This server allows at most ${batch.budget.capacity} ids per minute in batches (RATE_LIMIT_BATCH_PER_MINUTE): split the list.`,
    };
  }
  let taken: Take;
  try {
    taken = await batch.budget.take(`batch:${batch.access.rateLimitKey(req, identity)}`, count);
  } catch (error) {
    if (error instanceof StoreUnavailableError) return STORE_UNAVAILABLE;
    throw error;
  }
  if (taken.ok) return undefined;
  return {
    status: 429,
    code: 'rate_limited',
    message: `Your batch budget is used up for now: ${count} ids can start in ${taken.retryAfterSeconds} s.`,
    extra: { retryAfterSeconds: taken.retryAfterSeconds },
    headers: { 'Retry-After': String(taken.retryAfterSeconds) },
  };
}

type Entry = Omit<AuditEntry, 'time' | 'user' | 'role' | 'env' | 'batch'>;

function record(served: ServedEnvironment, call: SignedInCall, entry: Entry): Promise<void> {
  const { identity } = call;
  return (
    served.deps.audit?.record({
      time: new Date().toISOString(),
      requestId: requestIdOf(call.res),
      user: identity.user,
      role: identity.role,
      env: served.deps.environment,
      ...entry,
      batch: true,
    }) ?? Promise.resolve()
  );
}

/** A batch refused whole (its budget): one line that says how many ids it held, or counted when repeated. */
function auditRefusedBatch(
  served: ServedEnvironment,
  refusals: RefusalLog,
  call: SignedInCall,
  kind: LookupKind,
  count: number,
  failure: Failure,
) {
  return refusals.refused({
    time: new Date().toISOString(),
    requestId: requestIdOf(call.res),
    user: call.identity.user,
    role: call.identity.role,
    env: served.deps.environment,
    kind,
    id: '',
    batchSize: count,
    status: failure.status,
    code: failure.code,
    upstreamStatus: null,
    level: null,
    durationMs: Math.round(performance.now() - call.started),
    batch: true,
  });
}

/** One id of the batch: checked, asked at status level, reduced, audited. Never rejects. */
async function lookupOne(
  served: ServedEnvironment,
  call: SignedInCall,
  kind: LookupKind,
  id: string,
  index: number,
  signal: AbortSignal,
): Promise<OneResult<FoundRow>> {
  const started = performance.now();
  const { deps } = served;
  const level = levelOf('support', deps.hasStatusKey);
  const settle = async (failure: Failure | undefined, upstreamStatus: number | null, reached: boolean, row?: FoundRow) => {
    try {
      await record(served, call, {
        kind,
        id,
        status: failure?.status ?? 200,
        code: failure?.code ?? null,
        upstreamStatus,
        level: reached ? level : null,
        durationMs: Math.round(performance.now() - started),
      });
    } catch {
      deps.metrics.lookups.inc({ code: 'audit_unavailable', role: call.identity.role, level });
      return { ok: false as const, code: 'audit_unavailable' as const, message: 'This lookup could not be recorded in the audit log.' };
    }
    deps.metrics.lookups.inc({ code: failure?.code ?? 'ok', role: call.identity.role, level });
    if (failure) {
      return { ok: false as const, code: failure.code, message: failure.message, retryAfterSeconds: failure.extra?.retryAfterSeconds };
    }
    return { ok: true as const, row: row! };
  };

  const check = checkId(id);
  if (!check.ok) return settle({ status: 400, code: 'invalid_id', message: check.message }, null, false);
  // Without a status key a batch looks with the full key: a key that archives after extract would delete each candidate.
  const archiving = level === 'status' ? undefined : await deps.archiving.refusal();
  if (archiving) return settle(archiving, null, false);
  // The user's bound on requests to the service holds for batches too (upstream-slots.ts).
  const release = await deps.upstreamSlots.acquire(deps.access.rateLimitKey(call.req, call.identity), deps.timeoutMs, signal);
  if (!release) {
    if (!signal.aborted) deps.metrics.rateLimited.inc({ limit: 'in_flight' });
    const message = 'You have several lookups waiting for the KYC service already.';
    return settle({ status: 429, code: 'rate_limited', message }, null, false);
  }
  // Asked again now, and one at a time until the key is known not to archive (archiving-guard.ts).
  const pass = level === 'status' ? undefined : await deps.archiving.admit(deps.timeoutMs, signal);
  if (pass && !pass.ok) {
    release();
    if (pass.failure?.code === 'rate_limited') deps.metrics.rateLimited.inc({ limit: 'archiving_check' });
    return settle(pass.failure ?? { status: 429, code: 'rate_limited', message: 'The batch was cancelled.' }, null, false);
  }
  const lookupAt = Date.now();
  const upstreamCall = deps.upstream.fetchCandidate({ kind, id, scope: 'status', browserHeaders: {} });
  // A full-level request, once sent, is read to its end for willArchiveAtDate (archive-watch.ts).
  const abort = () => (pass ? undefined : upstreamCall.abort());
  signal.addEventListener('abort', abort, { once: true });
  try {
    const outcome = await timedOutcome(deps.metrics, upstreamCall.outcome);
    const watched = pass?.watch(outcome, lookupAt);
    if (!outcome.ok) return settle(outcome.failure, outcome.upstreamStatus, outcome.upstreamStatus !== null);
    const response = watched ?? outcome.response;
    const upstreamStatus = response.statusCode ?? 200;
    if (!isFramed(response)) {
      response.destroy();
      const message = 'The KYC service sent a response without a length, so it could not be checked to be complete.';
      return settle({ status: 502, code: 'upstream_error', message }, upstreamStatus, true);
    }
    const reduced = await reduceToStatusLevel(response, deps.maxResponseBytes, deps.upstream.keys);
    if (!reduced.ok) return settle(reduced.failure, upstreamStatus, true);
    return settle(undefined, upstreamStatus, true, batchRowOf(index, reduced.record));
  } finally {
    signal.removeEventListener('abort', abort);
    release();
  }
}
