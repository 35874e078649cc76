import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_PATHS, type AuditSearchAnswer } from '../../src/kyc/contract/audit-search.ts';
import type { AuditStatus } from '../../src/kyc/contract/audit-status.ts';
import { chainLines, lineHash } from '../../src/server/audit/audit-chain.ts';
import { createAuditLog } from '../../src/server/audit/audit.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { createAuditStore } from '../../src/server/trail/audit-store.ts';
import { requestWithBody, startTestApp, testEnvironment } from './http.ts';
import { hasPostgres, NO_POSTGRES_MESSAGE, queryOf, type RunningPostgres, startPostgres } from './postgres-fixture.ts';

/**
 * What the chain check costs a search of the audit page. Every search writes its own line, so the current
 * file has always grown since the last check: a file broken near its end was hashed from its first byte
 * on every search (a second of the server's time for 50 MB). Counted in bytes hashed, never in time.
 */
const LEAD = { 'x-user': 'lena', 'x-role': 'lead' };
const FULL_CHECK_MS = 10 * 60_000;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
let postgres: RunningPostgres | undefined;
beforeAll(async () => {
  if (hasPostgres) postgres = await startPostgres();
});
afterAll(() => postgres?.destroy());

/** An audit file of `count` chained lookup lines, the one at `edited` (0-based) changed afterwards: the chain breaks there. */
function brokenFile(count: number, edited: number): { file: string; lines: string[] } {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-chain-cost-')), 'audit.jsonl');
  const start = Date.parse('2026-11-01T00:00:00.000Z');
  const bodies = Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      time: new Date(start + i * 1000).toISOString(),
      user: 'ana',
      role: 'compliance',
      env: 'default',
      kind: 'refId',
      id: `ref-${String(i).padStart(6, '0')}`,
      status: 200,
      code: null,
      level: 'full',
      durationMs: 3,
    }),
  );
  const { lines } = chainLines(bodies, undefined);
  lines[edited] = lines[edited]!.replace('"user":"ana"', '"user":"bob"');
  writeFileSync(file, lines.map((line) => `${line}\n`).join(''));
  return { file, lines };
}

/**
 * A gateway app reading `file` as its audit log and trail (the table at `databaseUrl`, once it holds the
 * file's `lines`), counting the bytes its chain checks hash.
 */
