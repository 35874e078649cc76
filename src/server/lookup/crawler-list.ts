import {
  type Applicant,
  type ApplicantFilter,
  APPLICANTS_MAX_LIMIT,
  type Skipped,
  upstreamApplicantsEnvelopeSchema,
} from '../../kyc/contract/applicants.ts';
import { type Idless, joinIdless, tallyIdless } from '../../kyc/contract/idless.ts';
import { joinSkipped, readListRecord, withSkipped } from '../../kyc/contract/list-record.ts';
import { groupOf } from '../../kyc/contract/queue-order.ts';
import { auditWritable, written } from '../audit/audit-trail.ts';
import type { ListAuditEntry } from '../audit/audit.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { readValue } from '../answer/answer-value.ts';
import { MAX_ARCHIVE_DATE } from '../answer/archive-watch.ts';
import { MAX_DEPTH } from '../answer/json-tokens.ts';
import { ListPageReader, MAX_LIST_PAGE_KEPT } from '../answer/list-page-reader.ts';
import { eachInTurns } from '../answer/turns.ts';
import type { Logger } from '../log/log.ts';
import { crawlerFullKeyWithheld } from './crawler-full-key.ts';
import { listShapeFailure } from './list-shape.ts';
import type { LookupDeps } from './lookup-steps.ts';
import { unreadableAnswer } from './unreadable-answer.ts';
import { statedListError } from '../upstream/upstream-failures.ts';
import { QUEUE_INDEX_USER } from './queue-lookup.ts';

/**
 * One page of the service's list as the crawler reads it (queue-crawler.ts): the only place the service's
 * list is asked (issue 32). It goes through the lookup's guards: nothing while the audit log hangs or the
 * service's wait lasts, a slot of the crawler's own (`(queue-index)`), the status-level key when there is
 * one, the same framing check and scan as a lookup's answer (the size limit, the key never passed on),
 * only what the index takes of each record kept (list-page-reader.ts: a page of whole records, pictures
 * and all, costs its ids and dates), each record read on its own (list-record.ts: what cannot be read is
 * left out and counted), and one audit line per page (`"kind":"list"`, user `(queue-index)`). No names are
 * read: the index holds none.
 */

export type ListPage =
  /** `total`: the service's count of the list, when its answer gives one. */
  /** `idless`: the records with a status but no id, counted by status (idless.ts). */
  | { ok: true; records: Applicant[]; skipped?: Skipped; idless?: Idless[]; total?: number; served: number; askedAt: number }
  /**
   * `upstreamStatus`: the service's status, as its status line gave it or, for an error envelope in a 200, as
   * the envelope stated it (statedListError), which the crawler acts on; `statusLine`, then, the 200 it came
   * with, which the audit line records as the service's answer.
   */
  | { ok: false; failure: ApiFailure; upstreamStatus: number | null; statusLine?: number; notAsked?: true; withheld?: true };

export type ListDeps = Pick<
  LookupDeps,
  'environment' | 'upstream' | 'hasStatusKey' | 'audit' | 'upstreamSlots' | 'settings' | 'metrics' | 'archiving'
> & {
  /** Where the archiving guard's warnings go (the crawler's log). */
  log: Logger;
};

const NOT_A_LIST = new ApiFailure('upstream_error', 'The applicants list of the KYC service is not JSON.');
const LIST_FAILURES = {
  notJson: NOT_A_LIST,
  incomplete: NOT_A_LIST,
  tooDeep: new ApiFailure(
    'upstream_error',
    `A page of the applicants list of the KYC service is nested deeper than ${MAX_DEPTH} levels, so it was refused.`,
  ),
  tooLarge: new ApiFailure(
    'upstream_error',
    `What the queue reads of a page of the applicants list of the KYC service, its records with their statuses, ids and dates, comes to more than ${MAX_LIST_PAGE_KEPT / 1024 / 1024} MiB, so the page was refused.`,
  ),
};
const NO_SLOT = new ApiFailure('upstream_unreachable', "The crawler's requests to the KYC service are all under way.");

/**
 * How many records one request asks for: the page's 100 at first; halved each time an answer is larger
 * than limits.maxResponseBytes (whole records with pictures of several MB each, read with a full key),
 * and kept for the environment's later pages, so that each is not downloaded too large first.
 */
export interface RequestSize {
  limit: number;
}

