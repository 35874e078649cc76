import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineHash } from '../../src/server/audit/audit-chain.ts';
import type { AuditEntry } from '../../src/server/audit/audit.ts';
import { runAuditVerify } from '../../src/server/audit/audit-verify.ts';
import { auditFilesOf } from '../../src/server/trail/audit-files.ts';
import { createAuditStore } from '../../src/server/trail/audit-store.ts';
import { createChainWatch } from '../../src/server/trail/chain-watch.ts';
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

const tempFile = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-chain-')), 'audit.jsonl');
const linesOf = (file: string) => readFileSync(file, 'utf8').split('\n').slice(0, -1);
const writeLines = (file: string, lines: string[]) => writeFileSync(file, lines.map((line) => `${line}\n`).join(''));

/** `npm run audit:verify -- …files` in-process: exit code and what it printed. */
function verify(...files: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = runAuditVerify(
    files,
    (line) => out.push(line),
    (line) => err.push(line),
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function writeIds(file: string, ids: string[]) {
  const log = createAuditLog(file);
  for (const id of ids) await log.record(entry(id));
  return log;
}

describe('the audit chain', () => {
  it('gives each line the SHA-256 of the line before it, the first saying it starts a chain', async () => {
    const file = tempFile();
    const log = createAuditLog(file);
    // Concurrent lines go out in one write: the chain must still follow their order in the file.
    await Promise.all(Array.from({ length: 50 }, (_, i) => log.record(entry(`id-${i}`))));
    const lines = linesOf(file);
    expect(lines).toHaveLength(50);
    expect(JSON.parse(lines[0]!).prev).toBe('start');
    for (let i = 1; i < lines.length; i++) expect(JSON.parse(lines[i]!).prev).toBe(lineHash(lines[i - 1]!));
    expect(lines[1]).toMatch(/^\{"prev":"[0-9a-f]{64}","time":/);
    expect(verify(file)).toEqual({ code: 0, out: '50 lines, chain intact', err: '' });
  });

  it('catches an edited line', async () => {
    const file = tempFile();
    await writeIds(file, ['a', 'b', 'c', 'd']);
    const lines = linesOf(file);
    lines[1] = lines[1]!.replace('"id":"b"', '"id":"x"');
    writeLines(file, lines);
    const result = verify(file);
    expect(result.code).toBe(1);
    // Named at the edited line, the first that cannot be vouched for; the line that noticed is shown under its own number.
    expect(result.err).toContain(`${file}:2: chain broken: line 2 was edited, or lines after it were deleted or inserted`);
    expect(result.err).toMatch(/ {2}line 3, which noticed: .*"id":"c"/);
    expect(result.err).toContain('1 line before it is intact.');
  });

  it('catches a deleted line', async () => {
    const file = tempFile();
    await writeIds(file, ['a', 'b', 'c', 'd']);
    const lines = linesOf(file);
    lines.splice(2, 1);
    writeLines(file, lines);
    const result = verify(file);
    expect(result.code).toBe(1);
    expect(result.err).toContain(`${file}:2: chain broken`);
    expect(result.err).toMatch(/ {2}line 2: .*"id":"b"/);
    expect(result.err).toMatch(/ {2}line 3, which noticed: .*"id":"d"/);
  });

  it("quotes the text of the line it names, not the next line's under its number (an edited line 2 was quoted with line 3's text)", async () => {
    const file = tempFile();
    await writeIds(file, ['a', 'b', 'c', 'd']);
    const lines = linesOf(file);
    lines[1] = lines[1]!.replace('"id":"b"', '"id":"x"');
    writeLines(file, lines);
    const err = verify(file).err.split('\n');
    expect(err[0]).toBe(
      `${file}:2: chain broken: line 2 was edited, or lines after it were deleted or inserted (the "prev" of line 3 is not its hash)`,
    );
    // Line 2 as it is now (the edit shows), then line 3, which noticed, under its own number.
    expect(err[1]).toBe(`  line 2: ${lines[1]}`);
    expect(err[2]).toBe(`  line 3, which noticed: ${lines[2]}`);
    expect(err[3]).toBe('1 line before it is intact.');
    // A line that broke the chain by itself is the line named: quoted once.
    writeLines(file, [...linesOf(file).slice(0, 1), 'not json', ...lines.slice(2)]);
    expect(verify(file).err.split('\n').slice(1)).toEqual(['  line 2: not json', '1 line before it is intact.']);
  });

  it('catches an inserted line, even one that chains from the line before it', async () => {
    const file = tempFile();
    await writeIds(file, ['a', 'b', 'c']);
    const lines = linesOf(file);
    const forged = JSON.stringify({ prev: lineHash(lines[0]!), ...entry('forged') });
    lines.splice(1, 0, forged);
    writeLines(file, lines);
    const result = verify(file);
    expect(result.code).toBe(1);
    expect(result.err).toContain(`${file}:2: chain broken`);
  });

  it('catches a line that claims to start a new chain in the middle of a file, and a line without prev', async () => {
    const file = tempFile();
    await writeIds(file, ['a', 'b', 'c']);
    const lines = linesOf(file);
    writeLines(file, [lines[0]!, JSON.stringify({ prev: 'start', ...entry('b') }), lines[2]!]);
    expect(verify(file).err).toContain(`${file}:2: chain broken: starts a new chain in the middle of a file`);
    writeLines(file, [lines[0]!, JSON.stringify(entry('b')), lines[2]!]);
    expect(verify(file).err).toContain(`${file}:2: chain broken: not an audit line with "prev"`);
  });

  it('keeps the chain across a rotated file, and catches a line deleted from the end of the rotated file', async () => {
    const file = tempFile();
    const log = await writeIds(file, ['a', 'b']);
    renameSync(file, `${file}.1`);
    await withClockAhead(1100, () => log.record(entry('c'))); // the writer checks for rotation each second
    await log.record(entry('d'));
    expect(JSON.parse(linesOf(file)[0]!).prev).toBe(lineHash(linesOf(`${file}.1`)[1]!));
    expect(verify(`${file}.1`, file)).toEqual({ code: 0, out: '4 lines, chain intact', err: '' });

    writeLines(`${file}.1`, linesOf(`${file}.1`).slice(0, 1));
    const result = verify(`${file}.1`, file);
    expect(result.code).toBe(1);
    expect(result.err).toContain(`${file}:1: chain broken: "prev" is not the hash of the last line of ${file}.1`);
  });

  it('keeps the chain across copy-and-truncate rotation', async () => {
    const file = tempFile();
    const log = await writeIds(file, ['a', 'b']);
    copyFileSync(file, `${file}.1`);
    truncateSync(file, 0);
    await log.record(entry('c'));
    expect(verify(`${file}.1`, file)).toEqual({ code: 0, out: '3 lines, chain intact', err: '' });
  });

  it('continues the chain of an existing file after a restart, and says when a new file starts a new one', async () => {
    const file = tempFile();
    await writeIds(file, ['a', 'b']);
    await writeIds(file, ['c']); // a new process: the head is read from the file's last line
    expect(verify(file)).toEqual({ code: 0, out: '3 lines, chain intact', err: '' });

    renameSync(file, `${file}.1`);
    await writeIds(file, ['d']); // restarted after rotation: the rotated file's last hash is not known
    expect(JSON.parse(linesOf(file)[0]!).prev).toBe('start');
    const result = verify(`${file}.1`, file);
    expect(result.code).toBe(0);
    expect(result.out).toBe(
      `note: ${file} starts a new chain (the last hash of ${file}.1 was not known to the writer)\n4 lines, chain intact`,
    );
  });

  it('reports a line left incomplete by a crash instead of chaining over it silently', async () => {
    const file = tempFile();
    await writeIds(file, ['a', 'b']);
    appendFileSync(file, '{"prev":"abc","time":"2026-'); // a write cut short
    expect(verify(file)).toMatchObject({ code: 1, err: expect.stringContaining(`${file}:3: chain broken: the line is incomplete`) });
    await writeIds(file, ['c']); // the next line starts on a fresh line and chains from the fragment
    const lines = linesOf(file);
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[3]!).prev).toBe(lineHash(lines[2]!));
    expect(verify(file)).toMatchObject({ code: 1, err: expect.stringContaining(`${file}:3: chain broken: not an audit line`) });
  });

  it('reads a long file from its end to find the head', async () => {
    const file = tempFile();
    await writeIds(
      file,
      Array.from({ length: 300 }, (_, i) => `${i}-${'x'.repeat(500)}`),
    );
    await writeIds(file, ['last']);
    expect(verify(file)).toEqual({ code: 0, out: '301 lines, chain intact', err: '' });
  });

  it('says how to use it, and names a file it cannot read', () => {
    expect(verify()).toMatchObject({
      code: 2,
      err: expect.stringContaining('usage: npm run audit:verify -- [--continues-earlier-file] <file>'),
    });
    expect(verify('/nonexistent/audit.jsonl')).toMatchObject({ code: 2, err: 'Cannot read /nonexistent/audit.jsonl: ENOENT' });
  });
});

describe('attack: an audit file with its first lines cut', () => {
  it('is refused unless the operator says it continues a rotated file, which is then accepted', async () => {
    const file = tempFile();
    await writeIds(file, ['a', 'b', 'c', 'd']);
    writeLines(file, linesOf(file).slice(2));
    const cut = verify(file);
    expect(cut.code).toBe(1);
    expect(cut.err).toContain(`${file}:1: chain broken: the first line does not start a chain`);
    expect(cut.err).toContain('--continues-earlier-file');
    expect(cut.out).not.toContain('chain intact');

    // The rotated file is gone, and the operator says so: accepted, with what could not be checked.
    const told = verify('--continues-earlier-file', file);
    expect(told.code).toBe(0);
    expect(told.out).toBe(
      `note: ${file}:1 continues an earlier file that was not given (--continues-earlier-file): lines cut from its start cannot be seen\n2 lines, chain intact`,
    );
  });

  it('accepts a rotated pair given in order without the flag, and still catches a line cut from the start of the first', async () => {
    const file = tempFile();
    const log = await writeIds(file, ['a', 'b', 'c']);
    copyFileSync(file, `${file}.1`);
    truncateSync(file, 0);
    await log.record(entry('d'));
    expect(verify(`${file}.1`, file)).toEqual({ code: 0, out: '4 lines, chain intact', err: '' });

    writeLines(`${file}.1`, linesOf(`${file}.1`).slice(1));
    expect(verify(`${file}.1`, file)).toMatchObject({ code: 1, err: expect.stringContaining(`${file}.1:1: chain broken: the first line`) });
    expect(verify('--continues-earlier-file', `${file}.1`, file)).toMatchObject({
      code: 0,
      out: expect.stringContaining('3 lines, chain intact'),
    });
  });

  it('says how to use it when given an option it does not know', () => {
    expect(verify('--continue', 'audit.jsonl')).toMatchObject({ code: 2, err: expect.stringContaining('unknown option --continue') });
    expect(verify('--continues-earlier-file')).toMatchObject({ code: 2, err: expect.stringContaining('usage:') });
  });
});

describe("the audit page's chain state across a rotation", () => {
  it('names a file rotated since its last check by its name now, not by the current name it was checked under', async () => {
    const file = tempFile();
    const log = await writeIds(file, ['a', 'b']);
    const store = createAuditStore({ file, instance: 'app1', retentionDays: 365 });
    const before = await store.status();
    expect(before.instances[0]!.files.map((chain) => chain.file)).toEqual(['audit.jsonl']);
    // `mv audit.jsonl audit.jsonl.1` while running, then one lookup: the writer opens a new audit.jsonl.
    renameSync(file, `${file}.1`);
    await withClockAhead(1100, () => log.record(entry('c'))); // the writer checks for rotation each second
    const after = await store.status();
    expect(after.instances[0]!.files.map((chain) => [chain.file, chain.lines, chain.intact])).toEqual([
      ['audit.jsonl', 1, true],
      ['audit.jsonl.1', 2, true],
    ]);
    await store.close();
  });
});

describe("the chain watch's file names", () => {
  it('property: after any writes and logrotate-style rotations, each checked file is listed under its name in the directory now', async () => {
    const step = fc.constantFrom('write', 'rotate', 'check');
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const file = tempFile();
        const watch = createChainWatch(file);
        let written = 0;
        for (const what of [...steps, 'check' as const]) {
          if (what === 'write') appendFileSync(file, `${JSON.stringify({ ...entry(String(written++)), prev: null })}\n`);
          if (what === 'rotate') rotate(file);
          if (what !== 'check') continue;
          const names = (await auditFilesOf(file)).map((found) => found.name);
          expect((await watch.check()).map((chain) => chain.file)).toEqual(names);
        }
      }),
      { numRuns: 40 },
    );
  });
});

/** What logrotate does: audit.jsonl.2 to .3, .1 to .2, the current file to .1 (the next write makes a new one). */
function rotate(file: string) {
  for (let n = 8; n >= 1; n--) if (existsSync(`${file}.${n}`)) renameSync(`${file}.${n}`, `${file}.${n + 1}`);
  if (existsSync(file)) renameSync(file, `${file}.1`);
}
