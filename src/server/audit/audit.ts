import { closeSync, constants, fstatSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { openChainedFile } from './audit-file.ts';
import { auditLineBody } from './audit-line.ts';
import type { AuditLine, NoteAuditEntry } from './audit-entries.ts';

/** The kinds of line, in a file of their own (audit-entries.ts); named here too, where the log is. */
export type {
  AnswerCut,
  AuditEntry,
  AuditLine,
  AuditReadEntry,
  ExportAuditEntry,
  ListAuditEntry,
  NoteAuditEntry,
  RefusalsAuditEntry,
  RefusedRequestAuditEntry,
} from './audit-entries.ts';

export interface AuditLog {
  /** Resolves once the line is written; rejects if it could not be (the lookup is then refused). */
  record(entry: AuditLine): Promise<void>;
  /**
   * False while a write has been under way longer than the write timeout (a hung mount, a pipe nobody
   * reads): a lookup is then refused at once instead of waiting, and nothing new is sent to the file.
   */
  available(): boolean;
}

/** The log as its owner holds it: the one who made it closes it when the server stops. */
export interface ClosableAuditLog extends AuditLog {
  /**
   * Writes every line already taken, then closes the file; a line recorded after this is refused. A log
   * that is stuck does not wait for its hung write (whose lookups were refused already).
   */
  close(): Promise<void>;
}

export interface AuditLogOptions {
  /** A write (or open) that takes longer than this is a failure (default 5 s). */
  writeTimeoutMs?: number;
}

export class AuditUnavailableError extends Error {
  override name = 'AuditUnavailableError';
}

interface Pending {
  /** The entry serialized without `prev`: the chain adds it when the line's place in the file is known. */
  body: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** A write that takes longer than this is a failure: lookups are refused rather than left hanging. */
const WRITE_TIMEOUT_MS = 5000;

const STUCK = 'the audit log is not answering: a write has been under way for longer than the write timeout';
const CLOSED = 'the audit log is closed: the server is stopping';

/**
 * Appends to one open file. Lines that arrive while a write is under way go out together in the next
 * write (group commit): under load that is one write for many lookups instead of an open, a write and a
 * close for each. Each lookup still waits for its own line to be written.
 * Each line is chained to the one before it (audit-file.ts).
 */
export function createAuditLog(file: string, options: AuditLogOptions = {}): ClosableAuditLog {
  const writeTimeoutMs = options.writeTimeoutMs ?? WRITE_TIMEOUT_MS;
  const target = openChainedFile(file);
  let pending: Pending[] = [];
  let writing = false;
  // A write outlasted its timeout and is still under way in the thread pool.
  let stuck = false;
  let closed = false;
  // Closed while stuck: the file is closed once the hung write ends (and its note is written).
  let closeWhenDone = false;
  // Told when the writer goes idle or gets stuck: what close() waits for.
  const waiters: Array<() => void> = [];
  const tellWaiters = () => {
    for (const done of waiters.splice(0)) done();
  };

  /**
   * Writes batch after batch. At most one write (or open) is ever under way: one that hangs holds one
   * thread of libuv's pool, never one per lookup. Past the timeout its lookups are refused and so is
   * every new line, until it ends; lines it wrote after all are followed by a note that says so.
   */
  async function flush(): Promise<void> {
    writing = true;
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      const write = target.append(batch.map((p) => p.body));
      const inTime = await settledWithin(write, writeTimeoutMs);
      if (inTime) {
        for (const p of batch) inTime.ok ? p.resolve() : p.reject(inTime.error);
        continue;
      }
      stuck = true;
      const error = new AuditUnavailableError(STUCK);
      for (const p of [...batch, ...pending]) p.reject(error);
      pending = [];
      tellWaiters();
      const late = await write.then(
        () => true,
        () => false,
      );
      stuck = false;
      if (late) pending.unshift(lateNote(batch.length, writeTimeoutMs));
    }
    writing = false;
    tellWaiters();
    if (closeWhenDone) void target.close();
  }

  return {
    record(entry) {
      if (closed) return Promise.reject(new AuditUnavailableError(CLOSED));
      if (stuck) return Promise.reject(new AuditUnavailableError(STUCK));
      const body = auditLineBody(entry);
      return new Promise<void>((resolve, reject) => {
        pending.push({ body, resolve, reject });
        if (!writing) void flush();
      });
    },
    available: () => !stuck,
    async close() {
      closed = true;
      if (writing && !stuck) await new Promise<void>((resolve) => waiters.push(resolve));
      if (stuck) closeWhenDone = true;
      else await target.close();
    },
  };
}

/**
 * Why the audit log cannot be written, checked once at start (undefined: it can). Creates the file, as
 * the first line would. Opened without blocking: a pipe that nobody reads is refused, not waited for.
 */
export function auditFileProblem(file: string): string | undefined {
  try {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK, 0o600);
    try {
      if (fstatSync(fd).isDirectory()) return 'it is a directory';
    } finally {
      closeSync(fd);
    }
    return undefined;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'ENXIO') return 'it is a pipe that nobody reads';
    return code ?? message;
  }
}

/** The operation's outcome if it settles within `ms`, or undefined. */
async function settledWithin(operation: Promise<void>, ms: number): Promise<{ ok: true } | { ok: false; error: unknown } | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([
      operation.then(
        () => ({ ok: true as const }),
        (error: unknown) => ({ ok: false as const, error }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function lateNote(lines: number, timeoutMs: number): Pending {
  const note: NoteAuditEntry = {
    time: new Date().toISOString(),
    kind: 'note',
    note: `the ${lines} line(s) before this one were written after the ${timeoutMs} ms write timeout: their lookups had been refused (503 audit_unavailable)`,
  };
  return { body: auditLineBody(note), resolve: () => {}, reject: () => {} };
}