export async function fetchListPage(
  deps: ListDeps,
  filter: ApplicantFilter | undefined,
  skip: number,
  signal?: AbortSignal,
  size: RequestSize = { limit: APPLICANTS_MAX_LIMIT },
): Promise<ListPage> {
  const stuck = auditWritable(deps);
  if (stuck) return { ok: false, failure: stuck, upstreamStatus: null, notAsked: true };
  const waiting = deps.upstream.waiting('list');
  if (waiting) return { ok: false, failure: waiting, upstreamStatus: null, notAsked: true };
  // The crawler's one rule of the full key (crawler-full-key.ts): nothing is sent, so nothing is audited.
  const withheld = await crawlerFullKeyWithheld(deps, deps.log);
  if (withheld) return { ok: false, failure: withheld, upstreamStatus: null, withheld: true };
  const release = await deps.upstreamSlots.acquire(QUEUE_INDEX_USER, deps.settings.limits.upstreamTimeoutMs);
  if (!release) return { ok: false, failure: NO_SLOT, upstreamStatus: null, notAsked: true };
  const started = performance.now();
  const askedAt = Date.now();
  try {
    const page = await askPage(deps, { filter, skip, askedAt, size }, signal);
    const status = page.ok ? 200 : page.failure.status;
    const entry: ListAuditEntry = {
      time: new Date().toISOString(),
      user: QUEUE_INDEX_USER,
      role: 'support',
      env: deps.environment,
      kind: 'list',
      filter: filter ?? 'all',
      skip,
      limit: APPLICANTS_MAX_LIMIT,
      records: page.ok ? page.records.length : null,
      status,
      code: page.ok ? null : page.failure.code,
      upstreamStatus: page.ok ? 200 : (page.statusLine ?? page.upstreamStatus),
      level: (page.ok ? 200 : page.upstreamStatus) === null ? null : deps.hasStatusKey ? 'status' : 'stripped',
      durationMs: Math.round(performance.now() - started),
      queueIndex: true,
    };
    // What could not be recorded is not used: the page is read again at the next pass.
    if (!(await written(deps, entry))) return { ok: false, failure: NO_AUDIT, upstreamStatus: null, notAsked: true };
    return page;
  } finally {
    release();
  }
}

const NO_AUDIT = new ApiFailure('audit_unavailable', 'The audit log could not record the list page.');

/**
 * A page read with the full key tells, as a lookup's answer does, whether the key archives after extract:
 * each record's `willArchiveAtDate` (list-page-reader.ts keeps every `…Date`) is shown to the archiving
 * guard, under the candidate's id, so that a date moving with the crawler's reads is noticed too.
 */
async function watchArchiving(deps: ListDeps, records: readonly unknown[], askedAt: number): Promise<void> {
  if (deps.hasStatusKey) return;
  for (const record of records) {
    const { willArchiveAtDate, refId, recordId, _id } = (record ?? {}) as Record<string, unknown>;
    // As a lookup's watch (archive-watch.ts): any value but null is the field; one that is no date (a number,
    // an object, text longer than a date, of which only the start was kept) says it with its date unknown.
    if (willArchiveAtDate === undefined || willArchiveAtDate === null) continue;
    const value =
      typeof willArchiveAtDate === 'string' && willArchiveAtDate.length > MAX_ARCHIVE_DATE
        ? { notADate: 'text too long for a date' }
        : willArchiveAtDate;
    const id = [refId, recordId, _id].find((value) => typeof value === 'string');
    const kind = id === refId ? 'refId' : 'recordId';
    await deps.archiving.observe(value, askedAt, deps.log, id === undefined ? undefined : `${kind}:${id}`);
  }
}

interface PageAsked {
  filter: ApplicantFilter | undefined;
  skip: number;
  askedAt: number;
  size: RequestSize;
}

/**
 * A page of the crawler's 100 records, in as many requests as their size needs (RequestSize): the same
 * records, and one audit line, however many requests it took. A service that serves fewer than asked
 * ends the page there, as the list's end does: the crawler reads on in steps of what was served.
 */
async function askPage(deps: ListDeps, asked: PageAsked, signal: AbortSignal | undefined): Promise<ListPage> {
  const { size } = asked;
  const end = asked.skip + APPLICANTS_MAX_LIMIT;
  const parts: Array<Extract<ListPage, { ok: true }>> = [];
  for (let at = asked.skip; at < end; ) {
    const limit = Math.min(size.limit, end - at);
    const part = await askRequest(deps, asked.filter, { skip: at, limit }, asked.askedAt, signal);
    if (!part.ok && part.failure.code === 'response_too_large' && limit > 1) {
      size.limit = Math.min(size.limit, Math.ceil(limit / 2));
      continue;
    }
    if (!part.ok) return part;
    parts.push(part);
    at += part.served;
    if (part.served < limit) break;
  }
  return joinParts(parts);
}

