import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/server/log/log.ts';
import { createDatabase, migrate } from '../../src/server/state/postgres.ts';
import { runAuditImport } from '../../src/server/trail/audit-import.ts';
import { createAuditStore } from '../../src/server/trail/audit-store.ts';
import { hasPostgres, NO_POSTGRES_MESSAGE, queryOf, type RunningPostgres, startPostgres } from './postgres-fixture.ts';

/**
 * The audit table needs a UTF8 database: schema version 6's candidate_lookup_fold maps some 1,400 capitals
 * outside ASCII. On a database made `createdb -E SQL_ASCII -T template0` (or LATIN1) the schema is refused
 * before anything is made, with a message that names the encoding found and how to make a UTF8 one: the
 * server's log at start and its page's fallback, audit:import's exit 2.
 */
let postgres: RunningPostgres;
let made = 0;

beforeAll(async () => {
  if (hasPostgres) postgres = await startPostgres();
}, 60_000);
afterAll(async () => {
  await postgres?.destroy();
});

/** A database of the test's cluster in this encoding (template0: template1's encoding is the cluster's, UTF8). */
async function databaseIn(encoding: string): Promise<{ url: string; name: string }> {
  const name = `enc_${encoding.toLowerCase()}_${process.pid}_${++made}`;
  await queryOf(postgres.url, `CREATE DATABASE ${name} ENCODING '${encoding}' TEMPLATE template0`);
  return { url: `postgres://postgres@127.0.0.1:${postgres.port}/${name}`, name };
}

const said = (name: string, encoding: string) =>
  `the database "${name}" is encoded ${encoding}, and the audit table needs UTF8 (its lines are any Unicode, and a search by user folds capitals outside ASCII). ` +
  `Create a database in UTF8 and point DATABASE_URL at it: createdb -E UTF8 -T template0 ${name}_utf8 ` +
  `(or CREATE DATABASE ${name}_utf8 ENCODING 'UTF8' TEMPLATE template0); docs/deploying.md.`;

const tables = (url: string) =>
  queryOf<{ name: string }>(url, "SELECT tablename AS name FROM pg_tables WHERE tablename LIKE 'candidate_lookup%'");

describe.skipIf(!hasPostgres)(`the audit table's database must be UTF8${hasPostgres ? '' : ` (${NO_POSTGRES_MESSAGE})`}`, () => {
  it.each(['SQL_ASCII', 'LATIN1'])(
    'migrate refuses a %s database before making anything, saying the encoding and how to make a UTF8 one',
    async (encoding) => {
      const { url, name } = await databaseIn(encoding);
      const db = createDatabase(url);
      try {
        await expect(migrate(db)).rejects.toThrow(said(name, encoding));
      } finally {
        await db.end();
      }
      expect(await tables(url)).toEqual([]);
    },
    60_000,
  );

  it('npm run audit:import on a SQL_ASCII database exits 2 with that message', async () => {
    const { url, name } = await databaseIn('SQL_ASCII');
    const err: string[] = [];
    const code = await runAuditImport(
      [],
      { DATABASE_URL: url, AUDIT_LOG: path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-encoding-')), 'audit.jsonl') },
      '/nonexistent',
      () => {},
      (line) => err.push(line),
    );
    expect(err).toEqual([`The audit table cannot be made in this database: ${said(name, 'SQL_ASCII')}`]);
    expect(code).toBe(2);
  }, 60_000);

  it("a server on a SQL_ASCII database says so in its log at start, as an error, and its page's search falls back to the files with it", async () => {
    const { url, name } = await databaseIn('SQL_ASCII');
    const logs: string[] = [];
    const logger = createLogger({ write: (text: string) => void logs.push(text) });
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-encoding-')), 'audit.jsonl');
    const store = createAuditStore({ file, instance: 'app1', databaseUrl: url, retentionDays: 30, logger });
    try {
      await expect.poll(() => logs.filter((line) => line.includes('encoded SQL_ASCII')).length, { timeout: 10_000 }).toBe(1);
      const line = JSON.parse(logs.find((text) => text.includes('encoded SQL_ASCII'))!) as { level: string; msg: string };
      expect(line.level).toBe('error');
      expect(line.msg).toBe(
        `Audit table: the schema cannot be made: ${said(name, 'SQL_ASCII')} The audit files go on, and the audit page searches them until the database is fit.`,
      );
      const found = await store.search({}, { limit: 10 });
      expect(found.source).toMatchObject({ kind: 'files', fallback: said(name, 'SQL_ASCII') });
      expect(await tables(url)).toEqual([]);
    } finally {
      await store.close();
    }
  }, 60_000);
});
