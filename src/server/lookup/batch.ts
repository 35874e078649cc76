import { type BatchEvent, batchRequestSchema } from '../../kyc/contract/batch.ts';
import { checkId } from '../../kyc/contract/lookup.ts';
import { auditTrail, auditWritable, countLine, refuse } from '../audit/audit-trail.ts';
import { invalidIdsLine, refusedBatchLine, requestLine } from '../audit/audit-lines.ts';
import type { AccessControl } from '../auth/access-control.ts';
import { type FoundRow, lookupRowAsSearched } from './batch-row.ts';
import type { LookupDeps } from './lookup-steps.ts';
import { type BatchClock, type OneResult, runBatch } from './batch-runner.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { methodNotAllowed, STORE_UNAVAILABLE, sendFailure } from '../http/http-reply.ts';
import { readJsonBody } from '../http/request-body.ts';
import type { RateLimiter, Take } from '../ops/rate-limit.ts';
import type { SignedInCall } from '../http/routes.ts';
import { StoreUnavailableError } from '../state/store.ts';

/**
 * `POST /api/batch` (`/api/e/<name>/batch`): up to 500 ids at status level, for every role. The ids
 * arrive once, in the body; the answer is NDJSON, one line per row as each lookup finishes, then a
 * `done` line. Batches have their own budget (ids per minute per user): its first id is taken before the
 * body is read, as an export's token is, so that a flood of batches whose bodies never come costs the
 * budget and is refused unread; the rest is reserved whole before the first lookup. A batch refused once
 * its ids are read (more than the budget holds, or more than is left of it) gives its first id back, once a
 * minute at most (`refunds`): it looked nothing up, and a user who then splits the list must find the budget whole. A body that is not
 * a batch (too slow, too large, not JSON of its shape) keeps it: the app never sends one, and a flood of
 * them is the cost the first id is there for. Batches run a few lookups at a time (batch-row.ts: the single lookup's steps). Every valid id gets
 * its own audit line, marked `batch`; the invalid ones are counted in one line for the batch. An id sent
 * more than once is looked up once, and its one result answers each of its places: the app sends each
 * id once, and another client's repeats cost no second request to the service, budget or audit line.
 */
export interface BatchDeps {
  budget: RateLimiter;
  /**
   * The first id given back after a refusal, once a minute per user at most: a client that sends batch
   * after batch over the budget must meet the unread refusal, not have each body read for free.
   */
  refunds: RateLimiter;
  access: Pick<AccessControl, 'rateLimitKey'>;
  /** Lookups of one batch under way at once. */
  concurrency: number;
  /** The clock of the pauses a 429 asks for (default: real time); the environments' upstream clients keep the service's wait on it too. */
  clock?: BatchClock;
}

/** 500 ids of at most 256 characters, as JSON, with room to spare. */
const MAX_BODY_BYTES = 1024 * 1024;

export async function batchRoute(deps: LookupDeps, batch: BatchDeps, call: SignedInCall): Promise<void> {
  const { req, res, identity } = call;
  if (req.method !== 'POST') throw methodNotAllowed('POST', 'Send a batch as POST with a JSON body.');
  // JSON only: a form or text/plain POST from another site cannot start a batch.
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    throw new ApiFailure('unsupported_media_type', 'Send the batch as JSON: {"kind":"refId","ids":[…]}.');
  }
  // A batch holds at least one id: that one is paid before the body is read (refused, it is counted as an export's is).
  const key = `batch:${batch.access.rateLimitKey(req, identity)}`;
  const first = await reserveBudget(batch, key, 1);
  if (first) return refuseBatch(deps, call, first, requestLine(deps.environment, call, 'batch'));
  // Nothing else is audited before the request is known.
  const { kind, ids } = await readJsonBody(call, MAX_BODY_BYTES, batchRequestSchema, 'batch', {
    tooLarge: 'The batch is too large: at most 500 ids of at most 256 characters.',
  });

  const places = placesOf(ids);
  const distinct = [...places.keys()];
  const refused = await reserveBudget(batch, key, distinct.length, 1);
  if (refused) return refuseBatch(deps, call, refused, refusedBatchLine(deps.environment, call, kind, ids.length));
  // Nothing reaches the service while the audit log could not record it (each row asks again).
  const stuck = auditWritable(deps);
  if (stuck) return sendFailure(res, stuck);
  // The invalid ids are counted in one line, as refusals are, before any row is answered: a line for
  // each would copy up to 500 of the user's texts of 256 characters into the log.
  const invalid = ids.filter((id) => !checkId(id).ok).length;
  if (invalid > 0 && !(await countLine(deps, res, 'batch', invalidIdsLine(deps.environment, call, invalid)))) return;

  res.writeHead(200, {
    'content-type': 'application/x-ndjson; charset=utf-8',
    'cache-control': 'no-store',
    ...(await roomLeft(batch, key)),
  });
  const write = (event: BatchEvent) => {
    if (!res.destroyed) res.write(`${JSON.stringify(event)}\n`);
  };
  // The browser went away (cancel, closed tab): nothing new is started.
  const gone = new AbortController();
  res.once('close', () => gone.abort());
  let found = 0;
  let answered = 0;
  let stop: Omit<Extract<BatchEvent, { type: 'stopped' }>, 'notLookedUp'> | undefined;
  await runBatch<FoundRow>({
    count: distinct.length,
    concurrency: batch.concurrency,
    ...batch.clock,
    signal: gone.signal,
    lookup: (n) => lookupRowAsSearched(deps, call, { kind, id: distinct[n]!, index: places.get(distinct[n]!)![0]! }, gone.signal),
    onResult(n, result) {
      for (const index of places.get(distinct[n]!)!) {
        answered++;
        if (result.ok) found++;
        write(result.ok ? { ...result.row, index } : failedRow(index, result));
      }
    },
    onWait: (seconds) => write({ type: 'wait', seconds }),
    // An empty line, which NDJSON readers skip: a long pause sends something, so that no proxy drops the answer as idle.
    onStillWaiting: () => void (res.destroyed || res.write('\n')),
    // The lookups' wait is the environment's: asked of a row of this batch or of any other lookup of it.
    servicePausedUntil: () => deps.upstream.pausedUntil('lookup'),
    // Said once the lookups under way have finished, so that the count of ids not looked up is exact.
    onStop: (result, inARow) => (stop = { type: 'stopped', code: result.code, message: result.message, inARow }),
  });
  if (gone.signal.aborted) return;
  if (stop) write({ ...stop, notLookedUp: ids.length - answered });
  write({ type: 'done', found, failed: answered - found });
  res.end();
}

