import { AUDIT_LEVELS, type AuditAction, type AuditLevel, type AuditRow } from '../../kyc/contract/audit-search.ts';
import { BATCH_HANDOFFS } from '../../kyc/contract/batch-handoff.ts';
import { isLookupKind, type LookupKind } from '../../kyc/contract/lookup.ts';
import { lineHash } from '../audit/audit-chain.ts';
import { cutText } from '../audit/audit-line.ts';
import { heldOf } from '../../kyc/contract/audit-held.ts';
import { answeredRecordOf } from './answered-record.ts';
import { detailOf, queueOnlyOf } from './audit-row-detail.ts';
import { ownEntry } from '../../kyc/contract/own-entry.ts';

/**
 * One line of an audit file as the audit page shows it, the table holds it and the CSV exports it: the
 * same reading for all three, so that a filter over the files and one over the table agree. Read
 * liberally: a line of another version, or one that is not JSON at all, is still a row (a `note`
 * saying so), never skipped, so that the table never misses a line the file has.
 */

type Line = Record<string, unknown>;

/**
 * Longest text kept of a field, in characters: longer than any the writer puts there (an id is cut at
 * 257, a user at 256), so it only ever cuts a line someone else wrote, whose text would not fit the
 * table's indexes. NUL, which PostgreSQL's text refuses, likewise only comes from such a line.
 */
const MAX_FIELD = 300;

const text = (value: unknown, max = MAX_FIELD): string | null =>
  typeof value === 'string' ? cutText(value, max).replaceAll('\u0000', '\ufffd') : null;
/** An HTTP status: a webhook's is the candidate's status (text), and a number out of range is no status. */
const httpStatus = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 1000 ? value : null;

/**
 * A line as the searches read it: its row, and the candidates a queue view's line names beyond the row's
 * own (`refId:<id>`, `recordId:<id>`), or a refused lookup's whose record came back, which a search by
 * candidate matches and the table keeps; only the audit page's search lists a queue view's (a page names
 * up to 100), never the Activity or the export.
 */
export interface ReadLine {
  row: AuditRow;
  shown: string[];
  /** The same candidates by the ids each row carried, as the audit page's search lists them (`AuditRow.shown`). */
  candidates: ShownIds[];
}

/** One candidate of a queue view: the ids their row carried (at least one). */
export type ShownIds = NonNullable<AuditRow['shown']>[number];

/** The row of a line as written (its bytes, without its line end), of `instance`'s file. */
export function rowOfLine(line: Buffer, instance: string): AuditRow {
  return readLine(line, instance).row;
}

