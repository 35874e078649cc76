import type { Asker } from './trail-reads.ts';
import type { AuditRow } from '../../kyc/contract/audit-search.ts';
import type { FileChain } from '../../kyc/contract/audit-status.ts';
import type { Database } from '../state/postgres.ts';
import { cutsOf, isCut } from './audit-cuts.ts';
import type { SearchFilter } from './audit-match.ts';
import { searchTableInOrder } from './audit-table.ts';

/**
 * Which rows of the audit page the hash chain no longer vouches for: of an instance whose files break,
 * every line after the last one the chain vouches for before its oldest break (`broken.lastVouched`),
 * told by the line's place, never by its time: an edited line may say any time. In the files the place
 * is the line's file and offset (chain-watch.ts's `unvouchedFrom`); in the table it is the order the
 * table took the lines (`seq`), which is each file's order, as the indexer reads a file from its start.
 * In the table, too, the rows that lines cut from the end of a file had left there (audit-cuts.ts).
 */

/**
 * A page of a search; `marked`: the audit page's, whose rows after a break are marked; `shown`: the audit
 * page's too, whose queue views list the candidates they showed.
 */
export interface SearchPage {
  limit: number;
  cursor?: string;
  marked?: boolean;
  shown?: boolean;
  /** Whose read it is, for its turn among this instance's reads of its files (trail-reads.ts). */
  asker?: Asker;
}

type Vouched = { time: string; hash: string };

/** Each instance whose files break, and the last line its oldest break leaves vouched for (none: not one line). */
export function breaksOf(instances: ReadonlyArray<{ instance: string; files: readonly FileChain[] }>): Map<string, Vouched | undefined> {
  const breaks = new Map<string, Vouched | undefined>();
  const seen = new Set<string>();
  for (const { instance, files } of instances) {
    // The first named wins: this instance's own chain as checked now, before its last report to the table.
    if (seen.has(instance)) continue;
    seen.add(instance);
    // Files are listed newest first: the oldest break is the one that counts.
    const oldest = files.filter((file) => !file.intact).at(-1);
    if (oldest) breaks.set(instance, oldest.broken?.lastVouched);
  }
  return breaks;
}

/** A page of the table, each row after its instance's break marked `unvouched`. */
export async function searchTableMarked(
  db: Database,
  filter: SearchFilter,
  page: SearchPage,
  breaks: Map<string, Vouched | undefined>,
  retentionDays: number,
): Promise<{ rows: AuditRow[]; next?: string }> {
  const { rows, seqs, next } = await searchTableInOrder(db, filter, page);
  const after = new Map<string, bigint | undefined>();
  for (const instance of new Set(rows.map((row) => row.instance))) {
    if (breaks.has(instance)) after.set(instance, await seqAfter(db, instance, breaks.get(instance), retentionDays));
  }
  // Rows a cut took from their file (audit-cuts.ts): the table holds them, the file no longer vouches for them.
  const cuts = rows.length > 0 ? await cutsOf(db, [...new Set(rows.map((row) => row.instance))]) : [];
  const marked = rows.map((row, index) => {
    const from = after.get(row.instance);
    const seq = BigInt(seqs[index]!);
    return (from !== undefined && seq > from) || isCut(cuts, row.instance, seq) ? { ...row, unvouched: true as const } : row;
  });
  return { rows: marked, ...(next ? { next } : {}) };
}

/**
 * The rows of `instance` after this `seq` are after its break: the last line vouched for's own place. Not in
 * the table: past the retention (or never kept, being older), every row left is after it; else the table
 * has not reached it yet, and none is (undefined).
 */
async function seqAfter(db: Database, instance: string, last: Vouched | undefined, retentionDays: number): Promise<bigint | undefined> {
  if (!last) return -1n;
  const { rows } = await db.query<{ seq: string }>('SELECT seq FROM candidate_lookup_audit WHERE instance = $1 AND hash = $2', [
    instance,
    last.hash,
  ]);
  if (rows[0]) return BigInt(rows[0].seq);
  return Date.parse(last.time) < Date.now() - retentionDays * 86_400_000 ? -1n : undefined;
}
