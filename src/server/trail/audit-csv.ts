import type { AuditRow } from '../../kyc/contract/audit-search.ts';
import { CSV_BOM, csvLine } from '../../kyc/contract/csv.ts';
import { heldText } from '../../kyc/contract/audit-held.ts';

/**
 * The audit page's CSV export: one row per line, the columns the page shows and the line's hash (to find
 * it in the file, and check it against the chain), and whether the chain still vouches for it (`unvouched`). Cells are made safe against formula injection by the
 * batch export's rule (contract/csv.ts): a user name or id that starts with = + - @ gets an apostrophe.
 *
 * The order is stable: a column is only ever added at the end. Leads' scripts read the file by position
 * (`level` the 9th column), and `queueTab` and `shown`, once put in the middle, moved every column after them.
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
  'level',
  'status',
  'code',
  'client',
  'requestId',
  'detail',
  'hash',
  // A queue view that named its candidates has no `kind` or `id` of its own: its tab, and whom it showed.
  'queueTab',
  'shown',
  // `true` for a row after a break in its instance's hash chain, or one a cut took from its file, as the search marks it.
  'unvouched',
  // A full lookup answered 200: what its answer held, by its request's closing line (audit-held.ts), or why that is not known.
  'held',
] as const;

export function csvHeader(): string {
  return `${CSV_BOM}${csvLine(AUDIT_CSV_COLUMNS)}`;
}

type Cell = string | number | null | undefined;

export function csvRow(row: AuditRow): string {
  const cell = (value: Cell) => (value === null || value === undefined ? '' : String(value));
  // In AUDIT_CSV_COLUMNS' order: a queue view's tab and whom it showed come last, after the hash.
  const cells: Cell[] = [row.time, row.instance, row.user, row.role, row.action, row.env, row.kind, row.id, row.level, row.status];
  cells.push(row.code, row.client, row.requestId, row.detail, row.hash, row.queueTab, shownCell(row.shown), row.unvouched ? 'true' : '');
  cells.push(heldsText(row));
  return csvLine(cells.map(cell));
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

/** The `held` cell: a full lookup's (answered 200) what it held, or why that is not known; empty for any other row. */
function heldsText(row: AuditRow): string {
  return row.action === 'lookup' && row.level === 'full' && row.status === 200 ? heldText(row) : '';
}
