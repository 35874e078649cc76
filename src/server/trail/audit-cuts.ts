import type { FileChain, InstanceState } from '../../kyc/contract/audit-status.ts';
import { lineHash } from '../audit/audit-chain.ts';
import type { Database } from '../state/postgres.ts';
import { type AuditFile, openToRead, readLinesForward } from './audit-files.ts';
import { rowOfLine } from './audit-row.ts';
import type { Progress } from './audit-table.ts';

/**
 * Lines cut from the end of an audit file that the table had already taken (the review: cut while the
 * instance was stopped, they were said nowhere, and the table went on showing them as vouched for). The
 * indexer finds it at start: its saved progress points past the file's end, or the line it saved is no
 * longer at its offset nor anywhere in the files, while the file (by inode) is still there. It then
 * records a lasting break in `candidate_lookup_audit_cuts` (append-only): which file, when, after which
 * line, how many bytes, and which of the table's rows the file no longer has (`after_seq < seq <=
 * through_seq`). The audit page's status shows it as a break, its search marks those rows `unvouched`.
 */

/** A cut as the table keeps it. */
export interface Cut {
  instance: string;
  file: string;
  time: string;
  afterLine: number;
  bytes: number;
  afterSeq: bigint;
  throughSeq: bigint;
  lastVouched?: { time: string; hash: string };
}

/** Lines read at a time while looking for the last line of the file the table has. */
const SCAN_BYTES = 4 * 1024 * 1024;

/** The last line of `file` that the table holds for `instance`: its number (1-based), where it ends, its hash, time and seq. */
async function lastLineInTable(db: Database, instance: string, file: AuditFile) {
  let found: { line: number; end: number; hash: string; time: string; seq: bigint } | undefined;
  const handle = await openToRead(file.path);
  if (!handle) return undefined;
  try {
    let count = 0;
    for (let start = 0; start < file.size; ) {
      const lines = await readLinesForward(handle, start, file.size, SCAN_BYTES);
      if (lines.length === 0) break;
      const hashes = lines.map((line) => lineHash(line.bytes));
      const { rows } = await db.query<{ hash: string; seq: string }>(
        'SELECT hash, seq FROM candidate_lookup_audit WHERE instance = $1 AND hash = ANY($2::text[])',
        [instance, hashes],
      );
      const seqs = new Map(rows.map((row) => [row.hash, BigInt(row.seq)]));
      lines.forEach((line, index) => {
        const seq = seqs.get(hashes[index]!);
        if (seq !== undefined) {
          const time = rowOfLine(line.bytes, instance).time;
          found = { line: count + index + 1, end: line.end, hash: hashes[index]!, time, seq };
        }
      });
      count += lines.length;
      start = lines.at(-1)!.end;
    }
  } finally {
    await handle.close();
  }
  return found;
}

/**
 * The saved progress `saved` is in none of `files` (oldest first): the newest file that still holds lines
 * of the table had the lines after its last such line cut (its copy may have replaced it, under a new
 * inode), or, none holding any, the file saved had all of them cut. The cut is recorded and the progress
 * moved back to that last line, in one transaction. Answers the file (its index) and the offset to index
 * on from; none when no file holds a line of the table and the file saved is gone (rotated away).
 */
export async function recordCut(
  db: Database,
  instance: string,
  files: AuditFile[],
  saved: Progress,
): Promise<[number, number] | undefined> {
  for (let index = files.length - 1; index >= 0; index--) {
    const last = await lastLineInTable(db, instance, files[index]!);
    if (last) return [index, await saveCut(db, instance, files[index]!, saved, last)];
  }
  const at = files.findIndex((file) => file.inode === saved.inode);
  return at === -1 ? undefined : [at, await saveCut(db, instance, files[at]!, saved, undefined)];
}

type LastLine = Awaited<ReturnType<typeof lastLineInTable>>;