async function appOn(file: string, now: () => number, databaseUrl?: string, lines = 0) {
  const counted = { hashed: 0 };
  const audit = createAuditLog(file);
  const trail = createAuditStore({
    file,
    instance: 'app1',
    retentionDays: 36_500,
    now,
    fullCheckMs: FULL_CHECK_MS,
    onChainHashed: (bytes) => {
      counted.hashed += bytes;
    },
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  const app = await startTestApp({
    environments: [testEnvironment({ baseUrl: 'http://127.0.0.1:9', clientId: 'c', apiKey: 'k' })],
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
    audit,
    trail,
  });
  cleanups.push(
    () => trail.close(),
    () => app.close(),
  );
  if (databaseUrl) {
    const count = async () => Number((await queryOf<{ n: string }>(databaseUrl, 'SELECT count(*) AS n FROM candidate_lookup_audit'))[0]!.n);
    await expect.poll(() => count().catch(() => 0), { timeout: 30_000 }).toBeGreaterThanOrEqual(lines);
  }
  const search = async (): Promise<AuditSearchAnswer> => {
    const res = await requestWithBody(app.port, AUDIT_PATHS.search, JSON.stringify({ limit: 200 }), { headers: LEAD });
    expect(res.status, res.body).toBe(200);
    return JSON.parse(res.body) as AuditSearchAnswer;
  };
  const status = async (): Promise<AuditStatus> => {
    const res = await app.get(AUDIT_PATHS.status, LEAD);
    expect(res.status, res.body).toBe(200);
    return JSON.parse(res.body) as AuditStatus;
  };
  return { counted, search, status };
}

/** Each of the file's lines among the rows, by its hash: whether the search marked it. */
function marksOf(answer: AuditSearchAnswer, lines: string[]): Array<boolean | undefined> {
  const marked = new Map(answer.rows.map((row) => [row.hash, row.unvouched === true]));
  return lines.map((line) => marked.get(lineHash(line)));
}

/** The file's chain as the status reports it, without when it was checked. */
function chainOf(status: AuditStatus) {
  return status.instances[0]!.files.map(({ checkedAt: _, ...chain }) => chain);
}

/** Searches of a file broken near its end, the trail read from the files or (`databaseUrl`) the table. */
async function searchesOnBrokenFile(databaseUrl?: string): Promise<void> {
  const { file, lines } = brokenFile(4000, 3990);
  const breakAt = lines.slice(0, 3990).reduce((bytes, line) => bytes + line.length + 1, 0);
  const { counted, search, status } = await appOn(file, Date.now, databaseUrl, lines.length);

  const first = await search();
  // The first check reads up to the break: the whole file but its last few lines.
  expect(counted.hashed).toBeGreaterThan(breakAt);
  // The last 150 lines: those before the edited one vouched for, it and those after it marked.
  const marks = marksOf(first, lines.slice(3850));
  expect(marks).toEqual([...Array<boolean>(140).fill(false), ...Array<boolean>(10).fill(true)]);
  const chain = chainOf(await status());
  expect(chain).toMatchObject([{ intact: false, lines: 3990, broken: { line: 3991 } }]);

  for (let i = 0; i < 5; i++) {
    const hashedBefore = counted.hashed;
    const sizeBefore = statSync(file).size;
    const answer = await search();
    // At most what was added since (each search's own line): never the lines up to the break again.
    expect(counted.hashed - hashedBefore).toBeLessThanOrEqual(statSync(file).size - sizeBefore);
    // The rows are marked as the first search marked them, and the newest (searches' lines) too.
    expect(marksOf(answer, lines.slice(3850))).toEqual(marks);
    expect(answer.rows.slice(0, i + 2).every((row) => row.unvouched === true)).toBe(true);
  }
  expect(chainOf(await status())).toEqual(chain);
}

describe('the chain check of a broken audit file', () => {
  it('attack: audit searches on a file broken near its end re-hash the whole file each time', async () => {
    await searchesOnBrokenFile();
  });

  it('reads a broken file whole again at the full check, and when the lines up to its break changed, then names the earlier break', async () => {
    const { file, lines } = brokenFile(300, 290);
    let clock = Date.parse('2026-11-30T10:00:00.000Z');
    const { counted, search, status } = await appOn(file, () => clock);
    await search();
    const breakAt = lines.slice(0, 290).reduce((bytes, line) => bytes + line.length + 1, 0);

    // The full check, every FULL_CHECK_MS: the lines before the break are read again.
    clock += FULL_CHECK_MS;
    let hashedBefore = counted.hashed;
    await search();
    expect(counted.hashed - hashedBefore).toBeGreaterThan(breakAt);
    expect(chainOf(await status())).toMatchObject([{ intact: false, broken: { line: 291 } }]);

    // A line before the break edited, one character longer: the line that noticed the break is no longer where it was.
    writeFileSync(file, readFileSync(file, 'utf8').replace(lines[100]!, lines[100]!.replace('"user":"ana"', '"user":"anna"')));
    hashedBefore = counted.hashed;
    const answer = await search();
    expect(counted.hashed - hashedBefore).toBeGreaterThan(0);
    expect(chainOf(await status())).toMatchObject([{ intact: false, lines: 100, broken: { line: 101 } }]);
    expect(marksOf(answer, lines.slice(150, 160)).every((mark) => mark === true)).toBe(true);
  });

  it('reads a broken file whole again when a line before its break was edited to the same length, the file no longer', async () => {
    const { file, lines } = brokenFile(300, 290);
    const { search, status } = await appOn(file, Date.now);
    await search();
    expect(chainOf(await status())).toMatchObject([{ intact: false, broken: { line: 291 } }]);
    // The same length: the line that noticed the break still ends where it did, with its hash (the review found
    // the break kept at 291 and lines 150 to 159 vouched for until the full check).
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace(lines[100]!, lines[100]!.replace('"user":"ana"', '"user":"eve"')));
    expect(statSync(file).size).toBe(Buffer.byteLength(text));
    const answer = await search();
    expect(chainOf(await status())).toMatchObject([{ intact: false, lines: 100, broken: { line: 101 } }]);
    expect(marksOf(answer, lines.slice(150, 160)).every((mark) => mark === true)).toBe(true);
  });
});

describe.skipIf(!hasPostgres)(`the chain check with the table in PostgreSQL${hasPostgres ? '' : ` (${NO_POSTGRES_MESSAGE})`}`, () => {
  it('attack: audit searches on a file broken near its end re-hash the whole file each time (the table marks the rows)', async () => {
    await searchesOnBrokenFile(await postgres!.database());
  }, 60_000);
});
