import { createHash } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SharedStore } from '../state/store.ts';

/**
 * Where a key seen to archive after extract is remembered, so that neither another instance nor a restart
 * looks with it again: the shared store (Redis with REDIS_URL), or a file beside the audit log. A finding
 * is named by its environment and a fingerprint of the key, never the key: a new key starts clean.
 */
export interface ArchivingFindings {
  /** Where a finding is kept, for the operator's log (never a password). */
  describe(name: string): string;
  /** When it was found (ISO 8601), or undefined; throws when it cannot be read. */
  read(name: string): Promise<string | undefined>;
  /** Records it unless it is there already (the first one stays): true when this call recorded it. */
  record(name: string, detectedAt: string): Promise<boolean>;
}

/** `archiving-key-<environment>-<16 hex digits of the key's SHA-256>`. */
export function findingName(environment: string, apiKey: string): string {
  const fingerprint = createHash('sha256').update(apiKey, 'utf8').digest('hex').slice(0, 16);
  return `archiving-key-${environment}-${fingerprint}`;
}

/** In the shared store, for good (no expiry: a finding that lapsed would cost another candidate). */
export function findingsInStore(store: SharedStore, describe: (name: string) => string): ArchivingFindings {
  return {
    describe,
    async read(name) {
      const value = await store.get(name);
      return value === undefined ? undefined : (detectedAtOf(value) ?? new Date(0).toISOString());
    },
    record: (name, detectedAt) => store.keep(name, JSON.stringify({ detectedAt })),
  };
}

/** How long a finding read from its file is believed before the file is looked at again (the operator's reset). */
const FILE_RECHECK_MS = 1000;

/**
 * One small file per finding in `dir` (the audit log's directory, which the server may write): the
 * file is the finding, its content only says when. Created exclusively, so the first one stays.
 *
 * Without Redis this process is the only one that writes it (several instances need REDIS_URL), so what
 * it read or wrote is kept in memory rather than read from the disk at every full lookup: a file not
 * there stays not there until this process records it, and one that is there is looked at again at most
 * once a second, so deleting it (the operator's reset) is seen at the next lookup after that.
 */
export function findingsInDirectory(dir: string, now: () => number = Date.now): ArchivingFindings {
  const file = (name: string) => path.join(dir, `${name}.json`);
  const known = new Map<string, { detectedAt: string | undefined; readAt: number }>();
  const readFromDisk = async (name: string): Promise<string | undefined> => {
    let text: string;
    try {
      text = await readFile(file(name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    // Caught while being written: there all the same.
    return detectedAtOf(text) ?? (await stat(file(name))).mtime.toISOString();
  };
  return {
    describe: (name) => `the file ${file(name)}`,
    async read(name) {
      const entry = known.get(name);
      if (entry && (entry.detectedAt === undefined || now() - entry.readAt < FILE_RECHECK_MS)) return entry.detectedAt;
      const detectedAt = await readFromDisk(name);
      known.set(name, { detectedAt, readAt: now() });
      return detectedAt;
    },
    async record(name, detectedAt) {
      try {
        await writeFile(file(name), `${JSON.stringify({ detectedAt })}\n`, { flag: 'wx', mode: 0o640 });
        known.set(name, { detectedAt, readAt: now() });
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        known.delete(name);
        return false;
      }
    },
  };
}

/** The time a finding holds; undefined when it says none (it is a finding all the same). */
function detectedAtOf(text: string): string | undefined {
  try {
    const { detectedAt } = JSON.parse(text) as { detectedAt?: unknown };
    if (typeof detectedAt === 'string' && !Number.isNaN(Date.parse(detectedAt))) return detectedAt;
  } catch {
    // Not what this server writes.
  }
  return undefined;
}
