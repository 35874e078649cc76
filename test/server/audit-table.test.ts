import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { runAuditImport } from '../../src/server/trail/audit-import.ts';
import { lineHash } from '../../src/server/audit/audit-chain.ts';
import { createLogger } from '../../src/server/log/log.ts';
import { createAuditStore } from '../../src/server/trail/audit-store.ts';
import { SIMILAR_USERS_SQL } from '../../src/server/trail/audit-users.ts';
import { as, fileLines, gatewayInstance, lookUp, search, searchAll, status } from './audit-trail-helpers.ts';
import type { Instance } from './instance.ts';
import type { Environment } from '../../src/server/config/config.ts';
import { hasPostgres, NO_POSTGRES_MESSAGE, queryOf } from './postgres-fixture.ts';
import { candidates, sandboxAndPostgres } from './queue-view-fixture.ts';

/**
 * The audit table on a real PostgreSQL server (issue 34): several instances write to one table, a
 * database that goes away refuses no lookup and the table catches up when it is back, the importer
 * rebuilds or catches up idempotently, and the table takes no UPDATE or early DELETE.
 */
const [amelie, bruno] = [candidates[0]!.record, candidates[1]!.record];
const ANA = as('ana', 'compliance');
const BEN = as('ben', 'compliance');

// The sandbox and a PostgreSQL for the whole file; `instances` are closed after each test (queue-view-fixture.ts).
const fixture = sandboxAndPostgres();
const instances = fixture.closing;
const postgres = { database: () => fixture.database(), stop: () => fixture.server().stop(), start: () => fixture.server().start() };

async function instance(databaseUrl: string, name: string, env: Environment = {}): Promise<Instance> {
  const started = await gatewayInstance(fixture.sandbox(), { DATABASE_URL: databaseUrl, AUDIT_INSTANCE: name, ...env });
  instances.push(started);
  return started;
}

/** The table's rows of an instance, as hashes in insertion order. */
const hashesOf = async (url: string, name: string) =>
  (await queryOf<{ hash: string }>(url, 'SELECT hash FROM candidate_lookup_audit WHERE instance = $1 ORDER BY seq', [name])).map(
    (row) => row.hash,
  );
/** The hashes of every line of a file, in order. */
const fileHashes = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => lineHash(line));

