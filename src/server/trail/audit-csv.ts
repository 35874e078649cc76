import type { AuditRow } from '../../kyc/contract/audit-search.ts';
import { CSV_BOM, csvLine } from '../../kyc/contract/csv.ts';

/**
 * The audit page's CSV export: one row per line, the columns the page shows and the line's hash (to find
 * it in the file, and check it against the chain). Cells are made safe against formula injection by the
 * batch export's rule (contract/csv.ts): a user name or id that starts with = + - @ gets an apostrophe.
 */
export const AUDIT_CSV_COLUMNS = [
  'time',
  'instance',
  'user',
  'role',
  'action',
  'environment',
  'kind',
  'id',
  // A queue view that named its candidates has no `kind` or `id` of its own: its tab, and whom it showed.
  'queueTab',
  'shown',
  'level',
  'status',
  'code',
  'client',
  'requestId',
  'detail',
  'hash',
] as const;

export function csvHeader(): string {
  return `${CSV_BOM}${csvLine(AUDIT_CSV_COLUMNS)}`;
}

type Cell = string | number | null | undefined;

export function csvRow(row: AuditRow): string {
  const cell = (value: Cell) => (value === null || value === undefined ? '' : String(value));
  // Who the row names: its own candidate, or a queue view's tab and whom it showed.
  const candidate: Cell[] = [row.kind, row.id, row.queueTab, shownCell(row.shown)];
  return csvLine(
    [row.time, row.instance, row.user, row.role, row.action, row.env, ...candidate, row.level, row.status, row.code]
      .concat([row.client, row.requestId, row.detail, row.hash])
      .map(cell),
  );
}

/**
 * Whom a queue view showed, in one cell: `refId/recordId` for each candidate (either side empty when their
 * row carried no such id), joined by `; `. A refId may hold any character, so `%`, `/` and `;` inside an id
 * are written `%25`, `%2F` and `%3B`: the cell splits back into exactly the ids the line names.
 */
export function shownCell(shown: AuditRow['shown']): string {
  if (!shown || shown.length === 0) return '';
  const escaped = (id: string | undefined) => (id ?? '').replace(/[%/;]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return shown.map((ids) => `${escaped(ids.refId)}/${escaped(ids.recordId)}`).join('; ');
}
