import {
  type AuditAction,
  type AuditFilterAction,
  type AuditLevel,
  type AuditRow,
  type IndexLag,
  QUEUE_ONLY_WORDS,
} from '../contract/audit-search.ts';
import type { FileChain } from '../contract/audit-status.ts';
import { heldText } from '../contract/audit-held.ts';
import { statusInfo } from '../contract/status.ts';
import { formatDateTime, formatRelative, type ZoneMode } from './time.ts';

/** The audit trail's words (the audit page, a candidate's Activity): what each line records someone doing. */
export const ACTION_LABELS: Record<AuditAction, string> = {
  lookup: 'Looked up',
  cut: 'Answer cut short',
  held: 'What the answer held',
  status_check: 'Status re-checked by the open page',
  batch: 'Batch lookup',
  list: 'Listed applicants',
  copy_summary: 'Copied the summary',
  copy_reply: 'Copied a reply',
  copy_certificate: 'Copied a certificate',
  save_file: 'Saved a document file',
  save_batch: "Downloaded the batch's CSV",
  copy_batch: "Copied the batch's table",
  print: 'Printed',
  export: 'Hand-off refused',
  refusals: 'Refusals, counted',
  queue_index: 'Queue index lookup',
  webhook: 'Webhook from the service',
  audit_search: 'Searched the audit trail',
  audit_export: 'Exported the audit trail',
  note: 'Note of the log',
};

/**
 * The Action filter's words: each action's, and a queue view that named its candidates, which its rows
 * read as "Saw in the queue (… tab)" (actionText) and "Listed applicants" then leaves out.
 */
export const FILTER_ACTION_LABELS: Record<AuditFilterAction, string> = { ...ACTION_LABELS, saw_in_queue: 'Saw in the queue' };

/**
 * What a row records someone doing, in the trail's words: a queue view that named its candidates (each
 * row it showed) is where each of them was seen, "Saw in the queue (Blocked tab)", with the filters
 * it was asked with, "Saw in the queue (Waiting tab, over SLA only)": a filtered view is not one of the whole tab.
 */
export function actionText(row: Pick<AuditRow, 'action' | 'queueTab' | 'queueOnly'>): string {
  if (row.action !== 'list' || row.queueTab === undefined) return ACTION_LABELS[row.action];
  const tab = row.queueTab === 'all' ? 'All' : statusInfo(row.queueTab).label;
  const only = (row.queueOnly ?? []).map((name) => `, ${QUEUE_ONLY_WORDS[name]}`).join('');
  return `Saw in the queue (${tab} tab${only})`;
}

export const LEVEL_LABELS: Record<AuditLevel, string> = {
  full: 'Full key',
  status: 'Status level',
  stripped: 'Status level (reduced here)',
};

/** What each level means, in plain words for a compliance lead: what the person who looked the candidate up could see. */
export const LEVEL_MEANINGS: Record<AuditLevel, string> = {
  full: "read with the full key: the record as the KYC service answered it to that key, with the identity data and document pictures the key's scope and the record held (a key without pictures, or an archived record, has none). What the answer held is listed when it ended whole (identity attributes, pictures by name as the page shows them, certificates; identity data sent as text is said to be, not counted); an answer cut short held what had been sent, which is not known; of a line from before this was recorded, what it held was not recorded.",
  status: "the status, its dates and the candidate's ids only, read with the status-only key: no identity data, no pictures.",
  stripped:
    'read with the full key, then cut down by this server to the status, the ids and the fields support staff may see: no identity data or pictures left the server.',
};

/** "… asked, nothing shown", in a row and in the audit page's legend. */
export const NOTHING_SHOWN = 'the lookup was asked at that level, but refused or failed: nothing was shown.';

/** A row's level explained (its cell's title): the level's meaning, and for a lookup refused or failed that nothing was shown. */
export function levelTitle(row: LevelRow): string {
  if (!row.level) return '';
  const meaning = `${LEVEL_LABELS[row.level]}: ${LEVEL_MEANINGS[row.level]}`;
  if (row.action === 'cut') return `Cut short: ${CUT_SHORT} ${meaning}`;
  return nothingShown(row) ? `Asked, nothing shown: ${NOTHING_SHOWN} ${meaning}` : meaning;
}

/**
 * A lookup refused or failed: its line names the level asked, and nothing was shown. Not an answer cut
 * short: part of it had been sent.
 */
export const nothingShown = (row: Pick<AuditRow, 'level' | 'status'> & { action?: AuditRow['action'] }): boolean =>
  row.action !== 'cut' && row.level !== null && row.status !== null && row.status >= 400;

/** A lookup's answer cut short after it began: some of it may have reached the client, never all. */
export const CUT_SHORT = 'the answer began, then was cut short: part of it may have reached the client, never all of it.';