describe.skipIf(!hasPostgres)(`the audit table in PostgreSQL${hasPostgres ? '' : ` (${NO_POSTGRES_MESSAGE})`}`, () => {
  it("two instances write to one table, and the audit page of either shows both instances' lines in one time order", async () => {
    const url = await postgres.database();
    const [one, two] = [await instance(url, 'app1'), await instance(url, 'app2')];
    for (let i = 0; i < 3; i++) {
      expect((await lookUp(one, amelie.refId!, ANA)).status).toBe(200);
      expect((await lookUp(two, bruno.refId!, BEN)).status).toBe(200);
    }
    // Each instance's newest lines reach the table before a search of its own answers; the other's within its indexer's pass.
    await expect.poll(async () => (await searchAll(one, { action: 'lookup' })).length, { timeout: 10_000 }).toBe(6);
    const rows = await searchAll(two, { action: 'lookup' });
    expect(rows.map((row) => row.instance)).toEqual(['app2', 'app1', 'app2', 'app1', 'app2', 'app1']);
    expect(rows.map((row) => row.time)).toEqual(
      rows
        .map((row) => row.time)
        .sort()
        .reverse(),
    );
    // From the table, and not behind once the other instance's indexer has passed over its own search line above.
    await expect.poll(async () => (await search(one, { action: 'lookup' })).source, { timeout: 10_000 }).toEqual({ kind: 'database' });
    // The page's status names both instances, each with its file's chain.
    await expect
      .poll(async () => (await status(one)).instances.map((state) => state.instance).sort(), { timeout: 40_000 })
      .toEqual(['app1', 'app2']);
    expect((await status(one)).instances.find((state) => state.self)).toMatchObject({ instance: 'app1', files: [{ intact: true }] });
    expect(await hashesOf(url, 'app1')).toEqual(fileHashes(one.auditLog));
  }, 60_000);

  it('a database stopped mid-run refuses no lookup, the page says how far the table is behind, and it catches up when it returns: no line lost, none twice', async () => {
    const url = await postgres.database();
    const app = await instance(url, 'app1');
    expect((await lookUp(app, amelie.refId!, ANA)).status).toBe(200);
    // The lookup's line and its request's closing line (what its answer held).
    await expect.poll(() => hashesOf(url, 'app1'), { timeout: 10_000 }).toHaveLength(2);
    await postgres.stop();
    try {
      for (let i = 0; i < 5; i++) expect((await lookUp(app, bruno.refId!, BEN)).status).toBe(200);
      const found = await search(app, { user: 'ben' });
      // Read from this instance's files meanwhile, every lookup in it, with how far behind the table is.
      expect(found.rows).toHaveLength(5);
      expect(found.source.kind).toBe('files');
      expect(found.source.fallback).toMatch(/ECONNREFUSED|connect/);
      expect(found.source.behind?.[0]).toMatchObject({ instance: 'app1' });
      expect(found.source.behind![0]!.lines).toBeGreaterThanOrEqual(5);
    } finally {
      await postgres.start();
    }
    // The indexer tries again by itself (1 s, doubling): every line of the file, once.
    await expect.poll(async () => (await hashesOf(url, 'app1')).length, { timeout: 20_000 }).toBe(fileLines(app.auditLog).length);
    expect(await hashesOf(url, 'app1')).toEqual(fileHashes(app.auditLog));
    expect((await search(app, { user: 'ben' })).source.kind).toBe('database');
  }, 60_000);

  it("an instance stopped during a database outage is said to be not reporting, on the other's page and in its search's source, not taken as whole", async () => {
    const url = await postgres.database();
    const [one, two] = [await instance(url, 'app1'), await instance(url, 'app2')];
    const reported = async (name: string) =>
      (await queryOf(url, 'SELECT 1 FROM candidate_lookup_audit_instances WHERE instance = $1 AND reported_at IS NOT NULL', [name])).length;
    // Both past their start's work (the schema, the retention, a first report) before the database stops.
    await expect.poll(async () => (await reported('app1')) + (await reported('app2')), { timeout: 10_000 }).toBe(2);
    await postgres.stop();
    try {
      expect((await lookUp(one, amelie.refId!, ANA)).status).toBe(200);
      await instances.splice(instances.indexOf(one), 1)[0]!.close();
    } finally {
      await postgres.start();
    }
    // What two report intervals without a word from app1 leave in the table, without waiting them out: its last report, that old.
    await queryOf(url, "UPDATE candidate_lookup_audit_instances SET reported_at = now() - interval '2 minutes' WHERE instance = 'app1'");
    const [since] = await queryOf<{ at: Date }>(
      url,
      "SELECT reported_at AS at FROM candidate_lookup_audit_instances WHERE instance = 'app1'",
    );
    const found = await search(two, { refId: amelie.refId! });
    // The lookup app1 made during the outage is not in the table: the answer says that app1's lines after its report may be missing.
    expect(found.rows).toEqual([]);
    expect(found.source.kind).toBe('database');
    expect(found.source.notReporting).toEqual([{ instance: 'app1', since: since!.at.toISOString() }]);
    const state = await status(two);
    expect(state.instances.find((at) => at.instance === 'app1')).toMatchObject({ notReporting: true, reportedAt: since!.at.toISOString() });
    expect(state.instances.find((at) => at.instance === 'app2')?.notReporting).toBeUndefined();
  }, 60_000);

  it('after a restart while the database is away, the lag is said to be at least what was written since the start, the count of before unknown', async () => {
    const url = await postgres.database();
    const first = await instance(url, 'app1');
    await expect
      .poll(async () => (await queryOf(url, 'SELECT 1 FROM candidate_lookup_audit_instances WHERE reported_at IS NOT NULL')).length, {
        timeout: 10_000,
      })
      .toBe(1);
    await postgres.stop();
    try {
      expect((await lookUp(first, amelie.refId!, ANA)).status).toBe(200);
      const file = first.auditLog;
      await instances.pop()!.close();
      const again = await instance(url, 'app1', { AUDIT_LOG: file });
      expect((await lookUp(again, bruno.refId!, BEN)).status).toBe(200);
      const { behind } = (await search(again, { user: 'ben' })).source;
      // Two lines are missing, the older from before the restart: the count says "at least", and gives no oldest time it cannot know.
      expect(behind).toHaveLength(1);
      expect(behind![0]).toMatchObject({ instance: 'app1', unknownBefore: expect.any(String) });
      expect(behind![0]!.lines).toBeGreaterThanOrEqual(1);
      expect(behind![0]!.since).toBeUndefined();
      expect((await status(again)).instances[0]!.behind).toMatchObject({ unknownBefore: behind![0]!.unknownBefore });
    } finally {
      await postgres.start();
    }
  }, 60_000);

  it('npm run audit:import catches the table up with lines written while the database was away, and a second run inserts nothing', async () => {
    const url = await postgres.database();
    await postgres.stop();
    let file: string;
    try {
      const app = await instance(url, 'app1');
      for (let i = 0; i < 4; i++) expect((await lookUp(app, amelie.refId!, ANA)).status).toBe(200);
      file = app.auditLog;
      await instances.pop()!.close();
    } finally {
      await postgres.start();
    }
    const env = { DATABASE_URL: url, AUDIT_LOG: file, AUDIT_INSTANCE: 'app1' };
    const out: string[] = [];
    expect(
      await runAuditImport(
        [],
        env,
        '/nonexistent',
        (line) => out.push(line),
        (line) => out.push(line),
      ),
    ).toBe(0);
    expect(out[0]).toBe('8 lines read, 8 new to the table, 0 there already or past the retention');
    expect(await hashesOf(url, 'app1')).toEqual(fileHashes(file));
    out.length = 0;
    expect(
      await runAuditImport(
        [],
        env,
        '/nonexistent',
        (line) => out.push(line),
        (line) => out.push(line),
      ),
    ).toBe(0);
    expect(out[0]).toBe('0 lines read, 0 new to the table, 0 there already or past the retention');
    expect(
      await runAuditImport(
        ['--rebuild'],
        env,
        '/nonexistent',
        (line) => out.push(line),
        (line) => out.push(line),
      ),
    ).toBe(0);
    expect(out[2]).toBe('8 lines read, 0 new to the table, 8 there already or past the retention');
    expect(await hashesOf(url, 'app1')).toEqual(fileHashes(file));
  }, 60_000);

  it('a search by user ignores capitals, in the table as in the files, read from the index that folds them (schema version 6; ÉLODIE: audit-search-property.test.ts)', async () => {
    const url = await postgres.database();
    const app = await instance(url, 'app1');
    await lookUp(app, amelie.refId!, as('Ana.Smith@Example.org', 'compliance'));
    await lookUp(app, bruno.refId!, as('ana.smith@example.org.evil', 'compliance'));
    // Each lookup's line and its closing line.
    await expect.poll(() => hashesOf(url, 'app1'), { timeout: 10_000 }).toHaveLength(4);
    const found = await search(app, { user: 'ANA.SMITH@example.ORG' });
    expect(found.source.kind).toBe('database');
    expect(found.rows.map((row) => [row.user, row.id])).toEqual([['Ana.Smith@Example.org', amelie.refId]]);
    // Versions 3 (a queue view's candidates), 4 (cuts) and 5 (closing lines) came after 2; 6 folds every capital;
    // 7 indexes the names themselves (the names like the one typed, below).
    expect(await queryOf<{ version: number }>(url, 'SELECT max(version)::int AS version FROM candidate_lookup_schema')).toEqual([
      { version: 7 },
    ]);
    // The planner's choice on a table this small is a scan: with scans off, the search's condition has its index.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT seq FROM candidate_lookup_audit WHERE candidate_lookup_fold("user") = $1 ORDER BY time DESC, seq DESC LIMIT 51`,
        ['ana.smith@example.org'],
      );
      expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain('candidate_lookup_audit_user_unicode');
    } finally {
      await client.end();
    }
    // The same answer from the files alone.
    const files = await instance('', 'app2');
    await lookUp(files, amelie.refId!, as('Ana.Smith@Example.org', 'compliance'));
    const read = await search(files, { user: 'ana.smith@EXAMPLE.org' });
    expect(read.source.kind).toBe('files');
    expect(read.rows.map((row) => row.user)).toEqual(['Ana.Smith@Example.org']);
  }, 60_000);

  it("a search by part of a user's name offers the table's names that contain it, whichever instance wrote them, at most five", async () => {
    const url = await postgres.database();
    const [one, two] = [await instance(url, 'app1'), await instance(url, 'app2')];
    await lookUp(one, amelie.refId!, as('carla@example.org', 'compliance'));
    await lookUp(two, amelie.refId!, as('Carlos', 'compliance'));
    await lookUp(two, 'carla-candidate-77', ANA);
    for (let i = 1; i <= 7; i++) await lookUp(one, amelie.refId!, as(`reviewer${i}`, 'compliance'));
    // The other instance's lines reach the table within its indexer's pass.
    await expect
      .poll(async () => (await search(one, { user: 'carl' })).similarUsers, { timeout: 10_000 })
      .toEqual(['Carlos', 'carla@example.org']);
    const carla = await search(one, { user: 'CARLA' });
    expect(carla.source.kind).toBe('database');
    expect(carla.similarUsers).toEqual(['carla@example.org']);
    expect((await search(one, { user: 'review' })).similarUsers).toEqual(['reviewer1', 'reviewer2', 'reviewer3', 'reviewer4', 'reviewer5']);
    expect((await search(one, { user: 'candidate-77' })).similarUsers).toBeUndefined();
  }, 60_000);

  it('the names like the one typed are walked along an index of the names (schema version 7), not read from every row at each step', async () => {
    const url = await postgres.database();
    const app = await instance(url, 'app1');
    await lookUp(app, amelie.refId!, as('carla@example.org', 'compliance'));
    expect((await search(app, { user: 'carl' })).similarUsers).toEqual(['carla@example.org']);
    // On a table this small the planner reads it whole: with scans off, each step of the walk has its index.
    // Without it, each step was a read of every row (300,000 rows: 0.5 to 3 s a search, docs/performance.md).
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${SIMILAR_USERS_SQL}`, ['carl', [], 5]);
      const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(text).toContain('candidate_lookup_audit_user_name');
      expect(text).not.toMatch(/\bSort\b/);
    } finally {
      await client.end();
    }
  }, 60_000);

  it('attack: a back-dated edited audit line escapes the mark', async () => {
    // Four lookups written to a file with no table yet (each its line and its closing line), then the third lookup's
    // line (the fifth) edited to say it is an hour older than the first.
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-backdated-')), 'audit.jsonl');
    const writer = await gatewayInstance(fixture.sandbox(), { AUDIT_LOG: file });
    for (let i = 0; i < 4; i++) expect((await lookUp(writer, amelie.refId!, ANA)).status).toBe(200);
    await writer.close();
    const text = readFileSync(file, 'utf8').split('\n');
    const anHourBefore = new Date(Date.parse(JSON.parse(text[0]!).time) - 3_600_000).toISOString();
    text[4] = text[4]!.replace(/"time":"[^"]+"/, `"time":"${anHourBefore}"`);
    writeFileSync(file, text.join('\n'));
    // The instance that starts on that file indexes every line, the edited one among them, and sorts it last by its date.
    const url = await postgres.database();
    const app = await instance(url, 'app1', { AUDIT_LOG: file });
    const found = await search(app, { action: 'lookup' });
    expect(found.source.kind).toBe('database');
    expect(found.rows.map((row) => row.hash)).toEqual([6, 2, 0, 4].map((at) => lineHash(text[at]!)));
    // Marked by its place in the table's order (the file's), not by its date: the edited line and the lookup after it.
    expect(found.rows.map((row) => row.unvouched ?? false)).toEqual([true, false, false, true]);
  });

  it('the table is append-only: UPDATE, TRUNCATE and a DELETE within the retention are refused; the retention deletes older rows only', async () => {
    const url = await postgres.database();
    const app = await instance(url, 'app1');
    await lookUp(app, amelie.refId!, ANA);
    // Its line and its closing line.
    await expect.poll(() => hashesOf(url, 'app1'), { timeout: 10_000 }).toHaveLength(2);
    await expect(queryOf(url, `UPDATE candidate_lookup_audit SET "user" = 'nobody'`)).rejects.toThrow(/append-only: UPDATE refused/);
    await expect(queryOf(url, 'DELETE FROM candidate_lookup_audit')).rejects.toThrow(/append-only: DELETE refused/);
    await expect(queryOf(url, 'TRUNCATE candidate_lookup_audit')).rejects.toThrow(/append-only: TRUNCATE refused/);
    const { applyRetention } = await import('../../src/server/trail/audit-table.ts');
    const { createDatabase } = await import('../../src/server/state/postgres.ts');
    const db = createDatabase(url);
    try {
      expect(await applyRetention(db, 1)).toBe(0);
      expect(await hashesOf(url, 'app1')).toHaveLength(2);
    } finally {
      await db.end();
    }
  }, 60_000);

  it('a retention that fails is said in the log once, not kept silent, and said again when it works', async () => {
    const url = await postgres.database();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-retention-'));
    const logs: string[] = [];
    const logger = createLogger({ write: (text: string) => void logs.push(text) });
    const warnings = () => logs.filter((line) => line.includes('could not be deleted'));
    // A statement trigger stands for whatever makes the DELETE fail (a lock, a permission, a full disk).
    const store = createAuditStore({
      file: path.join(dir, 'audit.jsonl'),
      instance: 'app1',
      databaseUrl: url,
      retentionDays: 30,
      logger,
      retainEveryMs: 50,
    });
    try {
      // The store has made its table (and reported to it) before the DELETE is made to fail.
      await expect.poll(() => queryOf(url, 'SELECT instance FROM candidate_lookup_audit_instances'), { timeout: 10_000 }).toHaveLength(1);
      await queryOf(
        url,
        `CREATE SEQUENCE retention_attempts;
         CREATE FUNCTION refuse_retention() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM nextval('retention_attempts'); RAISE EXCEPTION 'retention refused by the test'; END $$;
         CREATE TRIGGER refuse_retention BEFORE DELETE ON candidate_lookup_audit FOR EACH STATEMENT EXECUTE FUNCTION refuse_retention();`,
      );
      await expect.poll(() => warnings().length, { timeout: 10_000 }).toBe(1);
      expect(warnings()[0]).toContain('lines older than 30 days could not be deleted (retention refused by the test');
      // Three failed passes later (a sequence counts them: nextval outlives the rollback), still one warning.
      await expect
        .poll(async () => Number((await queryOf<{ n: string }>(url, 'SELECT last_value AS n FROM retention_attempts'))[0]!.n), {
          timeout: 10_000,
        })
        .toBeGreaterThanOrEqual(3);
      expect(warnings()).toHaveLength(1);
      await queryOf(url, 'DROP TRIGGER refuse_retention ON candidate_lookup_audit');
      await expect.poll(() => logs.some((line) => line.includes('the retention deletes lines again')), { timeout: 10_000 }).toBe(true);
      expect(warnings()).toHaveLength(1);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('the retention at start says in the log how many lines it deleted (after a restart with a shorter retention, the most)', async () => {
    const url = await postgres.database();
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-retention-')), 'audit.jsonl');
    const old = Date.now() - 60 * 86_400_000;
    const line = (i: number) =>
      JSON.stringify({
        prev: 'start',
        time: new Date(old + i * 1000).toISOString(),
        user: 'ana',
        role: 'compliance',
        env: 'default',
        kind: 'refId',
        id: `r${i}`,
        status: 200,
      });
    writeFileSync(file, `${Array.from({ length: 20 }, (_, i) => line(i)).join('\n')}\n`);
    const count = async () => Number((await queryOf<{ n: string }>(url, 'SELECT count(*) AS n FROM candidate_lookup_audit'))[0]!.n);
    const first = createAuditStore({ file, instance: 'app1', databaseUrl: url, retentionDays: 3650 });
    await expect.poll(count, { timeout: 15_000 }).toBe(20);
    await first.close();
    const logs: string[] = [];
    const logger = createLogger({ write: (text: string) => void logs.push(text) });
    const second = createAuditStore({ file, instance: 'app1', databaseUrl: url, retentionDays: 30, logger });
    try {
      await expect.poll(() => logs.some((text) => text.includes('20 lines older than 30 days deleted')), { timeout: 15_000 }).toBe(true);
      expect(await count()).toBe(0);
    } finally {
      await second.close();
    }
  }, 60_000);
});