/** The row of a line as written, and the candidates it names beyond the row's own. */
export function readLine(line: Buffer, instance: string): ReadLine {
  const hash = lineHash(line);
  let parsed: unknown;
  try {
    parsed = JSON.parse(line.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { row: unreadable(hash, instance), shown: [], candidates: [] };
  const candidates = shownCandidatesOf(parsed as Line);
  const shown = keysOf(candidates);
  const answered = answeredRecordOf(parsed as Line);
  const named = answered ? [...shown, shownKey(answered.kind, text(answered.id)!)] : shown;
  return { row: rowOf(parsed as Line, hash, instance, shown), shown: named, candidates };
}

/** A queue view's candidates as keys a search compares: `refId:<id>`, `recordId:<id>`. */
export const shownKey = (kind: LookupKind, id: string): string => `${kind}:${id}`;

/** Most candidates read of one line: a page holds at most 100, so only a line someone else wrote has more. */
const MAX_SHOWN = 100;

/** The candidates a queue view's line names (`candidates`: each row's refId and recordId), as keys. */
const keysOf = (candidates: readonly ShownIds[]): string[] =>
  candidates.flatMap((ids) => (['refId', 'recordId'] as const).flatMap((kind) => (ids[kind] ? [shownKey(kind, ids[kind])] : [])));

/** The candidates a queue view's line (or a batch's hand-off's) names, each by the ids their row carried; one that names no id is left out. */
export function shownCandidatesOf(line: Line): ShownIds[] {
  if (!namesCandidates(line) || !Array.isArray(line.candidates)) return [];
  const candidates: ShownIds[] = [];
  for (const candidate of line.candidates.slice(0, MAX_SHOWN) as unknown[]) {
    if (typeof candidate !== 'object' || candidate === null) continue;
    const refId = text((candidate as Line).refId);
    const recordId = text((candidate as Line).recordId);
    if (refId || recordId) candidates.push({ ...(refId ? { refId } : {}), ...(recordId ? { recordId } : {}) });
  }
  return candidates;
}

/** A queue view's line, or a batch's CSV or table taken away (BATCH_HANDOFFS): both name whom they held in `candidates`. */
const namesCandidates = (line: Line): boolean =>
  line.kind === 'list' || (line.kind === 'export' && (BATCH_HANDOFFS as readonly unknown[]).includes(line.what));

export function rowOf(line: Line, hash: string, instance: string, shown = keysOf(shownCandidatesOf(line))): AuditRow {
  const action = actionOf(line);
  const candidate = candidateOf(line);
  // The tab of a queue view that names its candidates, and its filters: a candidate's Activity says where they were seen.
  const queueTab = shown.length > 0 && line.kind === 'list' ? text(line.filter) : null;
  const queueOnly = queueTab ? queueOnlyOf(line) : [];
  return {
    time: timeOf(line.time),
    instance,
    hash,
    action,
    user: text(line.user),
    role: text(line.role),
    env: text(line.env),
    kind: candidate?.kind ?? null,
    id: candidate?.id ?? null,
    level: AUDIT_LEVELS.includes(line.level as AuditLevel) ? (line.level as AuditLevel) : null,
    // A webhook's `status` is the candidate's, not an HTTP status: it goes to the detail.
    status: httpStatus(line.status),
    code: text(line.code),
    client: text(line.client),
    requestId: text(line.requestId),
    detail: text(detailOf(line, action, text), 1000),
    ...(queueTab ? { queueTab } : {}),
    ...(queueOnly.length > 0 ? { queueOnly } : {}),
    ...heldOfClosing(line, action),
  };
}

/** A full answer's closing line: what it held, read onto its lookup's row by the searches (closing-lines.ts). */
function heldOfClosing(line: Line, action: AuditAction): Pick<AuditRow, 'held'> {
  const held = action === 'held' ? heldOf(line.held) : undefined;
  return held ? { held } : {};
}

/** Year 10000: later than any line, and where PostgreSQL's timestamps are still at home. */
const LATEST = Date.UTC(9999, 11, 31);

/** The time a line gives, as an ISO string; a line without a readable one sorts first of all. */
function timeOf(value: unknown): string {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return new Date(Number.isNaN(ms) || ms < 0 || ms > LATEST ? 0 : ms).toISOString();
}

function unreadable(hash: string, instance: string): AuditRow {
  return {
    time: new Date(0).toISOString(),
    instance,
    hash,
    action: 'note',
    user: null,
    role: null,
    env: null,
    kind: null,
    id: null,
    level: null,
    status: null,
    code: null,
    client: null,
    requestId: null,
    detail: 'not an audit line (not a JSON object): the chain state says where',
  };
}

const EXPORTS: Record<string, AuditAction> = {
  summary: 'copy_summary',
  reply: 'copy_reply',
  print: 'print',
  certificate: 'copy_certificate',
  file: 'save_file',
  batch_csv: 'save_batch',
  batch_copy: 'copy_batch',
};

/** What the line records someone doing (AUDIT_ACTIONS); a line of a kind this version does not know is a note. */
export function actionOf(line: Line): AuditAction {
  const kind = line.kind;
  if (typeof kind === 'string' && isLookupKind(kind)) {
    // The second line of a lookup whose answer was cut short after it began (audit-entries.ts, `cut`).
    if (line.cut !== undefined) return 'cut';
    // The closing line of a full answer read and passed on whole: what it held (never a row of its own).
    if (line.held !== undefined) return 'held';
    return line.queueIndex ? 'queue_index' : line.batch ? 'batch' : line.statusCheck ? 'status_check' : 'lookup';
  }
  switch (kind) {
    case 'list':
    case 'batch':
    case 'refusals':
    case 'note':
      return kind;
    case 'export':
      // A refused hand-off's line has a status, and since its `what` too: it did not happen.
      return line.status === undefined ? (ownEntry(EXPORTS, String(line.what)) ?? 'export') : 'export';
    case 'webhook':
    case 'webhook_refused':
      return 'webhook';
    case 'audit':
      return line.what === 'export' ? 'audit_export' : 'audit_search';
    default:
      return 'note';
  }
}

/** The candidate a line names: a lookup's id as asked, a hand-off's, a webhook's refId (else recordId), an audit search's filter. */
function candidateOf(line: Line): { kind: LookupKind; id: string } | undefined {
  const named = (kind: LookupKind, id: unknown) => (typeof id === 'string' && id !== '' ? { kind, id } : undefined);
  const kind = String(line.kind);
  if (isLookupKind(kind)) return named(kind, line.id);
  if (kind === 'export' && typeof line.lookupKind === 'string' && isLookupKind(line.lookupKind)) return named(line.lookupKind, line.id);
  if (kind === 'webhook') return named('refId', line.refId) ?? named('recordId', line.recordId);
  if (kind === 'audit' && typeof line.filter === 'object' && line.filter !== null) {
    const filter = line.filter as Line;
    return named('refId', filter.refId) ?? named('recordId', filter.recordId);
  }
  return undefined;
}
