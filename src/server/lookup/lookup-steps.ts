import type http from 'node:http';
import { checkId, decodeIdSegment } from '../../kyc/contract/lookup.ts';
import type { BatchTriage } from '../../kyc/contract/batch.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import type { RecordTriage } from '../answer/record-triage.ts';
import { readsFullRecord } from '../../kyc/contract/roles.ts';
import type { Waiting } from '../archiving/archiving-gate.ts';
import type { ArchivingGuard, Pass } from '../archiving/archiving-guard.ts';
import type { AuditEntry, AuditLog } from '../audit/audit.ts';
import type { RefusalLog } from '../audit/audit-refusals.ts';
import type { AccessControl } from '../auth/access-control.ts';
import type { ApiSettings } from '../config/settings.ts';
import type { Identity } from '../http/identity.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { STORE_UNAVAILABLE } from '../http/http-reply.ts';
import type { Logger } from '../log/log.ts';
import { type Limit, type Metrics, upstreamOutcome } from '../ops/metrics.ts';
import type { PartsBudget } from '../answer/parts-budget.ts';
import type { PreviewMaking } from '../answer/parts-writer.ts';
import type { RateLimiter } from '../ops/rate-limit.ts';
import { StoreUnavailableError } from '../state/store.ts';
import type { UpstreamBody } from '../answer/upstream-body.ts';
import type { CandidateRequest, UpstreamClient, UpstreamOutcome } from '../upstream/upstream-client.ts';
import type { UpstreamSlots } from '../upstream/upstream-slots.ts';
import type { OpenedCandidates } from './opened-candidates.ts';
import { unreadableAnswer } from './unreadable-answer.ts';

/**
 * The named steps of a lookup, in their order: limit, audit writable (audit-trail.ts), id, archiving
 * gate, upstream slot, admission, fetch and read. The single lookup (lookup.ts) and each row of a batch
 * (batch-row.ts) compose the same steps; only how each answers differs. Each step returns the refusal
 * or what the next step needs, and never answers or writes a line itself. A step that has something to
 * tell the operator says it in the request's log (`log`: log.ts's requestLog), with the request's id.
 */

export interface LookupDeps {
  /**
   * The handler's settings, whole and as resolved (config/settings.ts): the service's timeout and the
   * largest answer accepted (`settings.limits`), how long a browser that reads nothing of an answer in
   * parts is waited for (`browserStallMs`). A step reads what it needs here; nothing between copies them.
   */
  settings: ApiSettings;
  /** The environment's name, for the audit line. */
  environment: string;
  upstream: UpstreamClient;
  /** A status-level key is configured: support users' lookups are made with it. */
  hasStatusKey: boolean;
  /**
   * The custom fields support users may see (supportFields in CONFIG_FILE, SUPPORT_FIELDS): their
   * lookups then read the full record with the full key and keep the status level plus these.
   */
  supportFields?: readonly string[];
  access: Pick<AccessControl, 'rateLimitKey'>;
  rateLimiter: RateLimiter;
  audit: AuditLog;
  /** Refusals over the rate limit, counted per user rather than written one by one. */
  refusals: RefusalLog;
  /** What answers in parts being built may hold at once (parts-budget.ts). */
  partsBudget: PartsBudget;
  /** How pictures are reduced to previews in answers in parts; undefined: no previews (parts-writer.ts). */
  previews: PreviewMaking | undefined;
  /** Each user's requests to the service under way at once, bounded; a wait longer than the service's timeout is refused. */
  upstreamSlots: UpstreamSlots;
  /** Refuses full-level lookups once the key is seen to archive after extract; sees every full answer. */
  archiving: ArchivingGuard;
  metrics: Metrics;
  /** The candidates each user was answered a lookup of lately: an export names one of them (opened-candidates.ts). */
  opened: OpenedCandidates;
  /**
   * Told what a user's lookup read of the service's record (its status level, and from a compliance
   * user's full record the triage: the certificates' worst outcome, whether it has pictures): the queue
   * index learns it without a request of its own (issue 32). Never throws, never waits.
   */
  learn?: (record: CandidateRecord, triage?: RecordTriage) => void;
  /** The recordId the index holds for a refId its entry names (undefined: none known): sent beside a compliance user's lookup by refId (listed-record-id.ts). */
  listedRecordId?: (refId: string) => Promise<string | undefined>;
  /** What the queue index knows of a candidate for triage (batch-triage.ts): a compliance user's batch row shows it. */
  indexedTriage?: (ids: { refId?: string | null; recordId?: string | null }) => Promise<BatchTriage>;
}

export type Level = NonNullable<AuditEntry['level']>;

