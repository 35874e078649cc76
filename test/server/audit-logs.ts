import { readFileSync } from 'node:fs';
import { afterEach } from 'vitest';
import { type AuditEntry, type AuditLogOptions, type ClosableAuditLog, createAuditLog } from '../../src/server/audit/audit.ts';

/**
 * createAuditLog for a test file: each log made with it is closed after its test, as the server closes
 * its own when it stops (a file handle left to the garbage collector is Node's DEP0137 warning).
 */
export function auditLogsClosedAfterEach(): (file: string, options?: AuditLogOptions) => ClosableAuditLog {
  const opened: ClosableAuditLog[] = [];
  afterEach(async () => {
    for (const log of opened.splice(0)) await log.close();
  });
  return (file, options) => {
    const log = createAuditLog(file, options);
    opened.push(log);
    return log;
  };
}

/** The lookups' lines of an audit file, parsed. */
export function readAuditFile(file: string): AuditEntry[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as AuditEntry);
}
