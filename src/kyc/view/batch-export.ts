import type { LookupKind } from '../contract/lookup.ts';
import type { BatchRow } from '../contract/batch.ts';
import { statusInfo } from '../contract/status.ts';
import { downloadName } from '../contract/download-name.ts';
import { formatDateTime, type ZoneOptions } from './time.ts';
import { CSV_BOM, csvCell, spreadsheetSafe } from '../contract/csv.ts';
import { DATE_DOUBT_WORDS, dateDoubt } from '../contract/date-doubt.ts';

/**
 * One line of a batch's result as it is exported: the pasted line it came from, the id asked for and its
 * row (none yet: pending). A repeated id is looked up once: its line carries the first one's row, and
 * the line it repeats.
 */
export interface BatchLine {
  line: number;
  id: string;
  row?: BatchRow;
  repeatOf?: number;
}

/**
 * `line` is the pasted line's number (the table's #), so the file sits beside the pasted column; beside
 * each code its words (`statusText`), beside each ISO date the same moment as a person reads it in the
 * zone the page shows (`statusDateLocal`, with the zone's name).
 */
export const BATCH_COLUMNS = [
  'line',
  'id',
  'status',
  'statusText',
  'statusDate',
  'statusDateLocal',
  'submitCount',
  'archived',
  'refId',
  'recordId',
  'repeatOf',
  'error',
  'message',
  'unreadable',
] as const;

/**
 * For compliance users and leads, whose rows carry the queue index's triage (batch.ts): after the columns
 * above, so a script reading them by position keeps working. `certificate` the worst outcome word, or
 * `none` when the index knows the candidate has no certificate; `pictures` yes or no; `triageAsOf` when the
 * index learnt them, and as a person reads it. All empty on a found row: not known yet (open the candidate).
 */
export const TRIAGE_COLUMNS = ['certificate', 'pictures', 'triageAsOf', 'triageAsOfLocal'] as const;

/** The rows carry triage (a compliance user's or lead's batch): the table and the export show it. */
export const withTriage = (lines: readonly BatchLine[]): boolean =>
  lines.some((line) => line.row?.ok === true && line.row.triage !== undefined);

/**
 * Last, after the triage's when there are those, so that no column before it moves: why a found row's
 * status date cannot be right (date-doubt.ts: "dated in the future: doubtful", "probably a placeholder,
 * not a real date"), in the page's words; empty when it can be read as it is.
 */
export const DOUBT_COLUMNS = ['statusDateDoubt'] as const;

const columnsOf = (lines: readonly BatchLine[]): readonly string[] =>
  withTriage(lines) ? [...BATCH_COLUMNS, ...TRIAGE_COLUMNS, ...DOUBT_COLUMNS] : [...BATCH_COLUMNS, ...DOUBT_COLUMNS];

/** The doubt of a found row's status date at `now`, in words. */
function doubtCell(line: BatchLine, now: number): string {
  const date = line.row?.ok ? line.row.statusDate : undefined;
  const doubt = date === undefined ? undefined : dateDoubt(new Date(date).getTime(), now);
  return doubt ? DATE_DOUBT_WORDS[doubt] : '';
}

function triageCells(line: BatchLine, zone: ZoneOptions): string[] {
  const triage = line.row?.ok ? line.row.triage : undefined;
  if (!triage?.known) return ['', '', '', ''];
  const pictures = triage.pictures === undefined ? '' : triage.pictures ? 'yes' : 'no';
  return [triage.certificate ?? 'none', pictures, triage.asOf ?? '', localDate(triage.asOf, zone)];
}

/** A line's cells, with the triage's when the batch carries it, then its date's doubt. */
function lineCells(line: BatchLine, kind: LookupKind, zone: ZoneOptions, triage: boolean, now: number): string[] {
  return [...cells(line, kind, zone), ...(triage ? triageCells(line, zone) : []), doubtCell(line, now)];
}

function localDate(iso: string | undefined, zone: ZoneOptions): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : formatDateTime(date, zone);
}

function cells(line: BatchLine, kind: LookupKind, zone: ZoneOptions): string[] {
  const row = line.row;
  const start = [String(line.line), line.id];
  const repeat = line.repeatOf === undefined ? '' : String(line.repeatOf);
  if (!row) {
    const [refId, recordId] = kind === 'refId' ? [line.id, ''] : ['', line.id];
    return [...start, '', '', '', '', '', '', refId, recordId, repeat, 'pending', 'Not looked up', ''];
  }
  if (!row.ok) return [...start, '', '', '', '', '', '', '', '', repeat, row.code, row.message, ''];
  return [
    ...start,
    row.status,
    statusInfo(row.status).label,
    row.statusDate ?? '',
    localDate(row.statusDate, zone),
    row.submitCount === undefined ? '' : String(row.submitCount),
    row.isArchived === undefined ? '' : row.isArchived ? 'yes' : 'no',
    row.refId ?? '',
    row.recordId ?? '',
    repeat,
    '',
    '',
    // The fields the service sent that could not be read: not blank as if it had not sent them.
    (row.unread ?? []).join(' '),
  ];
}

/** RFC 4180 CSV with CRLF line ends, and a byte order mark so that spreadsheets read UTF-8. */
export function batchCsv(lines: BatchLine[], kind: LookupKind, zone: ZoneOptions = {}, now = Date.now()): string {
  const triage = withTriage(lines);
  const rows = [columnsOf(lines).join(','), ...lines.map((line) => lineCells(line, kind, zone, triage, now).map(csvCell).join(','))];
  return `${CSV_BOM}${rows.join('\r\n')}\r\n`;
}

/** Tab-separated, for pasting into a spreadsheet or a ticket: tabs and line breaks inside cells become spaces. */
export function batchTsv(lines: BatchLine[], kind: LookupKind, zone: ZoneOptions = {}, now = Date.now()): string {
  const clean = (value: string) => spreadsheetSafe(value.replace(/[\t\r\n]+/g, ' '));
  const triage = withTriage(lines);
  return `${[columnsOf(lines).join('\t'), ...lines.map((line) => lineCells(line, kind, zone, triage, now).map(clean).join('\t'))].join('\n')}\n`;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/** The same table as HTML, for editors that paste rich text (ticket systems, mail). Every cell is escaped. */
export function batchHtml(lines: BatchLine[], kind: LookupKind, zone: ZoneOptions = {}, now = Date.now()): string {
  const triage = withTriage(lines);
  const head = `<tr>${columnsOf(lines)
    .map((c) => `<th>${c}</th>`)
    .join('')}</tr>`;
  const body = lines
    .map(
      (line) =>
        `<tr>${lineCells(line, kind, zone, triage, now)
          .map((c) => `<td>${escapeHtml(c)}</td>`)
          .join('')}</tr>`,
    )
    .join('');
  return `<table><thead>${head}</thead><tbody>${body}</tbody></table>`;
}

/** `candidates-refId-2026-11-22-1403+0100.csv` (downloadName, download-name.ts): no id in the name, it ends up in download lists. */
export function batchFileName(kind: LookupKind, now: Date): string {
  return downloadName(`candidates-${kind}`, now);
}