/** Compliance users get the full record; support users the status level, by the status key or stripped here. */
export function levelOf(role: Identity['role'], hasStatusKey: boolean): Level {
  if (readsFullRecord(role)) return 'full';
  return hasStatusKey ? 'status' : 'stripped';
}

/** How a lookup reads the record: its level and, for a support user, the support fields fetched or why they were not. */
export interface Plan {
  level: Level;
  /** The support fields to keep from the full record (undefined: none are fetched). */
  fields?: readonly string[];
  /** They are configured but not fetched: the full key archives after extract (a full read would delete data). */
  withheld?: 'archiving_key';
}

/**
 * The level step: compliance users full, support users the status level; in an environment with support
 * fields, a support user's lookup reads the full record (the status key cannot give custom fields) and
 * keeps those fields, unless the full key is known to archive after extract (or that cannot be read):
 * then the fields are not fetched, and the status key is used as without them.
 */
export async function planOf(
  deps: Pick<LookupDeps, 'hasStatusKey' | 'supportFields' | 'archiving'>,
  role: Identity['role'],
  log: Logger,
): Promise<Plan> {
  const level = levelOf(role, deps.hasStatusKey);
  if (role !== 'support' || !deps.supportFields?.length) return { level };
  // A finding, accepted or not, or one that cannot be read: a full read for a support user would delete data.
  const archives = (await deps.archiving.refusal(log)) ?? (await deps.archiving.state());
  if (archives) return { level, withheld: 'archiving_key' };
  return { level: 'stripped', fields: deps.supportFields };
}

/**
 * The limit step: a token of the user's rate limit, or the refusal: 429 over the limit, 503 when the
 * shared store cannot be asked. Either repeats for as long as the user keeps asking, so it is counted,
 * not written each time.
 */
export async function takeToken(
  deps: Pick<LookupDeps, 'rateLimiter' | 'access' | 'metrics'>,
  req: http.IncomingMessage,
  identity: Identity,
  limit: Limit,
): Promise<ApiFailure | undefined> {
  let allowed: Awaited<ReturnType<RateLimiter['take']>>;
  try {
    allowed = await deps.rateLimiter.take(deps.access.rateLimitKey(req, identity));
  } catch (error) {
    if (error instanceof StoreUnavailableError) return STORE_UNAVAILABLE;
    throw error;
  }
  if (allowed.ok) return undefined;
  deps.metrics.rateLimited.inc({ limit });
  const { retryAfterSeconds } = allowed;
  return new ApiFailure('rate_limited', `You have made many lookups in a short time. Try again in ${retryAfterSeconds} s.`, {
    retryAfterSeconds,
  });
}

type AskedId = { ok: true; id: string; auditId: string } | { ok: false; failure: ApiFailure; auditId: string };

/**
 * The id step for a path: the id asked for. The audit line holds the decoded id whenever the path text
 * decodes as one segment, valid or not; when it does not (a "/" in it, or broken percent-encoding), the
 * path text as received.
 */
export function readId(encodedId: string): AskedId {
  const decoded = decodeIdSegment(encodedId);
  if (!decoded.ok) {
    const message =
      decoded.problem === 'not_one_segment'
        ? 'The id must be one URL path segment: encode "/" as %2F.'
        : 'The id is not correctly percent-encoded.';
    return { ok: false, failure: invalidId(message), auditId: encodedId };
  }
  return checkedId(decoded.id);
}

/** The id step for an id given as text (a batch's): the shared id rule. */
export function checkedId(id: string): AskedId {
  const check = checkId(id);
  if (!check.ok) return { ok: false, failure: invalidId(check.message), auditId: id };
  return { ok: true, id, auditId: id };
}

const invalidId = (message: string) => new ApiFailure('invalid_id', message);

/** The archiving gate: a lookup with the full key, whatever the role, makes such a key delete the candidate's data. */
export async function archivingGate(deps: Pick<LookupDeps, 'archiving'>, level: Level, log: Logger): Promise<ApiFailure | undefined> {
  return level === 'status' ? undefined : await deps.archiving.refusal(log);
}

/** A lookup's wait for its turn from now, slot and admission together: `limits.upstreamTimeoutMs` at most; `who`: the user's rate-limit key. */
export function waitingFrom(deps: Pick<LookupDeps, 'settings'>, who?: string): Waiting {
  const since = Date.now();
  return { since, until: since + deps.settings.limits.upstreamTimeoutMs, who };
}

