import { mkdtempSync, readFileSync, renameSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAuditLog, type AuditEntry } from '../../src/server/audit.ts';

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
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await log.record(entry('after'));
    expect(ids(file)).toEqual(['after']);
    expect(ids(path.join(dir, 'audit.jsonl.1'))).toEqual(['before']);
  });

  it('rejects when the line cannot be written', async () => {
    await expect(createAuditLog('/dev/full').record(entry('x'))).rejects.toThrow(/ENOSPC/);
  });
});
