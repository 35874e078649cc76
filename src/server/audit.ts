import { mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { chainLines, readChainHead } from './audit-chain.ts';
import type { Role } from '../kyc/contract/api.ts';
import type { LookupKind } from '../kyc/contract/lookup.ts';

/** One line per lookup: who looked up which id, and what came of it. Never a key, never candidate data. */
export interface AuditEntry {
  time: string;
  /** The request's id, also in its log line and its X-Request-Id header. */
  requestId?: string;
  user: string;
  role: Role;
  /** The environment (its name) the lookup went to. */
  env: string;
  kind: LookupKind;
  /** The id as asked for, cut to 512 characters. */
  id: string;
  /** What the browser was answered. */
  status: number;
  code: string | null;
  /** The KYC service's HTTP status; null when it was not asked or did not answer. */
  upstreamStatus: number | null;
  /** Which detail was fetched: the full key, the status key, or the full key with identity data removed. */
  level: 'full' | 'status' | 'stripped' | null;
  durationMs: number;
  /** One id of a batch lookup (`POST /api/batch`). */
  batch?: true;
  /** A batch refused whole (its budget used up): how many ids it held; `id` is then empty. */
  batchSize?: number;
}

/** A candidate's data carried out of the page: a summary or a reply copied, or the page printed. */
export interface ExportAuditEntry {
  time: string;
  /** The request's id, also in its log line and its X-Request-Id header. */
  requestId?: string;
  user: string;
  role: Role;
  env: string;
  kind: 'export';
  what: 'summary' | 'reply' | 'print';
  /** How the candidate shown was looked up. */
  lookupKind: LookupKind;
  id: string;
}

/** One line per page of the applicants list: who listed which page. The records' ids are not repeated here. */
export interface ListAuditEntry extends Omit<AuditEntry, 'kind' | 'id' | 'batch' | 'batchSize'> {
  kind: 'list';
  /** The documented filter, or "all"; null when the request was refused before it could be read. */
  filter: string | null;
  skip: number | null;
  limit: number | null;
  /** How many records the page held; null when none was answered. */
  records: number | null;
}

/** Every kind of line the audit log holds. */
export type AuditLine = AuditEntry | ExportAuditEntry | ListAuditEntry;

export interface AuditLog {
  /** Resolves once the line is written; rejects if it could not be (the lookup is then refused). */
  record(entry: AuditLine): Promise<void>;
}

interface Pending {
  /** The entry serialized without `prev`: the chain adds it when the line's place in the file is known. */
  body: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** How often the path is checked for rotation (the file moved away or replaced). */
const ROTATION_CHECK_MS = 1000;
/** A write that takes longer than this is a failure: lookups are refused rather than left hanging. */
const WRITE_TIMEOUT_MS = 5000;

/**
 * Appends to one open file. Lines that arrive while a write is under way go out together in the next
 * write (group commit): under load that is one write for many lookups instead of an open, a write and a
 * close for each. Each lookup still waits for its own line to be written.
 *
 * Each line is chained to the one before it (audit-chain.ts). The head of the chain is read from the
 * file's last line when a non-empty file is opened; a new empty file (after rotation) chains from the
 * last line written to the rotated one, or starts a chain when that is not known.
 */
export function createAuditLog(file: string): AuditLog {
  let handle: { file: FileHandle; inode: number; size: number } | undefined;
  let checkedAt = 0;
  let pending: Pending[] = [];
  let writing = false;
  // The hash of the last line on disk; undefined: not known (a new chain starts).
  let head: string | undefined;
  // A line cut short by a crash or a failed write: the next write starts on a fresh line.
  let afterPartialLine = false;

  async function currentHandle(): Promise<NonNullable<typeof handle>> {
    const now = Date.now();
    if (handle && now - checkedAt > ROTATION_CHECK_MS) {
      checkedAt = now;
      const onDisk = await stat(file).catch(() => undefined);
      if (!onDisk || onDisk.ino !== handle.inode) await closeHandle();
    }
    if (!handle) {
      await mkdir(path.dirname(path.resolve(file)), { recursive: true }).catch(() => {});
      // Read as well as append: the chain continues from the file's last line.
      const opened = await open(file, 'a+', 0o600);
      try {
        const { ino, size } = await opened.stat();
        const tail = await readChainHead(opened, size);
        if (tail) {
          head = tail.head;
          afterPartialLine = !tail.complete;
        }
        handle = { file: opened, inode: ino, size };
      } catch (error) {
        await opened.close().catch(() => {});
        throw error;
      }
      checkedAt = now;
    }
    return handle;
  }

  async function closeHandle(): Promise<void> {
    const old = handle;
    handle = undefined;
    await old?.file.close().catch(() => {});
  }

  /** Writes one batch as chained lines; on failure removes what part of it reached the file. */
  async function writeBatch(batch: Pending[]): Promise<void> {
    const current = await currentHandle();
    const chained = chainLines(
      batch.map((p) => p.body),
      head,
    );
    const text = (afterPartialLine ? '\n' : '') + chained.lines.map((line) => `${line}\n`).join('');
    try {
      await current.file.appendFile(text);
    } catch (error) {
      // Part of the batch may be on disk (a full disk): cut it off, so the chain stays whole.
      const cut = await current.file.truncate(current.size).then(
        () => true,
        () => false,
      );
      if (!cut) head = undefined; // read again from the file when it is reopened
      throw error;
    }
    current.size += Buffer.byteLength(text);
    head = chained.head;
    afterPartialLine = false;
  }

  async function flush(): Promise<void> {
    writing = true;
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      let timer: NodeJS.Timeout | undefined;
      try {
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('the audit log write timed out')), WRITE_TIMEOUT_MS);
        });
        await Promise.race([writeBatch(batch), timeout]);
        for (const p of batch) p.resolve();
      } catch (error) {
        // A non-empty file's last line is read again when it is reopened: the chain continues from it.
        await closeHandle(); // try afresh next time: the disk may have room again
        for (const p of batch) p.reject(error);
      } finally {
        clearTimeout(timer);
      }
    }
    writing = false;
  }

  return {
    record(entry) {
      const cut = entry.kind !== 'list' && entry.id.length > 512 ? { id: `${entry.id.slice(0, 512)}…` } : {};
      const body = JSON.stringify({ ...entry, ...cut });
      return new Promise<void>((resolve, reject) => {
        pending.push({ body, resolve, reject });
        if (!writing) void flush();
      });
    },
  };
}
