import pg from 'pg';
import { hasPostgres, PG_BIN, startCluster } from '../../scripts/postgres-cluster.mjs';

/**
 * A real PostgreSQL server for the audit table's tests (issue 34), as redis-fixture.ts runs Redis: a
 * cluster in a temporary folder on a free loopback port, made and run as the `postgres` user (the tests
 * run as root, and initdb refuses root) by scripts/postgres-cluster.mjs, which the benchmark uses too.
 * Skipped with a message when the binaries are missing; `.ci/run` installs them, so CI never skips.
 */
export { hasPostgres, PG_BIN };
/** The describe name when the binaries are missing: the only case in which the PostgreSQL tests are skipped. */
export const NO_POSTGRES_MESSAGE = `skipped: no PostgreSQL binaries at ${PG_BIN} (apt-get install postgresql, or set PG_BIN)`;

export interface RunningPostgres {
  port: number;
  /** The server's own database: tests make one each with `database()`. */
  url: string;
  /** A new, empty database on this server, and its URL. */
  database(): Promise<string>;
  /** Stops the server (fast shutdown: connections are cut), its data kept. */
  stop(): Promise<void>;
  /** Starts it again on the same port, its data intact. */
  start(): Promise<void>;
  /** Stops it for good and removes its folder. */
  destroy(): Promise<void>;
}

/** A fresh cluster, started. */
export async function startPostgres(): Promise<RunningPostgres> {
  const cluster = await startCluster();
  let databases = 0;
  return {
    port: cluster.port,
    url: cluster.url,
    async database() {
      const name = `audit_${process.pid}_${++databases}`;
      await queryOf(cluster.url, `CREATE DATABASE ${name}`);
      return `postgres://postgres@127.0.0.1:${cluster.port}/${name}`;
    },
    stop: async () => cluster.stop(),
    start: async () => cluster.start(),
    destroy: async () => cluster.destroy(),
  };
}

/** A query on a database of the fixture's server, for what a test checks in the table. */
export async function queryOf<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
