import type { AuditEntry } from '../../src/server/audit/audit.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp } from './http.ts';
import { memoryAuditLog } from './memory-audit.ts';

/**
 * An app in front of a service that answers every lookup with `body` (its length given), users and roles
 * from the x-user and x-role headers, and the lookups' own audit lines: not the closing line of a full
 * answer read whole (its `held`), which says what it held. Both are closed by `cleanups`, which the test
 * file empties after each test.
 */
export async function answeringApp(body: string, cleanups: Array<() => Promise<void>>) {
  const upstream = await startFakeUpstream();
  upstream.behave = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const audit = memoryAuditLog();
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' },
    audit,
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
    settings: { keyArchivesOnExtract: 'accept' },
  });
  cleanups.push(app.close, upstream.close);
  const lookupLines = () =>
    audit.lines.filter((line): line is AuditEntry => (line.kind === 'refId' || line.kind === 'recordId') && !('held' in line));
  return { app, lookupLines };
}
