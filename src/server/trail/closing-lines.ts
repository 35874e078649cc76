import { heldOf } from '../../kyc/contract/audit-held.ts';
import type { AuditRow } from '../../kyc/contract/audit-search.ts';

/**
 * A full lookup is one row however many lines its request wrote: its 200 line, written before the first
 * byte, cannot know what the answer held, so its request closes with a second line that does (`held`,
 * lookup/full-answer.ts), or with a cut line when the answer was cut short. The hash chain is never
 * rewritten: the searches read the closing line onto the lookup's row instead, by the request's id within
 * its instance, and never list the closing line itself. The files are read newest first, so a closing line
 * is met before its lookup's line; the table finds it by its index (audit-table.ts).
 */

/** What a request's closing line says of its lookup's row. */
export type Closing = Pick<AuditRow, 'held' | 'heldCut'>;

/** Most requests remembered at once: closing lines whose lookup line is not met are forgotten, oldest first. */
const MAX_REMEMBERED = 10_000;

/** Bytes only a closing line or a cut line holds (a needle inside a string would be escaped): the rest are never parsed for it. */
export const CLOSING_NEEDLES = [Buffer.from('"held":{'), Buffer.from('"cut":"')];

/** A full lookup answered 200, whose request may close with a line saying what it held. */
export const awaitsClosing = (row: AuditRow): boolean =>
  row.action === 'lookup' && row.level === 'full' && row.status === 200 && row.requestId !== null;

export class ClosingLines {
  private readonly byRequest = new Map<string, Closing>();

  /** A line read: a closing line's `held`, or a cut line's, remembered for its request (held wins over cut). */
  note(row: AuditRow): void {
    if (row.requestId === null) return;
    const key = `${row.instance}\u0000${row.requestId}`;
    if (row.action === 'held' && row.held) this.remember(key, { held: row.held });
    else if (row.action === 'cut' && !this.byRequest.has(key)) this.remember(key, { heldCut: true });
  }

  /** Whether the lookup's row has its closing line here. */
  has(row: AuditRow): boolean {
    return this.byRequest.has(`${row.instance}\u0000${row.requestId}`);
  }

  /** The row with what its closing line says, when it awaits one and it was read. */
  onto(row: AuditRow): AuditRow {
    if (!awaitsClosing(row)) return row;
    const found = this.byRequest.get(`${row.instance}\u0000${row.requestId}`);
    return found ? { ...row, ...found } : row;
  }

  private remember(key: string, closing: Closing): void {
    this.byRequest.delete(key);
    this.byRequest.set(key, closing);
    if (this.byRequest.size > MAX_REMEMBERED) this.byRequest.delete(this.byRequest.keys().next().value!);
  }
}

/** A line's bytes that may be a closing or cut line: parsed only then. */
export const mayClose = (bytes: Buffer): boolean => CLOSING_NEEDLES.some((needle) => bytes.includes(needle));

/**
 * The table's column of a full lookup's row (audit-table.ts): its request's closing line, else its cut
 * line, found along the index of those lines (state/postgres.ts), whole.
 */
export const CLOSING_LINE = `CASE WHEN action = 'lookup' AND level = 'full' AND status = 200 AND request_id IS NOT NULL THEN (
    SELECT closing.line FROM candidate_lookup_audit closing
     WHERE closing.instance = candidate_lookup_audit.instance AND closing.request_id = candidate_lookup_audit.request_id
       AND closing.action IN ('held', 'cut')
     ORDER BY closing.action = 'held' DESC, closing.seq LIMIT 1) END AS closing_line`;

/** What a closing line (the table's, parsed) says of its lookup's row: what the answer held, or that it was cut short. */
export function closingOfLine(line: Record<string, unknown> | undefined): Closing {
  if (!line) return {};
  const held = heldOf(line.held);
  return held ? { held } : line.cut !== undefined ? { heldCut: true } : {};
}

/** A queue view's (or a batch hand-off's) line as the table holds it, to be read as the files' search reads it (audit-row.ts). */
export function lineOf(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
