import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './instance.ts';

/**
 * A real PostgreSQL server for the audit table's tests (issue 34), as redis-fixture.ts runs Redis: a
 * cluster in a temporary folder, on a free loopback port, started and stopped with Debian's binaries
 * (`.ci/run` installs `postgresql` and exports PG_BIN). initdb refuses to run as root, and the tests run
 * as root: the cluster is the `postgres` user's, made and run through `runuser`.
 */

/** Debian's binaries: PG_BIN, else the newest /usr/lib/postgresql/<version>/bin. */
export const PG_BIN = process.env.PG_BIN ?? newestDebianBin();
export const hasPostgres = existsSync(path.join(PG_BIN, 'initdb'));
/** The describe name when the binaries are missing: the only case in which the PostgreSQL tests are skipped. */
export const NO_POSTGRES_MESSAGE = `skipped: no PostgreSQL binaries at ${PG_BIN} (apt-get install postgresql, or set PG_BIN)`;

function newestDebianBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name)) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0] ?? '15';
  return path.join(root, newest, 'bin');
}

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

const running = new Set<string>();
process.once('exit', () => {
  for (const data of running) pgCtl(data, ['-m', 'immediate', 'stop']);
});

/** A fresh cluster, started. */
export async function startPostgres(): Promise<RunningPostgres> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = postgresUser();
    chownSync(dir, uid, gid);
  }
  run(['initdb', '-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = () => {
    run(['pg_ctl', '-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '30', 'start']);
    running.add(data);
  };
  start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let databases = 0;
  return {
    port,
    url,
    async database() {
      const name = `audit_${process.pid}_${++databases}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`CREATE DATABASE ${name}`);
      await client.end();
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      pgCtl(data, ['-m', 'fast', '-w', 'stop']);
      running.delete(data);
    },
    async start() {
      start();
    },
    async destroy() {
      pgCtl(data, ['-m', 'fast', '-w', 'stop']);
      running.delete(data);
      rmSync(dir, { recursive: true, force: true });
    },
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

function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line) throw new Error('there is no postgres user: apt-get install postgresql makes it');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** A PostgreSQL binary, as the postgres user when the tests run as root. */
function run(command: string[]): void {
  const [name, ...args] = command;
  const binary = path.join(PG_BIN, name!);
  const asRoot = process.getuid?.() === 0;
  const result = asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', binary, ...args]) : spawnSync(binary, args);
  if (result.status !== 0) throw new Error(`${name} failed (${result.status}): ${result.stderr?.toString()}${result.stdout?.toString()}`);
}

function pgCtl(data: string, args: string[]): void {
  if (!existsSync(path.join(data, 'postmaster.pid'))) return;
  try {
    run(['pg_ctl', '-D', data, ...args]);
  } catch {
    // Stopped already.
  }
}
