import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineHash } from '../../src/server/audit/audit-chain.ts';
import type { Environment } from '../../src/server/config/config.ts';
import { runAuditImport } from '../../src/server/trail/audit-import.ts';
import { as, gatewayInstance, lookUp, searchAll } from './audit-trail-helpers.ts';
import type { Instance } from './instance.ts';
import { hasPostgres, NO_POSTGRES_MESSAGE, queryOf } from './postgres-fixture.ts';
import { candidates, sandboxAndPostgres } from './queue-view-fixture.ts';

/**
 * `npm run audit:import --instance <name> <file>…` checks the files' hash chain as it reads them
 * (chain-read.ts's readChain, as the audit page checks this instance's files): what the chain vouches for
 * is imported, and at a break it stops, says which file, which line and why, and exits 1. Nothing else
 * would mark an imported instance's rows after the break: no instance of that name reports its chain.
 */
const amelie = candidates[0]!.record;
const ANA = as('ana', 'compliance');

const fixture = sandboxAndPostgres();
const instances = fixture.closing;

async function instance(env: Environment): Promise<Instance> {
  const started = await gatewayInstance(fixture.sandbox(), env);
  instances.push(started);
  return started;
}

/** Another instance's audit file: `lookups` lookups by Ana (each its line and its closing line), the lines as text. */
async function anotherInstancesLines(lookups: number): Promise<string[]> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-import-')), 'audit.jsonl');
  const writer = await gatewayInstance(fixture.sandbox(), { AUDIT_LOG: file });
  try {
    for (let i = 0; i < lookups; i++) expect((await lookUp(writer, amelie.refId!, ANA)).status).toBe(200);
  } finally {
    await writer.close();
  }
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

/** The lines written to files of their own in a folder of their own, each file's lines given; their paths, oldest first. */
function filesOf(...files: string[][]): string[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-import-copy-'));
  return files.map((lines, index) => {
    const name = path.join(dir, `audit.jsonl.${files.length - index}`);
    writeFileSync(name, lines.map((line) => `${line}\n`).join(''));
    return name;
  });
}

