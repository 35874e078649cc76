import type { AuditEntry, AuditLog, ListAuditEntry, RefusalsAuditEntry, RefusedRequestAuditEntry } from './audit.ts';
import type { RefusedWebhookAuditEntry } from './webhook-lines.ts';

/**
 * Refusals that repeat (a user over their rate limit, again and again) are counted, not written one
 * line each: the first refusal of a user in an interval gets its own line, the ones after it in that
 * interval become one line `kind: "refusals"` with their count, written when the interval ends. A
 * flood of refused requests then costs the audit log two lines a minute, not one per request.
 */
/** A refused lookup, batch, export, page of the applicants list or webhook delivery; or a batch's invalid ids, counted. */
export type RefusedEntry = AuditEntry | ListAuditEntry | RefusedRequestAuditEntry | RefusalsAuditEntry | RefusedWebhookAuditEntry;

export interface RefusalLog {
  /** Resolves when the refusal is recorded: written (the first of its interval) or counted. */
  refused(entry: RefusedEntry): Promise<void>;
  /** Writes the counted lines now (a server that stops). */
  flush(): Promise<void>;
}

/** One line of counted refusals per user per minute, at most. */
export const REFUSAL_INTERVAL_MS = 60_000;

/**
 * A user's interval: counts only, never the refused requests themselves (their ids, environments and
 * paths are the user's text), so a window costs the same whatever was sent.
 */
interface Window {
  counted: Omit<RefusalsAuditEntry, 'time'>;
  timer: NodeJS.Timeout;
}

export function createRefusalLog(audit: AuditLog, intervalMs = REFUSAL_INTERVAL_MS): RefusalLog {
  // Keyed on the user alone: the environment, like the id, comes from the URL, and a new name for each
  // request would otherwise open a window, and write a line, for each.
  const windows = new Map<string, Window>();

  function close(user: string): Promise<void> {
    const window = windows.get(user);
    if (!window) return Promise.resolve();
    windows.delete(user);
    clearTimeout(window.timer);
    // Best effort: nobody waits for this line, and the next refusal opens a new window with a line.
    if (window.counted.count === 0) return Promise.resolve();
    return audit.record({ time: new Date().toISOString(), ...window.counted }).catch(() => {});
  }

  return {
    refused(entry) {
      const window = windows.get(entry.user);
      if (!window) {
        const timer = setTimeout(() => void close(entry.user), intervalMs);
        timer.unref();
        const role = 'role' in entry ? { role: entry.role } : {};
        const counted = { user: entry.user, ...role, kind: 'refusals' as const, count: 0, codes: {}, from: '', to: '' };
        windows.set(entry.user, { counted, timer });
        return audit.record(entry).catch((error: unknown) => {
          // Not written: the next refusal tries to write its own line.
          windows.delete(entry.user);
          clearTimeout(timer);
          throw error;
        });
      }
      addTo(window.counted, entry);
      return Promise.resolve();
    },
    async flush() {
      await Promise.all([...windows.keys()].map(close));
    },
  };
}

/** Adds a refusal to the interval's counts: one, or as many as a batch's counted line stands for. */
function addTo(counted: Window['counted'], entry: RefusedEntry): void {
  const codes = entry.kind === 'refusals' ? entry.codes : { [entry.code ?? String(entry.status)]: 1 };
  for (const [code, count] of Object.entries(codes)) {
    counted.codes[code] = (counted.codes[code] ?? 0) + count;
    counted.count += count;
  }
  if (counted.from === '') counted.from = entry.time;
  counted.to = entry.time;
}
