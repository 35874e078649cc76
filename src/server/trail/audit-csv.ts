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

export function csvRow(row: AuditRow): string {
  const cell = (value: string | number | null) => (value === null ? '' : String(value));
  return csvLine(
    [row.time, row.instance, row.user, row.role, row.action, row.env, row.kind, row.id, row.level, row.status, row.code]
      .concat([row.client, row.requestId, row.detail, row.hash])
      .map(cell),
  );
}