/** The parts of one page as the page. */
function joinParts(parts: Array<Extract<ListPage, { ok: true }>>): ListPage {
  const skipped = parts.reduce<Skipped | undefined>((all, part) => joinSkipped(all, part.skipped), undefined);
  const idless = parts.reduce<Idless[] | undefined>((all, part) => joinIdless(all, part.idless), undefined);
  const { total } = parts.at(-1)!;
  return {
    ok: true,
    records: parts.flatMap((part) => part.records),
    ...(skipped ? { skipped } : {}),
    ...(idless ? { idless } : {}),
    ...(total === undefined ? {} : { total }),
    served: parts.reduce((sum, part) => sum + part.served, 0),
    askedAt: parts[0]!.askedAt,
  };
}

/** The key the list is asked with: the status-level key where there is one (the list needs no more). */
const listScope = (deps: Pick<ListDeps, 'hasStatusKey'>) => (deps.hasStatusKey ? 'status' : 'full');

async function askRequest(
  deps: ListDeps,
  filter: ApplicantFilter | undefined,
  range: { skip: number; limit: number },
  askedAt: number,
  signal: AbortSignal | undefined,
): Promise<ListPage> {
  const query = { status: filter, ...range };
  const call = deps.upstream.fetchApplicants({ query, scope: listScope(deps) });
  // The crawler stopped (the server stops, or lost its lease): the page is given up at once.
  const giveUp = () => call.abort();
  signal?.addEventListener('abort', giveUp, { once: true });
  try {
    return await readPage(deps, await call.outcome, askedAt);
  } finally {
    signal?.removeEventListener('abort', giveUp);
  }
}

/** The service's answer read as a list: framed, JSON, the envelope's shape, each record on its own. */
async function readPage(
  deps: ListDeps,
  outcome: Awaited<ReturnType<ListDeps['upstream']['fetchApplicants']>['outcome']>,
  askedAt: number,
): Promise<ListPage> {
  if (!outcome.ok) return outcome;
  const upstreamStatus = outcome.response.statusCode ?? 200;
  const unreadable = unreadableAnswer(outcome.response);
  if (unreadable) {
    outcome.response.destroy();
    return { ok: false, failure: unreadable, upstreamStatus };
  }
  const limits = { maxResponseBytes: deps.settings.limits.maxResponseBytes, keys: deps.upstream.keys };
  const read = await readValue(outcome.response, limits, (path) => new ListPageReader(path), LIST_FAILURES);
  if (!read.ok) return { ...read, upstreamStatus };
  // The service's error envelope in a 200, stating an error status: read as that status on the status line (its wait held, its filter refused).
  const stated = statedListError(read.value, outcome.response.headers, deps.upstream.keys, deps.upstream.keyInUse(listScope(deps)));
  if (stated) {
    const { retryAfterSeconds } = stated.failure;
    if (stated.status === 429 && retryAfterSeconds !== undefined) await deps.upstream.statedListWait(retryAfterSeconds);
    return { ok: false, failure: stated.failure, upstreamStatus: stated.status, statusLine: upstreamStatus };
  }
  const parsed = upstreamApplicantsEnvelopeSchema.safeParse(read.value);
  if (!parsed.success) {
    return { ok: false, failure: listShapeFailure(read.value, parsed.error.issues, deps.upstream.keys), upstreamStatus };
  }
  await watchArchiving(deps, parsed.data.data.records, askedAt);
  const records: Applicant[] = [];
  const reasons: string[] = [];
  // A record with a status but no id is no row, but a candidate of its status all the same: counted by its status's group.
  let idless: Idless[] | undefined;
  await eachInTurns(parsed.data.data.records, (value) => {
    const one = readListRecord(value, { names: false });
    if (one.ok) records.push(one.applicant);
    else if (one.idless) idless = tallyIdless(idless, { ...one.idless, status: groupOf(one.idless.status) });
    else reasons.push(one.reason);
  });
  const skipped = withSkipped(undefined, reasons);
  const served = parsed.data.data.records.length;
  const { total } = parsed.data.data;
  const kept = { records, ...(skipped ? { skipped } : {}), ...(idless ? { idless } : {}) };
  return { ok: true, ...kept, ...(total === undefined ? {} : { total }), served, askedAt };
}
