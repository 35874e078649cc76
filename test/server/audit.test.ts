import { mkdtempSync, readdirSync, readFileSync, readlinkSync, renameSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApiFromConfig } from '../../src/server/composition/api.ts';
import { createAppServer } from '../../src/server/composition/app-server.ts';
import { type AuditEntry, createAuditLog as openAuditLog } from '../../src/server/audit/audit.ts';
import { parseConfig } from '../../src/server/config/config.ts';
import { listen, rawRequest, testEnvironment } from './http.ts';
import { auditLogsClosedAfterEach } from './audit-logs.ts';
import { withClockAhead } from './clock.ts';

const entry = (id: string): AuditEntry => ({
  time: new Date().toISOString(),
  user: 'ana',
  role: 'compliance',
  env: 'default',
  kind: 'refId',
  id,
  status: 200,
  code: null,
  upstreamStatus: 200,
  level: 'full',
  durationMs: 3,
});
const createAuditLog = auditLogsClosedAfterEach();

/** Whether this process holds a descriptor open on `file` (Linux's /proc). */
const isOpen = (file: string) =>
  readdirSync('/proc/self/fd').some((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false; // closed meanwhile
    }
  });

const ids = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as AuditEntry).id);

describe('audit log', () => {
  it('writes every line of many concurrent lookups, whole, each promise resolving after its line', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-audit-')), 'nested/dir/audit.jsonl');
    const log = createAuditLog(file);
    await Promise.all(Array.from({ length: 500 }, (_, i) => log.record(entry(`id-${i}`))));
    expect(ids(file).sort()).toEqual(Array.from({ length: 500 }, (_, i) => `id-${i}`).sort());
  });

  it('cuts ids at 256 characters, counting a character beyond U+FFFF as one and never splitting it', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-audit-')), 'audit.jsonl');
    const log = createAuditLog(file);
    await log.record(entry('x'.repeat(10_000)));
    await log.record(entry('😀'.repeat(300)));
    await log.record(entry('😀'.repeat(256)));
    expect(ids(file)).toEqual([`${'x'.repeat(256)}…`, `${'😀'.repeat(256)}…`, '😀'.repeat(256)]);
  });

  it('follows the path after the file is rotated away', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-audit-'));
    const file = path.join(dir, 'audit.jsonl');
    const log = createAuditLog(file);
    await log.record(entry('before'));
    renameSync(file, path.join(dir, 'audit.jsonl.1'));
    // The writer checks for rotation once a second: a second later by its clock, it opens the path again.
    await withClockAhead(1100, () => log.record(entry('after')));
    expect(ids(file)).toEqual(['after']);
    expect(ids(path.join(dir, 'audit.jsonl.1'))).toEqual(['before']);
  });

  it('rejects when the line cannot be written', async () => {
    await expect(createAuditLog('/dev/full').record(entry('x'))).rejects.toThrow(/ENOSPC/);
  });

  it('writes every line queued when it is closed before the close resolves, then refuses new lines', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-audit-')), 'audit.jsonl');
    const log = openAuditLog(file);
    // Queued, not awaited: the first write is under way and the rest wait for it, as at shutdown.
    const written = Array.from({ length: 200 }, (_, i) => log.record(entry(`id-${i}`)));
    await log.close();
    expect(isOpen(file)).toBe(false);
    expect(ids(file)).toEqual(Array.from({ length: 200 }, (_, i) => `id-${i}`));
    await expect(Promise.all(written)).resolves.toBeDefined();
    await expect(log.record(entry('late'))).rejects.toThrow(/closed/);
    expect(ids(file)).toHaveLength(200);
    await log.close(); // a second close is harmless
  });

  it("is closed by the API's close() when the server stops, after the counted refusals are written", async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-audit-')), 'audit.jsonl');
    const config = parseConfig({ AUDIT_LOG: file }, { limits: { lookupsPerMinute: 1 } });
    const upstream = {
      environments: [testEnvironment({ baseUrl: 'http://127.0.0.1:9', clientId: 'c', apiKey: 'k' })],
      banner: [],
      close: async () => {},
    };
    const api = createApiFromConfig(config, upstream, { queueCrawl: { start: false } });
    const server = await listen(createAppServer({ api: api.handler, staticDir: 'public' }));
    // One invalid id within the limit, one refused over it (its own line), three counted in one line.
    for (let i = 0; i < 5; i++) await rawRequest(server.port, '/api/candidates/refId/%00');
    await server.close();
    expect(ids(file)).toHaveLength(2);
    expect(isOpen(file)).toBe(true);
    await api.close();
    expect(isOpen(file)).toBe(false);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.code ?? line.kind)).toEqual(['invalid_id', 'rate_limited', 'refusals']);
    expect(lines[2]).toMatchObject({ count: 3 });
  });
});
