import type http from 'node:http';
import type { ApplicantsQuery } from '../../kyc/contract/applicants.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import type {
  AuditEntry,
  AuditReadEntry,
  ExportAuditEntry,
  ListAuditEntry,
  RefusalsAuditEntry,
  RefusedRequestAuditEntry,
} from './audit.ts';
import type { BatchExportAuditEntry, ShownCandidate } from './audit-entries.ts';
import type { AuditedCall, Outcome } from './audit-trail.ts';
import { clientOf } from '../http/client.ts';
import { requestIdOf } from '../log/log.ts';
import { cutText, MAX_LOGGED_ID } from './audit-line.ts';

/**
 * What each route's audit line says (audit-trail.ts writes them): a lookup's, a batch's, a hand-off's,
 * a page of the applicants list's, a refused request's, a lead's reading of the trail. Every line starts
 * alike (lineStart); ids and texts are cut as a lookup's id is (audit-line.ts).
 */

type Level = NonNullable<AuditEntry['level']>;

/** What every line starts with: when, which request, who, from where, and in which environment. */
function lineStart(env: string, call: AuditedCall) {
  const { user, role } = call.identity;
  const fromCache = call.identityFromCache ? { identityFromCache: true as const } : {};
  return { time: new Date().toISOString(), requestId: requestIdOf(call.res), user, role, ...fromCache, ...clientOfCall(call), env };
}

/** The address the request came from (http/client.ts, which believes only TRUSTED_PROXIES' forwarding), when known. */
export function clientOfCall(call: Pick<AuditedCall, 'res'>): { client?: string } {
  const req = call.res.req as http.IncomingMessage | undefined;
  const address = req ? clientOf(req).address : '';
  return address ? { client: address } : {};
}

function elapsed(call: AuditedCall): number {
  return Math.round(performance.now() - call.started);
}

/** What a support user's lookup read, as known when its line is written: the level, the support fields shown or why none were fetched. */
export type LookupShown = Pick<AuditEntry, 'fields' | 'fieldsWithheld' | 'heldLine'> & { level: Level | null };

/**
 * A lookup's line: its kind and id as asked, and the level fetched once the service was asked; `shown`,
 * read when the line is written, gives a lookup's level and support fields decided after the line began.
 */
export function lookupLine(
  env: string,
  call: AuditedCall,
  kind: LookupKind,
  id: string,
  level: Level | null = null,
  shown?: () => LookupShown,
) {
  return (outcome: Outcome): AuditEntry => {
    const read = shown?.() ?? { level };
    return {
      ...lineStart(env, call),
      kind,
      id,
      status: outcome.status,
      code: outcome.code,
      upstreamStatus: outcome.upstreamStatus,
      level: outcome.reached ? read.level : null,
      // The names of the fields answered, never their values.
      ...(outcome.reached && read.fields ? { fields: read.fields } : {}),
      ...(read.fieldsWithheld ? { fieldsWithheld: read.fieldsWithheld } : {}),
      // A full answer's: on its 200 line, that a closing line follows; on that closing line, what it held (names and counts only).
      ...(outcome.held
        ? { held: outcome.held }
        : read.heldLine && outcome.status === 200 && !outcome.cut
          ? { heldLine: true as const }
          : {}),
      durationMs: elapsed(call),
      ...(outcome.cut ? { cut: outcome.cut } : {}),
      ...(outcome.cut && outcome.sentBytes !== undefined ? { sentBytes: outcome.sentBytes } : {}),
      ...(outcome.answeredId === undefined ? {} : { answeredId: cutText(outcome.answeredId, MAX_LOGGED_ID) }),
    };
  };
}

/** One id of a batch: a lookup's line, marked `batch`; `call.started` is when the row started. */
export function batchRowLine(env: string, call: AuditedCall, kind: LookupKind, id: string, level: Level) {
  const line = lookupLine(env, call, kind, id, level);
  return (outcome: Outcome): AuditEntry => ({ ...line(outcome), batch: true });
}

/** A batch refused whole (its budget) after its body was read: how many ids it held, not which. */
export function refusedBatchLine(env: string, call: AuditedCall, kind: LookupKind, count: number) {
  const line = lookupLine(env, call, kind, '');
  return (outcome: Outcome): AuditEntry => ({ ...line(outcome), batchSize: count, batch: true });
}

/** A hand-off (a summary, reply or certificate copied, a page printed, a document file saved) of the candidate looked up by `kind` and `id`. */
export function exportLine(
  env: string,
  call: AuditedCall,
  what: ExportAuditEntry['what'],
  lookupKind: LookupKind,
  id: string,
  extra: Pick<ExportAuditEntry, 'template' | 'masked' | 'slug' | 'attribute' | 'fileType' | 'notLookedUp' | 'openedUnknown'> = {},
): ExportAuditEntry {
  // The id is cut to 256 characters in the line (audit-line.ts), as a lookup's.
  return { ...lineStart(env, call), kind: 'export', what, ...extra, lookupKind, id };
}