async function saveCut(db: Database, instance: string, file: AuditFile, saved: Progress, last: LastLine): Promise<number> {
  const end = last?.end ?? 0;
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ seq: string | null }>('SELECT max(seq) AS seq FROM candidate_lookup_audit WHERE instance = $1', [
      instance,
    ]);
    const through = rows[0]?.seq ? BigInt(rows[0].seq) : undefined;
    if (through !== undefined && through > (last?.seq ?? -1n)) {
      await client.query(
        `INSERT INTO candidate_lookup_audit_cuts (instance, file, inode, after_line, cut_bytes, after_seq, through_seq, last_hash, last_time)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          instance,
          file.name,
          file.inode,
          last?.line ?? 0,
          Math.max(0, saved.offset - end),
          last?.seq ?? null,
          through,
          last?.hash ?? null,
          last?.time ?? null,
        ],
      );
    }
    await client.query(
      `UPDATE candidate_lookup_audit_instances SET indexed_hash = $2, indexed_inode = $3, indexed_offset = $4, indexed_time = $5 WHERE instance = $1`,
      [instance, last?.hash ?? null, file.inode, end, last?.time ?? null],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  return end;
}

interface CutRecord {
  instance: string;
  file: string;
  time: Date;
  after_line: string;
  cut_bytes: string;
  after_seq: string | null;
  through_seq: string;
  last_hash: string | null;
  last_time: Date | null;
}

/** The cuts recorded for these instances (every instance's when none are named), oldest first. */
export async function cutsOf(db: Database, instances?: readonly string[]): Promise<Cut[]> {
  const { rows } = await db.query<CutRecord>(
    `SELECT instance, file, time, after_line, cut_bytes, after_seq, through_seq, last_hash, last_time FROM candidate_lookup_audit_cuts
     ${instances ? 'WHERE instance = ANY($1::text[])' : ''} ORDER BY seq`,
    instances ? [instances] : [],
  );
  return rows.map((row) => ({
    instance: row.instance,
    file: row.file,
    time: row.time.toISOString(),
    afterLine: Number(row.after_line),
    bytes: Number(row.cut_bytes),
    afterSeq: row.after_seq === null ? -1n : BigInt(row.after_seq),
    throughSeq: BigInt(row.through_seq),
    ...(row.last_hash && row.last_time ? { lastVouched: { time: row.last_time.toISOString(), hash: row.last_hash } } : {}),
  }));
}

/** Whether the row at `seq` of `instance` is one a cut took from its file. */
export function isCut(cuts: readonly Cut[], instance: string, seq: bigint): boolean {
  return cuts.some((cut) => cut.instance === instance && seq > cut.afterSeq && seq <= cut.throughSeq);
}

export function cutReason(cut: Cut): string {
  const bytes = `${cut.bytes.toLocaleString('en')} ${cut.bytes === 1 ? 'byte' : 'bytes'}`;
  return `${bytes} cut from the end after line ${cut.afterLine.toLocaleString('en')}, found ${cut.time}: the table holds lines this file no longer has`;
}

/** The instances' files with each recorded cut shown as a break of its file (by name), or a note when the file breaks earlier. */
export function withCuts(instances: InstanceState[], cuts: readonly Cut[]): InstanceState[] {
  return instances.map((state) => {
    const own = cuts.filter((cut) => cut.instance === state.instance);
    if (own.length === 0) return state;
    let files = state.files;
    for (const cut of own) {
      const at = files.findIndex((file) => file.file === cut.file);
      const chain = at === -1 ? undefined : files[at]!;
      const shown = chainWithCut(chain, cut);
      files = at === -1 ? [...files, shown] : files.map((file, index) => (index === at ? shown : file));
    }
    return { ...state, files };
  });
}

function chainWithCut(chain: FileChain | undefined, cut: Cut): FileChain {
  const reason = cutReason(cut);
  const line = cut.afterLine + 1;
  if (chain && !chain.intact && (chain.broken?.line ?? chain.lines + 1) <= line) {
    return { ...chain, notes: [...(chain.notes ?? []), reason] };
  }
  return {
    ...(chain ?? { file: cut.file, checkedAt: cut.time }),
    lines: Math.min(chain?.lines ?? cut.afterLine, cut.afterLine),
    intact: false,
    broken: { line, reason, ...(cut.lastVouched ? { lastVouched: cut.lastVouched } : {}) },
  };
}
