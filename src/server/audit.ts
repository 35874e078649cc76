import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Role } from '../kyc/api.ts';
import type { LookupKind } from '../kyc/lookup.ts';

/** One line per lookup: who looked up which id, and what came of it. Never a key, never candidate data. */
export interface AuditEntry {
  time: string;
  user: string;
  role: Role;
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
}

export interface AuditLog {
  /** Resolves once the line is on disk; rejects if it could not be written (the lookup is then refused). */
  record(entry: AuditEntry): Promise<void>;
}

export function createAuditLog(file: string): AuditLog {
  let directoryReady: Promise<unknown> | undefined;
  // Lines are appended one after the other, in the order lookups finished.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    record(entry) {
      directoryReady ??= mkdir(path.dirname(path.resolve(file)), { recursive: true }).catch(() => {});
      const line = `${JSON.stringify({ ...entry, id: entry.id.length > 512 ? `${entry.id.slice(0, 512)}…` : entry.id })}\n`;
      const write = queue.then(() => directoryReady).then(() => appendFile(file, line, { mode: 0o600 }));
      queue = write.catch(() => {});
      return write;
    },
  };
}