/** A batch's CSV downloaded or table copied: whom it held, each by the kind that found it, each id cut as a lookup's. */
export function batchExportLine(
  env: string,
  call: AuditedCall,
  what: BatchExportAuditEntry['what'],
  lookupKind: LookupKind,
  named: readonly { kind: LookupKind; id: string }[],
  count: number,
): BatchExportAuditEntry {
  const candidates = named.map(({ kind, id }) => ({ [kind]: cutText(id, MAX_LOGGED_ID) }));
  return { ...lineStart(env, call), kind: 'export', what, lookupKind, candidates, count };
}

/** A page of the queue as answered: how many rows it held, whom they were, and whether any carried personal data (a name, a certificate's outcome). */
export interface ListedView {
  records: number;
  shown: readonly ShownCandidate[];
  personalData: boolean;
}

/**
 * A page of the applicants list: what was asked (null when the query could not be read) and, once
 * answered, how many records it held and whom it showed, every row by the ids it carried, each cut as a
 * lookup's id (a page holds at most 100, so a line at most 200 ids of 256 characters: its size is bounded
 * by the page's, whoever asked), and whether any row carried personal data.
 */
export function listLine(
  env: string,
  call: AuditedCall,
  query: ApplicantsQuery | undefined,
  level: Level | null = null,
  view?: ListedView,
) {
  const records = view?.records ?? null;
  const candidates = (view?.shown ?? []).map(({ refId, recordId }) => ({
    ...(refId ? { refId: cutText(refId, MAX_LOGGED_ID) } : {}),
    ...(recordId ? { recordId: cutText(recordId, MAX_LOGGED_ID) } : {}),
  }));
  return (outcome: Outcome): ListAuditEntry => ({
    ...lineStart(env, call),
    kind: 'list',
    filter: query ? (query.status ?? 'all') : null,
    skip: query?.skip ?? null,
    limit: query?.limit ?? null,
    // The view's other tabs were counted within this one request (and line).
    ...(query?.counts ? { counts: true } : {}),
    // Which rows the view kept: a lead reads "over SLA only" apart from the whole tab.
    ...(query?.overSla ? { overSla: true } : {}),
    ...(query?.attention ? { attention: true } : {}),
    records,
    ...(candidates.length > 0 ? { candidates, personalData: view?.personalData === true } : {}),
    status: outcome.status,
    code: outcome.code,
    upstreamStatus: outcome.upstreamStatus,
    level: outcome.reached ? level : null,
    durationMs: elapsed(call),
  });
}

/**
 * A batch or an export refused before its body was read: only the route it came to is known. An export
 * refused after (its id, a candidate its user did not look up lately) names `what` was refused, so a lead
 * reads which hand-off it was, and still no id the body named.
 */
export function requestLine(
  env: string,
  call: AuditedCall,
  kind: RefusedRequestAuditEntry['kind'],
  extra: Pick<RefusedRequestAuditEntry, 'what'> = {},
) {
  return (outcome: Outcome): RefusedRequestAuditEntry => ({
    ...lineStart(env, call),
    kind,
    ...extra,
    status: outcome.status,
    code: outcome.code,
    durationMs: elapsed(call),
  });
}

/**
 * A batch's invalid ids, counted in one line (audit-refusals.ts): their text is the user's, up to 256
 * characters each, and a batch may hold 500, so each written out would cost ten times a lookup's line.
 */
export function invalidIdsLine(env: string, call: AuditedCall, count: number): RefusalsAuditEntry {
  const start = lineStart(env, call);
  return { ...start, kind: 'refusals', batch: true, count, codes: { invalid_id: count }, from: start.time, to: start.time };
}

/**
 * The audit trail read by a lead (issue 34): a search (a page of it) or an export, with the filter as
 * asked, its texts cut as a lookup's line cuts an id, and for a search how many rows it answered.
 */
export function auditReadLine(
  call: Omit<AuditedCall, 'started'>,
  what: AuditReadEntry['what'],
  filter: AuditReadEntry['filter'],
  extra: Pick<AuditReadEntry, 'page' | 'rows'> = {},
): AuditReadEntry {
  const { env: _env, ...start } = lineStart('', { ...call, started: 0 });
  const cut = Object.fromEntries(
    Object.entries(filter).map(([name, value]) => [name, typeof value === 'string' ? cutText(value, MAX_LOGGED_ID) : value]),
  );
  return { ...start, kind: 'audit', what, filter: cut, ...extra };
}
