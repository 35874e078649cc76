import type { AuditEntry, AuditLog, ListAuditEntry, RefusalsAuditEntry } from './audit.ts';

/**
 * Refusals that repeat (a user over their rate limit, again and again) are counted, not written one
 * line each: the first refusal of a user in an interval gets its own line, the ones after it in that
 * interval become one line `kind: "refusals"` with their count, written when the interval ends. A
 * flood of refused requests then costs the audit log two lines a minute, not one per request.
 */
/** A refused lookup, batch or page of the applicants list. */
export type RefusedEntry = AuditEntry | ListAuditEntry;

export interface RefusalLog {
  /** Resolves when the refusal is recorded: written (the first of its interval) or counted. */
  refused(entry: RefusedEntry): Promise<void>;
  /** Writes the counted lines now (a server that stops). */
  flush(): Promise<void>;
}

/** One line of counted refusals per user and environment per minute, at most. */
export const REFUSAL_INTERVAL_MS = 60_000;

interface Window {
  first: RefusedEntry;
  counted?: RefusalsAuditEntry;
  timer: NodeJS.Timeout;
}

export function createRefusalLog(audit: AuditLog | undefined, intervalMs = REFUSAL_INTERVAL_MS): RefusalLog {
  const windows = new Map<string, Window>();

  function close(key: string): Promise<void> {
    const window = windows.get(key);
    if (!window) return Promise.resolve();
    windows.delete(key);
    clearTimeout(window.timer);
    // Best effort: nobody waits for this line, and the next refusal opens a new window with a line.
    if (!window.counted || !audit) return Promise.resolve();
    return audit.record({ ...window.counted, time: new Date().toISOString() }).catch(() => {});
  }

  return {
    refused(entry) {
      if (!audit) return Promise.resolve();
      const key = JSON.stringify([entry.user, entry.env]);
      const window = windows.get(key);
      if (!window) {
        const timer = setTimeout(() => void close(key), intervalMs);
        timer.unref();
        windows.set(key, { first: entry, timer });
        return audit.record(entry).catch((error: unknown) => {
          // Not written: the next refusal tries to write its own line.
          windows.delete(key);
          clearTimeout(timer);
          throw error;
        });
      }
      window.counted ??= {
        time: entry.time,
        user: entry.user,
        role: entry.role,
        env: entry.env,
        kind: 'refusals',
        count: 0,
        codes: {},
        from: entry.time,
        to: entry.time,
      };
      const counted = window.counted;
      counted.count += 1;
      const code = entry.code ?? String(entry.status);
      counted.codes[code] = (counted.codes[code] ?? 0) + 1;
      counted.to = entry.time;
      return Promise.resolve();
    },
    async flush() {
      await Promise.all([...windows.keys()].map(close));
    },
  };
}