/** A failed row's line: with the service's wait when it failed for its 429, so that the page offers Retry once it is over. */
function failedRow(index: number, { code, message, retryAfterSeconds }: Extract<OneResult<FoundRow>, { ok: false }>): BatchEvent {
  const wait = code === 'upstream_rate_limited' && retryAfterSeconds !== undefined ? { retryAfterSeconds } : {};
  return { type: 'row', index, ok: false, code, message, ...wait };
}

/** Each id once, in the order it first came, with every place of the request it holds. */
function placesOf(ids: readonly string[]): Map<string, number[]> {
  const places = new Map<string, number[]>();
  for (const [index, id] of ids.entries()) {
    const held = places.get(id);
    if (held) held.push(index);
    else places.set(id, [index]);
  }
  return places;
}

/** A batch refused over its budget (or the store down), counted with the user's refusals under `line`. */
function refuseBatch(deps: LookupDeps, call: SignedInCall, refused: ApiFailure, line: Parameters<typeof auditTrail>[3]) {
  if (refused.code === 'rate_limited') deps.metrics.rateLimited.inc({ limit: 'batch' });
  return refuse(call.res, auditTrail(deps, call.res, 'batch', line), refused, { counted: true });
}

/**
 * Reserves `count` ids of the budget, of which `paid` were taken already (the first, before the body). A
 * refusal gives the paid ones back, once a minute at most (`refunds`): a batch refused looks nothing up,
 * and a user who then splits the list finds the budget whole; one who sends refused batch after batch
 * spends it, and is then refused unread.
 */
async function reserveBudget(
  { budget, refunds }: Pick<BatchDeps, 'budget' | 'refunds'>,
  key: string,
  count: number,
  paid = 0,
): Promise<ApiFailure | undefined> {
  let refused: ApiFailure | undefined;
  try {
    refused = await reserveRest(budget, key, count, paid);
    if (refused && paid > 0 && (await refunds.take(key)).ok) await budget.giveBack(key, paid);
  } catch (error) {
    if (error instanceof StoreUnavailableError) return STORE_UNAVAILABLE;
    throw error;
  }
  return refused;
}

/** The refusal of `count` ids over the budget, or undefined once the `count - paid` not yet paid are taken. */
async function reserveRest(budget: RateLimiter, key: string, count: number, paid: number): Promise<ApiFailure | undefined> {
  if (count > budget.capacity) {
    // Said for the user, who can act on it (the page offers the first ones); the setting's name is in the docs.
    const message = `This server looks up at most ${budget.capacity} ids a minute in batches: split the list, or look up the first ${budget.capacity} now.`;
    return new ApiFailure('bad_request', message, { idsAtMost: budget.capacity });
  }
  if (count <= paid) return undefined;
  const taken: Take = await budget.take(key, count - paid);
  if (taken.ok) return undefined;
  const { retryAfterSeconds } = taken;
  const what = count === 1 ? 'a batch' : `${count} ids`;
  // With the budget's size (idsAtMost) the page offers, after the wait, a batch that fits it: a Retry of the whole list was refused again.
  return new ApiFailure('rate_limited', `Your batch budget is used up for now: ${what} can start in ${retryAfterSeconds} s.`, {
    retryAfterSeconds,
    idsAtMost: budget.capacity,
  });
}

/**
 * What is left of the user's batch budget once this batch's ids are reserved, as `RateLimit-*` headers of
 * its answer: the most ids a minute's batches look up, how many are left, and the seconds until the
 * budget is whole again. The page offers the next part of a list larger than the budget only once it has
 * room (it was offered at once, and refused). Nothing is said without a budget, or when the store cannot
 * be asked: the batch itself is reserved already.
 */
async function roomLeft({ budget }: Pick<BatchDeps, 'budget'>, key: string): Promise<Record<string, string>> {
  if (!Number.isFinite(budget.capacity)) return {};
  try {
    const { left, retryAfterSeconds } = await budget.peek(key);
    return {
      'ratelimit-limit': String(budget.capacity),
      'ratelimit-remaining': String(left),
      'ratelimit-reset': String(retryAfterSeconds),
    };
  } catch (error) {
    if (error instanceof StoreUnavailableError) return {};
    throw error;
  }
}