async function importFiles(url: string, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const env = { DATABASE_URL: url, AUDIT_LOG: path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-import-own-')), 'audit.jsonl') };
  const code = await runAuditImport(
    args,
    env,
    '/nonexistent',
    (line) => out.push(line),
    (line) => err.push(line),
  );
  return { code, out, err };
}

const hashesOf = async (url: string, name: string) =>
  (await queryOf<{ hash: string }>(url, 'SELECT hash FROM candidate_lookup_audit WHERE instance = $1 ORDER BY seq', [name])).map(
    (row) => row.hash,
  );

describe.skipIf(!hasPostgres)(
  `audit:import checks the chain of the files it imports${hasPostgres ? '' : ` (${NO_POSTGRES_MESSAGE})`}`,
  () => {
    it("attack: an edited line in another instance's audit file is imported as vouched for", async () => {
      // Three lookups (six lines); the second lookup's line (the third) made to say Zoe looked, not Ana.
      const lines = await anotherInstancesLines(3);
      expect(lines[2]).toContain('"user":"ana"');
      const edited = lines.map((line, index) => (index === 2 ? line.replace('"user":"ana"', '"user":"zoe"') : line));
      const [file] = filesOf(edited);
      const url = await fixture.database();
      const run = await importFiles(url, ['--instance', 'old-box', file!]);
      // What the chain vouches for went in: the two lines before the edited one, and nothing from it on.
      expect(await hashesOf(url, 'old-box')).toEqual(edited.slice(0, 2).map((line) => lineHash(line)));
      expect(run.err).toEqual([
        `${file}: the hash chain breaks at line 3: line 3 was edited, or lines after it were deleted or inserted (the "prev" of line 4 is not its hash)`,
        `Imported what the chain vouches for, up to line 2 of ${file}; nothing after it, in that file or in the files after it.`,
        `The lines after the break are not in the table: npm run audit:verify -- ${file} quotes the line; import them from an intact copy, or leave them out.`,
      ]);
      expect(run.code).toBe(1);
      // The audit page of any instance on the table shows Ana's first lookup, vouched for, and no lookup by Zoe at all.
      const app = await instance({ DATABASE_URL: url, AUDIT_INSTANCE: 'app1' });
      const rows = (await searchAll(app, { action: 'lookup' })).filter((row) => row.instance === 'old-box');
      expect(rows.map((row) => [row.user, row.unvouched ?? false])).toEqual([['ana', false]]);
    }, 60_000);

    it("a rotated file's last line edited, noticed by the next file's first: imported up to the line before it, nothing of the next file", async () => {
      // Four lookups (eight lines) as two files, five lines and three; the fifth line, the first file's last, edited.
      const lines = await anotherInstancesLines(4);
      const edited = lines.map((line, index) => (index === 4 ? line.replace('"user":"ana"', '"user":"zoe"') : line));
      const [older, newer] = filesOf(edited.slice(0, 5), edited.slice(5));
      const url = await fixture.database();
      const run = await importFiles(url, ['--instance', 'old-box', older!, newer!]);
      expect(await hashesOf(url, 'old-box')).toEqual(edited.slice(0, 4).map((line) => lineHash(line)));
      expect(run.err[0]).toBe(
        `${newer}: the hash chain breaks at line 1: "prev" is not the hash of the last line of ${older}: a line was edited, deleted or inserted at the end of that file, or a file is missing or out of order`,
      );
      expect(run.err[1]).toBe(
        `Imported what the chain vouches for, up to line 4 of ${older}; nothing after it, in that file or in the files after it.`,
      );
      expect(run.out[0]).toBe('4 lines read, 4 new to the table, 0 there already or past the retention');
      expect(run.code).toBe(1);
    }, 60_000);

    it('intact files are imported whole, exit 0; a first file that continues a gone one is refused unless said so, as audit:verify', async () => {
      const lines = await anotherInstancesLines(3);
      const [older, newer] = filesOf(lines.slice(0, 4), lines.slice(4));
      const url = await fixture.database();
      const whole = await importFiles(url, ['--instance', 'old-box', older!, newer!]);
      expect([whole.code, whole.err]).toEqual([0, []]);
      expect(await hashesOf(url, 'old-box')).toEqual(lines.map((line) => lineHash(line)));
      // The newer file alone: its first line chains from a line not given.
      const other = await fixture.database();
      const cut = await importFiles(other, ['--instance', 'old-box', newer!]);
      expect(cut.code).toBe(1);
      expect(cut.err[0]).toContain(`${newer}: the hash chain breaks at line 1: the first line does not start a chain`);
      expect(cut.err[1]).toBe(`Imported what the chain vouches for, the files before ${newer}; nothing of it or of the files after it.`);
      expect(await hashesOf(other, 'old-box')).toEqual([]);
      const said = await importFiles(other, ['--instance', 'old-box', '--continues-earlier-file', newer!]);
      expect([said.code, said.err]).toEqual([0, []]);
      expect(await hashesOf(other, 'old-box')).toEqual(lines.slice(4).map((line) => lineHash(line)));
    }, 60_000);

    it("--rebuild of this instance's own files takes every line, as its server's indexer does, and says the break the page marks", async () => {
      const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-import-own-')), 'audit.jsonl');
      const lines = await anotherInstancesLines(3);
      const edited = lines.map((line, index) => (index === 2 ? line.replace('"user":"ana"', '"user":"zoe"') : line));
      writeFileSync(file, edited.map((line) => `${line}\n`).join(''));
      const url = await fixture.database();
      const env = { DATABASE_URL: url, AUDIT_LOG: file, AUDIT_INSTANCE: 'app1' };
      const out: string[] = [];
      const err: string[] = [];
      const code = await runAuditImport(
        ['--rebuild'],
        env,
        '/nonexistent',
        (line) => out.push(line),
        (line) => err.push(line),
      );
      expect(await hashesOf(url, 'app1')).toEqual(edited.map((line) => lineHash(line)));
      expect(err).toEqual([
        'audit.jsonl: the hash chain breaks at line 3: line 3 was edited, or lines after it were deleted or inserted (the "prev" of line 4 is not its hash)',
        `The lines after it are in the table, as the server's indexer puts them there: the audit page marks them unvouched by instance "app1"'s own check of its files (its report to the table, at its start and every 30 s while it runs).`,
      ]);
      expect(code).toBe(1);
      // The instance that starts on those files marks Zoe's lookup and Ana's after it.
      const app = await instance(env);
      const rows = await searchAll(app, { action: 'lookup' });
      expect(rows.map((row) => [row.user, row.unvouched ?? false])).toEqual([
        ['ana', true],
        ['zoe', true],
        ['ana', false],
      ]);
    }, 60_000);
  },
);
