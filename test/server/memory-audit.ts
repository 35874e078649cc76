import type { AuditLine, AuditLog } from '../../src/server/audit/audit.ts';

/** An audit log held in memory, for tests that do not read the file: the API takes none without a log. */
export function memoryAuditLog(): AuditLog & { lines: AuditLine[] } {
  const lines: AuditLine[] = [];
  return { lines, record: async (entry) => void lines.push(entry), available: () => true };
}
