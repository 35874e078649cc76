// @ts-check
// A throwaway PostgreSQL server for the tests and the benchmark (issue 34): a cluster in a temporary
// folder on a free loopback port, made and run with Debian's binaries (`.ci/run` installs `postgresql`
// and exports PG_BIN). initdb refuses to run as root, and CI runs as root: the cluster then belongs to the
// `postgres` user, and every binary runs as it through `runuser`. Tuned for speed, not durability.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.mjs';

/** Debian's binaries: PG_BIN, else the newest /usr/lib/postgresql/<version>/bin. */
export const PG_BIN = process.env.PG_BIN ?? newestDebianBin();
export const hasPostgres = existsSync(path.join(PG_BIN, 'initdb'));

function newestDebianBin() {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name)) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0] ?? '15';
  return path.join(root, newest, 'bin');
}

/**
 * @typedef {object} Cluster
 * @property {number} port
 * @property {string} url the server's own database, `postgres`
 * @property {() => void} stop stops it (fast shutdown), its data kept
 * @property {() => void} start starts it again on the same port
 * @property {() => void} destroy stops it for good and removes its folder
 */

/** The clusters this process started: their data folders. */
/** @type {Set<string>} */
const running = new Set();
const stopAll = () => {
  for (const data of running) {
    pgCtl(data, ['-m', 'immediate', 'stop']);
    rmSync(path.dirname(data), { recursive: true, force: true });
  }
  running.clear();
};
// A cluster outlives the process that started it (pg_ctl starts it apart): stopped however the process ends,
// a signal included (then the signal is raised again, so that the process ends as it would have).
process.once('exit', stopAll);
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
  process.once(signal, () => {
    stopAll();
    process.kill(process.pid, signal);
  });
}

/**
 * A fresh cluster, started.
 * @param {{ settings?: string[] }} [options] more `-c name=value` settings for the server
 * @returns {Promise<Cluster>}
 */
export async function startCluster(options = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-pg-'));
  const data = path.join(dir, 'data');
  if (process.getuid?.() === 0) {
    const { uid, gid } = postgresUser();
    chownSync(dir, uid, gid);
  }
  run(['initdb', '-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const settings = [
    'listen_addresses=127.0.0.1',
    'fsync=off',
    'synchronous_commit=off',
    'full_page_writes=off',
    ...(options.settings ?? []),
  ];
  const serverOptions = [`-p ${port}`, `-k ${dir}`, ...settings.map((setting) => `-c ${setting}`)].join(' ');
  const start = () => {
    run(['pg_ctl', '-D', data, '-o', serverOptions, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
    running.add(data);
  };
  const stop = () => {
    pgCtl(data, ['-m', 'fast', '-w', 'stop']);
    running.delete(data);
  };
  start();
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    destroy() {
      stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresUser() {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line) throw new Error('there is no postgres user: apt-get install postgresql makes it');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * A PostgreSQL binary, as the postgres user when run as root.
 * @param {string[]} command
 */
function run(command) {
  const [name, ...args] = command;
  const binary = path.join(PG_BIN, name ?? '');
  const result = process.getuid?.() === 0 ? spawnSync('runuser', ['-u', 'postgres', '--', binary, ...args]) : spawnSync(binary, args);
  if (result.status !== 0) throw new Error(`${name} failed (${result.status}): ${result.stderr?.toString()}${result.stdout?.toString()}`);
}

/**
 * @param {string} data
 * @param {string[]} args
 */
function pgCtl(data, args) {
  if (!existsSync(path.join(data, 'postmaster.pid'))) return;
  try {
    run(['pg_ctl', '-D', data, ...args]);
  } catch {
    // Stopped already.
  }
}
