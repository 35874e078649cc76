import type { FileHandle } from 'node:fs/promises';
import type { IndexLag } from '../../kyc/contract/audit-search.ts';
import { lineHash } from '../audit/audit-chain.ts';
import { recordCut } from './audit-cuts.ts';
import { databaseProblem, type Database } from '../state/postgres.ts';
import { type AuditFile, auditFilesOf, type FileLine, lineEndsAt, openToRead, readLinesForward } from './audit-files.ts';
import { readLine, rowOfLine } from './audit-row.ts';
import { type IndexedLine, insertLines, type Progress, progressOf } from './audit-table.ts';

/**
 * The table follows the files (issue 34): a line is written to its file first, as always, and the
 * indexer then reads the file from where it last got to and inserts what it finds. The file is the
 * source, so no line can be missed, and the table's unique hash makes a line inserted twice one row.
 * A database that is down costs nothing but time: the indexer tries again (1 s, doubling to 30 s) and
 * goes on from where it stopped. Where it got to is saved with each batch (the table's instances row),
 * so a restart goes on from there too; `npm run audit:import` runs the same code over the same files.
 */

export interface IndexerOptions {
  /** The current audit file (AUDIT_LOG); its rotated predecessors are beside it. */
  file: string;
  instance: string;
  /** Lines older than this many days are not inserted: the retention would delete them again. */
  retentionDays: number;
  now?: () => number;
  /** The longest wait between two tries while the database fails (default 30 s). */
  maxBackoffMs?: number;
  /** Before each pass: the schema made (state/postgres.ts's migrate). */
  before?: () => Promise<void>;
  /** Read every file from its start, whatever the saved progress says (`npm run audit:import -- --rebuild`). */
  fromStart?: boolean;
  /** Told after each batch: lines read, and how many of them were new to the table. */
  onBatch?: (read: number, inserted: number) => void;
  /** Told after each pass that reached the end of the files without a database error. */
  onPass?: () => void;
}

export interface AuditIndexer {
  /** Lines were written: index them soon. */
  notify(): void;
  /** Indexes everything the files hold now; rejects when the database fails. */
  syncNow(): Promise<void>;
  /**
   * Resolves once what the current file held when asked is in the table, or the database is failing,
   * or `timeoutMs` has passed: a page then shows the lines its own request just wrote.
   */
  caughtUp(timeoutMs: number): Promise<void>;
  /** Lines written but not in the table yet, the oldest one's time, and why (the database's error). */
  lag(): Promise<IndexLag>;
  /** The database's last error, while it fails. */
  problem(): string | undefined;
  close(): void;
}

/** Most bytes of lines read and inserted in one transaction. */
const BATCH_BYTES = 1024 * 1024;

export function createAuditIndexer(db: Database, options: IndexerOptions): AuditIndexer {
  return new Indexer(db, options);
}

class Indexer implements AuditIndexer {
  private readonly now: () => number;
  private readonly maxBackoffMs: number;
  // By inode: the bytes of each file already in the table. Unknown until the saved progress is read.
  private offsets: Map<number, number> | undefined;
  // Until the saved progress could be read: the files as they were at start (what was written since is surely not indexed).
  private readonly atStart: Promise<Map<number, number>>;
  private readonly startedAt: string;
  private running: Promise<void> | undefined;
  private again = false;
  private failure: string | undefined;
  private backoff = 0;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly waiters = new Set<() => void>();
  private readonly tick: NodeJS.Timeout;

  constructor(
    private readonly db: Database,
    private readonly options: IndexerOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.startedAt = new Date(this.now()).toISOString();
    this.atStart = auditFilesOf(options.file).then((files) => new Map(files.map((file) => [file.inode, file.size])));
    this.atStart.catch(() => {});
    // Now and then even without news: a line written by another process, a rotation.
    this.tick = setInterval(() => void this.syncNow().catch(() => {}), 5_000);
    this.tick.unref();
  }

  notify(): void {
    // While the database fails, the next try is already planned.
    if (!this.closed && !this.failure) void this.syncNow().catch(() => {});
  }

  syncNow(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.passes()
      .then(
        () => {
          this.failure = undefined;
          this.backoff = 0;
          this.options.onPass?.();
        },
        (error: unknown) => {
          this.failure = databaseProblem(error);
          this.backoff = Math.min(this.maxBackoffMs, this.backoff === 0 ? 1000 : this.backoff * 2);
          clearTimeout(this.retry);
          this.retry = setTimeout(() => void this.syncNow().catch(() => {}), this.backoff);
          this.retry.unref();
          throw error;
        },
      )
      .finally(() => {
        this.running = undefined;
        for (const wake of [...this.waiters]) wake();
      });
    return this.running;
  }

  async caughtUp(timeoutMs: number): Promise<void> {
    const target = (await auditFilesOf(this.options.file))[0];
    const deadline = this.now() + timeoutMs;
    const done = () => !target || this.failure !== undefined || (this.offsets?.get(target.inode) ?? 0) >= target.size;
    if (!this.failure) void this.syncNow().catch(() => {});
    while (!done() && this.now() < deadline && !this.closed) await this.nextPass(deadline);
  }

  async lag(): Promise<IndexLag> {
    const { file, instance } = this.options;
    if (this.offsets) return lagOf(file, instance, this.offsets, this.failure);
    // Where indexing stood is not known: what was written since the start, at least, and not the oldest's time.
    const { since: _counted, ...lag } = await lagOf(file, instance, await this.atStart, this.failure);
    return { ...lag, unknownBefore: this.startedAt };
  }

  problem(): string | undefined {
    return this.failure;
  }

  close(): void {
    this.closed = true;
    clearInterval(this.tick);
    clearTimeout(this.retry);
  }

