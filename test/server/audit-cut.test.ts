import { appendFileSync, mkdtempSync, readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineHash } from '../../src/server/audit/audit-chain.ts';
import { createAuditIndexer } from '../../src/server/trail/audit-indexer.ts';
import { searchTableMarked } from '../../src/server/trail/unvouched.ts';
import { createDatabase, migrate } from '../../src/server/state/postgres.ts';
import { runAuditVerify } from '../../src/server/audit/audit-verify.ts';
import { as, lookUp, search, status } from './audit-trail-helpers.ts';
import type { Instance } from './instance.ts';
import { hasPostgres, NO_POSTGRES_MESSAGE, queryOf } from './postgres-fixture.ts';
import { candidates, sandboxAndPostgres } from './queue-view-fixture.ts';

/**
 * Lines cut from the end of an audit file while its instance is stopped (a compliance lead's review): the
 * table had taken them, the file no longer has them, and after the restart the page said the file was
 * intact and listed their rows as vouched for. The indexer's saved progress proves the cut: it is kept in
 * the table as a lasting break, shown by the status and marking the rows the file lacks.
 */
const { instance, database, closing } = sandboxAndPostgres();
const [amelie, bruno] = [candidates[0]!.record, candidates[1]!.record];
const ANA = as('ana', 'compliance');
const BEN = as('ben', 'compliance');

const tableHashes = async (url: string, name: string) =>
  (await queryOf<{ hash: string }>(url, 'SELECT hash FROM candidate_lookup_audit WHERE instance = $1 ORDER BY seq', [name])).map(
    (row) => row.hash,
  );
const textLines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

async function stop(app: Instance): Promise<void> {
  closing.splice(closing.indexOf(app), 1);
  await app.close();
}

