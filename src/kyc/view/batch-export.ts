import type { LookupKind } from '../contract/lookup.ts';
import type { BatchRow } from '../contract/batch.ts';
import { CSV_BOM, csvCell, spreadsheetSafe } from '../contract/csv.ts';

/** One line of a batch's result as it is exported: the id asked for and its row (none yet: pending). */
export interface BatchLine {
  id: string;
  row?: BatchRow;
}

export const BATCH_COLUMNS = ['id', 'status', 'statusDate', 'submitCount', 'refId', 'recordId', 'error', 'message'] as const;

function cells(line: BatchLine, kind: LookupKind): string[] {
  const row = line.row;
  if (!row) return [line.id, '', '', '', kind === 'refId' ? line.id : '', kind === 'recordId' ? line.id : '', 'pending', 'Not looked up'];
  if (!row.ok) return [line.id, '', '', '', '', '', row.code, row.message];
  return [
    line.id,
    row.status,
    row.statusDate ?? '',
    row.submitCount === undefined ? '' : String(row.submitCount),
    row.refId ?? '',
    row.recordId ?? '',
    '',
    '',
  ];
}

/** RFC 4180 CSV with CRLF line ends, and a byte order mark so that spreadsheets read UTF-8. */
export function batchCsv(lines: BatchLine[], kind: LookupKind): string {
  const rows = [BATCH_COLUMNS.join(','), ...lines.map((line) => cells(line, kind).map(csvCell).join(','))];
  return `${CSV_BOM}${rows.join('\r\n')}\r\n`;
}

/** Tab-separated, for pasting into a spreadsheet or a ticket: tabs and line breaks inside cells become spaces. */
export function batchTsv(lines: BatchLine[], kind: LookupKind): string {
  const clean = (value: string) => spreadsheetSafe(value.replace(/[\t\r\n]+/g, ' '));
  return `${[BATCH_COLUMNS.join('\t'), ...lines.map((line) => cells(line, kind).map(clean).join('\t'))].join('\n')}\n`;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/** The same table as HTML, for editors that paste rich text (ticket systems, mail). Every cell is escaped. */
export function batchHtml(lines: BatchLine[], kind: LookupKind): string {
  const head = `<tr>${BATCH_COLUMNS.map((c) => `<th>${c}</th>`).join('')}</tr>`;
  const body = lines
    .map(
      (line) =>
        `<tr>${cells(line, kind)
          .map((c) => `<td>${escapeHtml(c)}</td>`)
          .join('')}</tr>`,
    )
    .join('');
  return `<table><thead>${head}</thead><tbody>${body}</tbody></table>`;
}

/** `candidates-refId-2026-11-22-1403.csv`: no id in the name, it ends up in download lists. */
export function batchFileName(kind: LookupKind, now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `candidates-${kind}-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}.csv`;
}