/**
 * The service has no candidate by the line's id (its lookup answered 404 `not_found`): the line records
 * someone asking, not someone seeing a candidate, so the audit page links no candidate for it. Not an
 * answer cut short by a 404 stated after its record: part of that record had been sent.
 */
export const foundNoCandidate = (row: Pick<AuditRow, 'code'> & { action?: AuditRow['action'] }): boolean =>
  row.action !== 'cut' && row.code === 'not_found';

/**
 * The level a line names, as read beside its outcome: "Full key; held: 5 identity attributes, 2 pictures
 * (passport, selfie), 1 certificate" for what was shown; for a lookup refused or failed, the level it was
 * asked at, and that nothing was shown ("Full key asked, nothing shown"), so that a rejected key's 401
 * does not read as someone having seen the full record.
 */
export function levelText(row: LevelRow): string {
  if (!row.level) return '';
  const label = LEVEL_LABELS[row.level];
  if (row.action === 'cut') return `${label}, cut short`;
  if (nothingShown(row)) return `${label} asked, nothing shown`;
  // The full key says how the record was read, not what was in it: what the answer held, as its request's lines record it.
  return row.level === 'full' && row.action === 'lookup' ? `${label}; ${heldText(row)}` : label;
}

/** What a level's words read of a row: its action tells an answer cut short apart; a full lookup's, what it held. */
type LevelRow = Pick<AuditRow, 'level' | 'status' | 'held' | 'heldCut'> & { action?: AuditRow['action'] };

/**
 * What the browser was answered: "OK", or the status and its code; for an answer cut short, that it was,
 * with what it would have been answered had the fault come before the answer began ("Cut short: 404 not_found").
 */
export function outcomeText(row: Pick<AuditRow, 'status' | 'code'> & { action?: AuditRow['action'] }): string {
  if (row.status === null) return '';
  if (row.action === 'cut') return `Cut short: ${row.code ? `${row.status} ${row.code}` : row.status}`;
  if (row.status >= 200 && row.status < 300) return 'OK';
  return row.code ? `${row.status} ${row.code}` : String(row.status);
}

/** "intact to line 1,204,331, last line 2 seconds ago", or where it breaks. */
export function chainText(file: FileChain, now: Date, zone: ZoneMode): string {
  const lines = file.lines.toLocaleString('en');
  if (!file.intact)
    return `broken at line ${(file.broken?.line ?? file.lines + 1).toLocaleString('en')}: ${file.broken?.reason ?? 'unknown'}`;
  if (file.lines === 0) return 'empty';
  const last = file.lastLineAt ? `, last line ${formatRelative(new Date(file.lastLineAt), now, { zone })}` : '';
  return `intact to line ${lines}${last}`;
}

/** "12 lines not in the table yet, the oldest from 3 minutes ago (connect ECONNREFUSED …)". */
export function lagText(lag: IndexLag, now: Date, zone: ZoneMode): string {
  const since = lag.since ? `, the oldest from ${formatRelative(new Date(lag.since), now, { zone })}` : '';
  const why = lag.problem ? ` (${lag.problem})` : '';
  const count = `${lag.lines.toLocaleString('en')} ${lag.lines === 1 ? 'line' : 'lines'}`;
  // Counted since a start while the database was away: how many of before are missing is not known.
  const before = lag.unknownBefore
    ? `; how many from before ${lag.instance} started, ${formatRelative(new Date(lag.unknownBefore), now, { zone })}, is unknown until the database answers`
    : '';
  return `${lag.unknownBefore ? 'At least ' : ''}${count} of ${lag.instance} not in the table yet${since}${before}${why}`;
}

/** Another instance whose last report is stale: "Not reporting since 30 Nov 2026, 22:14:03 (2 minutes ago): its lines after … may be missing from the table." */
export function notReportingText(since: string, now: Date, zone: ZoneMode): string {
  const at = new Date(since);
  return `Not reporting since ${formatDateTime(at, { zone, seconds: true })} (${formatRelative(at, now, { zone })}): its lines after its last report may be missing from the table.`;
}

/** Another instance stopped normally: "Stopped at 30 Nov 2026, 22:14:03 (2 minutes ago), all its lines in the table." */
export function stoppedText(at: string, behind: IndexLag | undefined, now: Date, zone: ZoneMode): string {
  const when = new Date(at);
  const lines = behind?.lines ?? 0;
  const left =
    lines > 0 ? `with ${lines.toLocaleString('en')} ${lines === 1 ? 'line' : 'lines'} not in the table` : 'all its lines in the table';
  return `Stopped at ${formatDateTime(when, { zone, seconds: true })} (${formatRelative(when, now, { zone })}), ${left}.`;
}