describe.skipIf(!hasPostgres)(`lines cut from the end of an audit file${hasPostgres ? '' : ` (${NO_POSTGRES_MESSAGE})`}`, () => {
  it('attack: lines cut from the end of an audit file while the instance is stopped are not vouched for after it starts', async () => {
    const url = await database();
    const env = { DATABASE_URL: url, AUDIT_INSTANCE: 'app2' };
    const first = await instance(env);
    const file = first.auditLog;
    for (let i = 0; i < 3; i++) expect((await lookUp(first, amelie.refId!, ANA)).status).toBe(200);
    const kept = textLines(file).length;
    for (let i = 0; i < 2; i++) expect((await lookUp(first, bruno.refId!, BEN)).status).toBe(200);
    expect((await lookUp(first, amelie.refId!, ANA)).status).toBe(200);
    await expect.poll(() => tableHashes(url, 'app2'), { timeout: 10_000 }).toEqual(textLines(file).map((line) => lineHash(line)));
    await stop(first);

    // `head -N`: the file keeps its first lines, bruno's two lookups and the one after them are gone.
    const lines = textLines(file);
    const cutBytes = Buffer.byteLength(
      lines
        .slice(kept)
        .map((line) => `${line}\n`)
        .join(''),
    );
    truncateSync(
      file,
      Buffer.byteLength(
        lines
          .slice(0, kept)
          .map((line) => `${line}\n`)
          .join(''),
      ),
    );
    expect(
      runAuditVerify(
        [file],
        () => {},
        () => {},
      ),
    ).toBe(0); // the files alone cannot tell

    const second = await instance({ ...env, AUDIT_LOG: file });
    const broken = async () => (await status(second)).instances.find((state) => state.instance === 'app2')!.files[0]!;
    await expect.poll(async () => (await broken()).intact, { timeout: 10_000 }).toBe(false);
    const chain = await broken();
    expect(chain).toMatchObject({ file: 'audit.jsonl', lines: kept, broken: { line: kept + 1 } });
    expect(chain.broken!.reason).toMatch(
      new RegExp(`^${cutBytes.toLocaleString('en')} bytes cut from the end after line ${kept}, found \\d{4}-`),
    );
    expect(chain.broken!.lastVouched?.hash).toBe(lineHash(lines[kept - 1]!));
    // Bruno's rows are the table's only: marked. Amelie's first three are still in the file; her last was cut.
    const brunos = await search(second, { refId: bruno.refId! });
    expect(brunos.source.kind).toBe('database');
    expect(brunos.rows.map((row) => row.unvouched ?? false)).toEqual([true, true]);
    const amelies = await search(second, { refId: amelie.refId! });
    expect(amelies.rows.map((row) => row.unvouched ?? false)).toEqual([true, false, false, false]);
    // Lines written after the restart chain on from the file's last line: vouched for.
    expect((await lookUp(second, amelie.refId!, ANA)).status).toBe(200);
    expect((await search(second, { refId: amelie.refId! })).rows.map((row) => row.unvouched ?? false)).toEqual([
      false,
      true,
      false,
      false,
      false,
    ]);
    await stop(second);

    // Lasting: a further restart still says it, and records it once.
    const third = await instance({ ...env, AUDIT_LOG: file });
    const again = (await status(third)).instances.find((state) => state.instance === 'app2')!.files[0]!;
    expect(again.broken?.reason).toBe(chain.broken!.reason);
    expect(await queryOf(url, 'SELECT after_line FROM candidate_lookup_audit_cuts')).toEqual([{ after_line: String(kept) }]);
  }, 60_000);

  it('property: after a cut, the rows marked unvouched are exactly those the file no longer has, however the file was cut', async () => {
    const url = await database();
    const db = createDatabase(url);
    await migrate(db);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-cut-'));
    let run = 0;
    const line = (name: string, i: number) =>
      JSON.stringify({
        prev: 'start',
        time: new Date(Date.now() - 60_000 + i).toISOString(),
        user: 'ana',
        env: 'default',
        kind: 'refId',
        id: `${name}-${i}`,
        status: 200,
      });
    const index = async (file: string, name: string) => {
      const indexer = createAuditIndexer(db, { file, instance: name, retentionDays: 365 });
      try {
        await indexer.syncNow();
      } finally {
        indexer.close();
      }
    };
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 12 }),
          fc.integer({ min: 0, max: 12 }),
          fc.integer({ min: 0, max: 4 }),
          fc.boolean(),
          async (n, keepAsked, added, replaced) => {
            const keep = keepAsked % n;
            // A new file holding none of the table's lines is what a rotation leaves when the old file is gone: read whole.
            fc.pre(!(replaced && keep === 0));
            const name = `i${++run}`;
            const file = path.join(dir, `${name}.jsonl`);
            const written = Array.from({ length: n }, (_, i) => line(name, i));
            writeFileSync(file, written.map((text) => `${text}\n`).join(''));
            await index(file, name);
            const after = Array.from({ length: added }, (_, i) => line(name, 100 + i));
            const left = [...written.slice(0, keep), ...after].map((text) => `${text}\n`).join('');
            if (replaced) {
              // `head -N audit.jsonl > cut && mv cut audit.jsonl`: a new inode.
              writeFileSync(`${file}.new`, left);
              renameSync(`${file}.new`, file);
            } else {
              truncateSync(
                file,
                Buffer.byteLength(
                  written
                    .slice(0, keep)
                    .map((text) => `${text}\n`)
                    .join(''),
                ),
              );
              appendFileSync(file, after.map((text) => `${text}\n`).join(''));
            }
            await index(file, name);
            await index(file, name);
            const { rows } = await searchTableMarked(db, {}, { limit: 200 }, new Map(), 365);
            const own = rows.filter((row) => row.instance === name);
            const marked = new Set(own.filter((row) => row.unvouched).map((row) => row.hash));
            expect(marked).toEqual(new Set(written.slice(keep).map((text) => lineHash(text))));
            expect(new Set(own.map((row) => row.hash))).toEqual(new Set([...written, ...after].map((text) => lineHash(text))));
            const cuts = await queryOf<{ after_line: string }>(
              url,
              'SELECT after_line FROM candidate_lookup_audit_cuts WHERE instance = $1',
              [name],
            );
            expect(cuts).toEqual([{ after_line: String(keep) }]);
          },
        ),
        { numRuns: 25 },
      );
    } finally {
      await db.end();
    }
  }, 120_000);
});