/**
 * The upstream slot step: one of the user's slots for a request to the service (upstream-slots.ts):
 * its release, `gone` when the browser left while waiting, or the refusal when the wait ran out. A
 * full-level lookup whose wait ran out while the key's check held full lookups back (archiving-gate.ts:
 * the user's slots held by their lookups waiting behind it) is told of the check, not of lookups waiting
 * for the KYC service. A batch's row waits `behind` the user's single lookups.
 */
export async function takeSlot(
  deps: Pick<LookupDeps, 'upstreamSlots' | 'access' | 'metrics' | 'archiving'>,
  call: { req: http.IncomingMessage; identity: Identity; level: Level },
  gone: AbortSignal,
  options: { behind?: boolean; waiting: Waiting },
): Promise<(() => void) | 'gone' | ApiFailure> {
  const key = deps.access.rateLimitKey(call.req, call.identity);
  const { waiting } = options;
  const release = await deps.upstreamSlots.acquire(key, Math.max(0, waiting.until - Date.now()), gone, options);
  if (release) return release;
  if (gone.aborted) return 'gone';
  const held = call.level === 'status' ? undefined : deps.archiving.heldBack(waiting.since, key);
  deps.metrics.rateLimited.inc({ limit: held ? 'archiving_check' : 'in_flight' });
  if (held) return held;
  const message = 'You have several lookups waiting for the KYC service already. Try again when they are done.';
  return new ApiFailure('rate_limited', message, { retryAfterSeconds: 1 });
}

/** Admitted (with the archiving watch's pass for a full-level request), or refused; no failure: the browser left. */
export type Admission = { ok: true; pass: Pass | undefined } | { ok: false; failure: ApiFailure | undefined };

/**
 * The admission step, right before the request: the archiving finding asked again, and one full-level
 * request at a time until the key is known not to archive (archiving-guard.ts).
 */
export async function admit(
  deps: Pick<LookupDeps, 'archiving' | 'settings' | 'metrics'>,
  level: Level,
  gone: AbortSignal,
  log: Logger,
  waiting: Waiting = waitingFrom(deps),
): Promise<Admission> {
  if (level === 'status') return { ok: true, pass: undefined };
  const pass = await deps.archiving.admit(waiting, log, gone);
  if (pass.ok) return { ok: true, pass };
  if (pass.waited) deps.metrics.rateLimited.inc({ limit: 'archiving_check' });
  return { ok: false, failure: pass.failure };
}

export type Fetched =
  | { ok: true; upstreamRes: UpstreamBody; upstreamStatus: number }
  | { ok: false; failure: ApiFailure; upstreamStatus: number | null };

/** A request under way: its answer once read far enough to be checked, and how to end it early. */
export interface Sent {
  answer: Promise<Fetched>;
  /** Ends it (the browser left); a full-level request, once sent, is read to its end for willArchiveAtDate. */
  abort(): void;
  /** It no longer holds a connection to the service (upstream-client.ts): its slot may go to the next. */
  over: Promise<void>;
}

/**
 * The fetch and read steps: the request sent (asked uncompressed, upstream-client.ts), timed, shown to
 * the archiving watch, and its answer refused unless it is framed and uncompressed, so that every byte
 * passed on can be checked and a cut body cannot look whole. `until` is the browser's response, whose
 * copy of a watched body ends when it closes.
 */
export function sendRequest(
  deps: Pick<LookupDeps, 'upstream' | 'metrics'>,
  request: CandidateRequest,
  pass: Pass | undefined,
  until?: http.ServerResponse,
): Sent {
  const call = deps.upstream.fetchCandidate(request);
  const lookupAt = Date.now();
  const answer = timedOutcome(deps.metrics, call.outcome).then((outcome): Fetched => {
    const watched = pass?.watch(outcome, lookupAt, until, `${request.kind}:${request.id}`);
    if (!outcome.ok) return outcome;
    const upstreamRes = watched ?? outcome.response;
    const upstreamStatus = upstreamRes.statusCode ?? 200;
    const unreadable = unreadableAnswer(upstreamRes);
    if (!unreadable) return { ok: true, upstreamRes, upstreamStatus };
    upstreamRes.destroy();
    return { ok: false, failure: unreadable, upstreamStatus };
  });
  return { answer, abort: () => (pass ? undefined : call.abort()), over: call.over };
}

/** The upstream's answer (or failure), timed until its status line. */
async function timedOutcome(metrics: Metrics, pending: Promise<UpstreamOutcome>): Promise<UpstreamOutcome> {
  const end = metrics.upstreamSeconds.startTimer();
  const outcome = await pending;
  end({
    outcome: outcome.ok
      ? upstreamOutcome(outcome.response.statusCode ?? 200)
      : upstreamOutcome(outcome.upstreamStatus, outcome.failure.code),
  });
  return outcome;
}
