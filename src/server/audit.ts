import { mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Role } from '../kyc/contract/api.ts';
import type { LookupKind } from '../kyc/contract/lookup.ts';

/** One line per lookup: who looked up which id, and what came of it. Never a key, never candidate data. */
export interface AuditEntry {
  time: string;
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
  user: string;
  role: Role;
  env: string;
  kind: 'export';
  what: 'summary' | 'reply' | 'print';
  /** How the candidate shown was looked up. */
  lookupKind: LookupKind;
  id: string;
}

/** Every kind of line the audit log holds. */
export type AuditLine = AuditEntry | ExportAuditEntry;

export interface AuditLog {
  /** Resolves once the line is written; rejects if it could not be (the lookup is then refused). */
  record(entry: AuditLine): Promise<void>;
}

interface Pending {
  line: string;
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
 */
export function createAuditLog(file: string): AuditLog {
  let handle: { file: FileHandle; inode: number } | undefined;
  let checkedAt = 0;
  let pending: Pending[] = [];
  let writing = false;
  // After a failed write part of a line may be on disk: the next write starts on a fresh line.
  let afterFailure = false;

  async function currentHandle(): Promise<FileHandle> {
    const now = Date.now();
    if (handle && now - checkedAt > ROTATION_CHECK_MS) {
      checkedAt = now;
      const onDisk = await stat(file).catch(() => undefined);
      if (!onDisk || onDisk.ino !== handle.inode) await closeHandle();
    }
    if (!handle) {
      await mkdir(path.dirname(path.resolve(file)), { recursive: true }).catch(() => {});
      const opened = await open(file, 'a', 0o600);
      handle = { file: opened, inode: (await opened.stat()).ino };
      checkedAt = now;
    }
    return handle.file;
  }

  async function closeHandle(): Promise<void> {
    const old = handle;
    handle = undefined;
    await old?.file.close().catch(() => {});
  }

  async function flush(): Promise<void> {
    writing = true;
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      let timer: NodeJS.Timeout | undefined;
      try {
        const text = (afterFailure ? '\n' : '') + batch.map((p) => p.line).join('');
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('the audit log write timed out')), WRITE_TIMEOUT_MS);
        });
        await Promise.race([currentHandle().then((handle) => handle.appendFile(text)), timeout]);
        afterFailure = false;
        for (const p of batch) p.resolve();
      } catch (error) {
        afterFailure = true;
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
      const line = `${JSON.stringify({ ...entry, id: entry.id.length > 512 ? `${entry.id.slice(0, 512)}…` : entry.id })}\n`;
      return new Promise<void>((resolve, reject) => {
        pending.push({ line, resolve, reject });
        if (!writing) void flush();
      });
    },
  };
}