  /** Waits for the pass under way to end, or the deadline. */
  private nextPass(deadline: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(1, deadline - this.now()));
      this.waiters.add(wake);
    });
  }

  private async passes(): Promise<void> {
    do {
      this.again = false;
      await this.pass();
    } while (this.again && !this.closed);
  }

  /** Every file, oldest first, read from where indexing stands to its end, a batch per transaction. */
  private async pass(): Promise<void> {
    await this.options.before?.();
    const files = (await auditFilesOf(this.options.file)).reverse();
    this.offsets ??= this.options.fromStart ? new Map() : await locate(this.db, this.options.instance, files);
    for (const file of files) await this.indexFile(file, this.offsets);
    for (const inode of this.offsets.keys()) if (!files.some((file) => file.inode === inode)) this.offsets.delete(inode);
  }

  private async indexFile(file: AuditFile, offsets: Map<number, number>): Promise<void> {
    let start = offsets.get(file.inode) ?? 0;
    if (start > file.size) start = 0; // copied and truncated in place: a new file under the old inode
    while (start < file.size) {
      const handle = await openToRead(file.path);
      if (!handle) return;
      const lines = await readLinesForward(handle, start, file.size, BATCH_BYTES).finally(() => handle.close());
      if (lines.length === 0) return;
      const indexed = lines.map((line) => indexedOf(line, this.options.instance));
      const last = indexed.at(-1)!;
      const end = lines.at(-1)!.end;
      const progress: Progress = { hash: last.row.hash, inode: file.inode, offset: end, time: last.row.time };
      const kept = indexed.filter((line) => isKept(line, this.options.retentionDays, this.now()));
      const inserted = await insertLines(this.db, this.options.instance, kept, progress);
      this.options.onBatch?.(lines.length, inserted);
      offsets.set(file.inode, end);
      start = end;
    }
  }
}

export function indexedOf(line: Pick<FileLine, 'bytes'>, instance: string): IndexedLine {
  return { ...readLine(line.bytes, instance), line: line.bytes.toString('utf8') };
}

function isKept(line: IndexedLine, retentionDays: number, now: number): boolean {
  return Date.parse(line.row.time) >= now - retentionDays * 86_400_000;
}

/**
 * Where indexing stands in the files, from the progress saved with the last batch: the file it names
 * (by inode) up to its offset, if the line there is still the one indexed; the files before it whole,
 * the ones after it not at all. When the saved line is not where it was (the file was copied and
 * truncated, or restored), it is looked for in every file; not found, the lines after the last one of the
 * table a file still holds were cut from it: a lasting break is recorded (audit-cuts.ts) and indexing goes
 * on from that line. No file holding a line of the table, nor the file saved, everything is read again,
 * which the table's unique hashes make harmless.
 */
async function locate(db: Database, instance: string, files: AuditFile[]): Promise<Map<number, number>> {
  const offsets = new Map<number, number>();
  const saved = await progressOf(db, instance);
  if (!saved) return offsets;
  let at = files.findIndex((file) => file.inode === saved.inode && saved.offset <= file.size);
  let offset = saved.offset;
  if (at === -1 || !(await lineEndsAt(files[at]!.path, saved.offset, saved.hash))) {
    // Neither where it was nor anywhere: lines were cut from the end of a file (audit-cuts.ts), unless it is all gone.
    const found = (await findLine(files, saved.hash)) ?? (await recordCut(db, instance, files, saved));
    if (!found) return offsets;
    [at, offset] = found;
  }
  files.forEach((file, index) => {
    if (index < at) offsets.set(file.inode, file.size);
  });
  offsets.set(files[at]!.inode, offset);
  return offsets;
}

/** The file and the offset after the line whose hash is `hash`, newest file first. */
async function findLine(files: AuditFile[], hash: string): Promise<[number, number] | undefined> {
  for (let index = files.length - 1; index >= 0; index--) {
    const file = files[index]!;
    const handle = await openToRead(file.path);
    if (!handle) continue;
    try {
      const end = await scanFor(handle, file.size, hash);
      if (end !== undefined) return [index, end];
    } finally {
      await handle.close();
    }
  }
  return undefined;
}

async function scanFor(handle: FileHandle, size: number, hash: string): Promise<number | undefined> {
  for (let start = 0; start < size; ) {
    const lines = await readLinesForward(handle, start, size, 4 * BATCH_BYTES);
    if (lines.length === 0) return undefined;
    const found = lines.find((line) => lineHash(line.bytes) === hash);
    if (found) return found.end;
    start = lines.at(-1)!.end;
  }
  return undefined;
}

/**
 * The lines of this instance's files not in the table yet: counted from where indexing stands (or,
 * before the table could be asked where it stands, from the files' ends at start: at least that many).
 */
async function lagOf(file: string, instance: string, offsets: Map<number, number>, problem: string | undefined): Promise<IndexLag> {
  const files = (await auditFilesOf(file)).reverse();
  let lines = 0;
  let since: string | undefined;
  for (const found of files) {
    const start = offsets.get(found.inode) ?? 0;
    if (start >= found.size) continue;
    const handle = await openToRead(found.path);
    if (!handle) continue;
    try {
      for (let position = start; position < found.size; ) {
        const batch = await readLinesForward(handle, position, found.size, 4 * BATCH_BYTES);
        if (batch.length === 0) break;
        since ??= rowOfLine(batch[0]!.bytes, instance).time;
        lines += batch.length;
        position = batch.at(-1)!.end;
      }
    } finally {
      await handle.close();
    }
  }
  return { instance, lines, ...(since ? { since } : {}), ...(problem ? { problem } : {}) };
}
