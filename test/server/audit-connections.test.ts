import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createDatabase, migrate } from '../../src/server/state/postgres.ts';
import { as, fileLines, gatewayInstance, lookUp } from './audit-trail-helpers.ts';
import type { Instance } from './instance.ts';
import { hasPostgres, NO_POSTGRES_MESSAGE, queryOf } from './postgres-fixture.ts';
import { candidates, sandboxAndPostgres } from './queue-view-fixture.ts';

/**
 * PostgreSQL ending the server's connections (an administrator's shutdown, `pg_terminate_backend`, a cut):
 * each is an error of the call that held it, said once in the log, and the next call connects again. An
 * 'error' event of a connection nobody listens to would end the process (the instance would stop serving).
 */
const amelie = candidates[0]!.record;
const ANA = as('ana', 'compliance');

// The sandbox and a PostgreSQL for the whole file; `instances` are closed after each test (queue-view-fixture.ts).
const fixture = sandboxAndPostgres();
const instances = fixture.closing;
const postgres = { database: () => fixture.database(), stop: () => fixture.server().stop(), start: () => fixture.server().start() };

/** The uncaught errors and unhandled rejections of the process while `run` runs (given those seen so far). */
async function uncaughtDuring(run: (seen: readonly unknown[]) => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (error: unknown) => void seen.push(error);
  process.on('uncaughtException', listener);
  process.on('unhandledRejection', listener);
  try {
    await run(seen);
  } finally {
    process.off('uncaughtException', listener);
    process.off('unhandledRejection', listener);
  }
  return seen;
}

/** The server's connections to the database waiting for a lock (a query under way on a connection it holds). */
const waiting = async (url: string) =>
  (
    await queryOf<{ n: number }>(
      url,
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'candidate-lookup' AND wait_event_type = 'Lock'",
    )
  )[0]!.n;
const terminateServerConnections = (url: string) =>
  queryOf(
    url,
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'candidate-lookup'",
  );

describe.skipIf(!hasPostgres)(`PostgreSQL ending connections${hasPostgres ? '' : ` (${NO_POSTGRES_MESSAGE})`}`, () => {
  it("attack: PostgreSQL ending the server's connections does not bring the instance down", async () => {
    const url = await postgres.database();
    const schema = createDatabase(url);
    await migrate(schema);
    await schema.end();
    // Another session holds the table: the retention at start and the indexer wait, each on a connection it checked out.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE candidate_lookup_audit IN ACCESS EXCLUSIVE MODE');
    let app: Instance | undefined;
    const seen = await uncaughtDuring(async (so) => {
      app = await gatewayInstance(fixture.sandbox(), { DATABASE_URL: url, AUDIT_INSTANCE: 'app1' });
      instances.push(app);
      expect((await lookUp(app, amelie.refId!, ANA)).status).toBe(200);
      await expect.poll(() => waiting(url), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      await terminateServerConnections(url);
      await holder.query('COMMIT');
      // The ends reached the server: said in its log, or thrown.
      await expect
        .poll(() => so.length > 0 || app!.logs.some((line) => line.includes('ended a connection')), { timeout: 10_000 })
        .toBe(true);
    });
    await holder.end();
    expect(seen).toEqual([]);
    // Still serving, and the next calls connect again: every line of the file reaches the table.
    expect((await app!.request('/healthz')).status).toBe(200);
    expect((await lookUp(app!, amelie.refId!, ANA)).status).toBe(200);
    const inTable = async () => (await queryOf(url, "SELECT 1 FROM candidate_lookup_audit WHERE instance = 'app1'")).length;
    await expect.poll(inTable, { timeout: 20_000 }).toBe(fileLines(app!.auditLog).length);
    // Said in the log, once for the connections ended together.
    expect(app!.logs.filter((line) => line.includes('ended a connection'))).toHaveLength(1);
  }, 60_000);

  it('attack: PostgreSQL ending the connection a migration holds fails that migration only', async () => {
    const url = await postgres.database();
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    // The schema's lock, held elsewhere: the migration waits on the connection it checked out.
    await holder.query('SELECT pg_advisory_lock(340034)');
    const db = createDatabase(url);
    let failed: unknown;
    const seen = await uncaughtDuring(async () => {
      const migrating = migrate(db).catch((error: unknown) => {
        failed = error;
      });
      await expect.poll(() => waiting(url), { timeout: 10_000 }).toBe(1);
      await terminateServerConnections(url);
      await migrating;
    });
    await holder.end();
    expect(seen).toEqual([]);
    expect(String(failed)).toMatch(/terminat/);
    // The next call connects again.
    await migrate(db);
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM candidate_lookup_schema')).rows[0]!.n).toBeGreaterThan(0);
    await db.end();
  }, 30_000);
});
