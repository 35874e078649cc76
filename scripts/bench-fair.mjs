// @ts-check
// `npm run bench -- --fair`: one user's lookups in parts of a record of 100 000 one-letter identities
// (gzip, as the app asks) against another user's plain lookups of a small record and /healthz, each asked
// every 200 ms meanwhile (docs/performance.md, "One user's heavy answers and everyone else's"); then a
// support user's status-level lookups of that record, 4 at once (read whole for its kept fields). Runs the
// built server (`--entry <main.js>` for another build) against fair-upstream.mjs, each in a process of its
// own; `--cpu-prof <dir>` writes the server's CPU profile there.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROXY_SIGN_IN, writeConfigFile } from './config-file.mjs';
import { spawnServer } from './spawn-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
const TICKS = 100; // clock ticks a second (/proc/<pid>/stat)

/** @param {number} pid seconds of CPU the process has used */
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
};

/** @param {number[]} values @param {number} q */
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

/**
 * @param {string} url @param {string} user @param {string} refId @param {boolean} parts
 * @param {string} [role] a support user's lookup is read to status level
 * @returns {Promise<{ status: number; ms: number }>}
 */
async function lookup(url, user, refId, parts, role = 'compliance') {
  const started = performance.now();
  const res = await fetch(`${url}/api/candidates/refId/${refId}`, {
    headers: {
      'x-candidate-lookup': '1',
      'x-forwarded-user': user,
      'x-forwarded-role': role,
      accept: parts ? 'multipart/mixed' : 'application/json',
      'accept-encoding': 'gzip',
    },
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

/** @param {string} url */
async function health(url) {
  const started = performance.now();
  const res = await fetch(`${url}/healthz`);
  await res.arrayBuffer();
  return performance.now() - started;
}

/** @param {string[]} serverArgs @param {string} upstreamUrl */
function startServer(serverArgs, upstreamUrl) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'cl-bench-fair-'));
  return spawnServer(serverArgs, {
    cwd: tmp,
    env: {
      HOST: '127.0.0.1',
      PORT: '0',
      BENCH_FAIR_KEY: 'bench-fair-key',
      BENCH_FAIR_STATUS_KEY: 'bench-fair-status-key',
      CONFIG_FILE: writeConfigFile(tmp, {
        environments: [
          {
            name: 'default',
            label: 'Bench',
            baseUrl: upstreamUrl,
            clientId: 'c',
            apiKeyEnv: 'BENCH_FAIR_KEY',
            statusApiKeyEnv: 'BENCH_FAIR_STATUS_KEY',
            allowHttp: true,
            archiveOnExtract: 'accept',
          },
        ],
        signIn: PROXY_SIGN_IN,
        limits: { lookupsPerMinute: 0, queueIndexLookupsPerSecond: 0, upstreamTimeoutMs: 120_000 },
      }),
      AUDIT_LOG: path.join(tmp, 'audit.jsonl'),
    },
    echoStderr: true,
  });
}

/**
 * `heavy` lookups at once by one user (in parts; with `status`, a support user's, to status level) while
 * another looks up a small record and /healthz every 200 ms.
 * @param {string} url @param {number} pid @param {number} heavy @param {boolean} [status]
 */
async function phase(url, pid, heavy, status = false) {
  const others = /** @type {number[]} */ ([]);
  const healths = /** @type {number[]} */ ([]);
  let running = true;
  const loop = async (/** @type {() => Promise<number>} */ ask, /** @type {number[]} */ into) => {
    while (running) {
      const started = performance.now();
      into.push(await ask());
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 200 - (performance.now() - started))));
    }
  };
  let n = 0;
  const cpuBefore = cpuSeconds(pid);
  const started = performance.now();
  const side = [loop(async () => (await lookup(url, 'bea', `light-${n++}`, false)).ms, others), loop(() => health(url), healths)];
  const one = () => (status ? lookup(url, 'sam', 'heavy', false, 'support') : lookup(url, 'ana', 'heavy', true));
  const answers = await Promise.all(Array.from({ length: heavy }, one));
  running = false;
  await Promise.all(side);
  const figures = (/** @type {number[]} */ v) => ({
    median: quantile(v, 0.5),
    p95: quantile(v, 0.95),
    max: Math.max(...v),
    count: v.length,
  });
  return {
    heavy: status ? `${heavy} status-level` : String(heavy),
    statuses: answers.map((a) => a.status),
    seconds: (performance.now() - started) / 1000,
    cpu: cpuSeconds(pid) - cpuBefore,
    other: figures(others),
    healthz: figures(healths),
  };
}

/** @param {{ entry?: string; count?: number; cpuProfDir?: string; phases?: number[]; statusPhases?: number[] }} [options] */
export async function runFairBench({
  entry = path.join(root, 'dist/server/main.js'),
  count = 100_000,
  cpuProfDir,
  phases = [1, 4],
  statusPhases = [4],
} = {}) {
  const upstream = spawnServer([path.join(import.meta.dirname, 'fair-upstream.mjs'), String(count)]);
  const upstreamUrl = await upstream.url;
  const server = startServer([...(cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfDir] : []), entry], upstreamUrl);
  const stop = () => {
    server.stop();
    upstream.stop();
  };
  process.on('exit', stop);
  try {
    const url = await server.url;
    const pid = /** @type {number} */ (server.child.pid);
    await lookup(url, 'ana', 'heavy', true); // warm up
    const results = [];
    for (const heavy of phases) results.push(await phase(url, pid, heavy));
    for (const heavy of statusPhases) results.push(await phase(url, pid, heavy, true));
    return results;
  } finally {
    stop();
    await server.exited;
  }
}

/** @param {Awaited<ReturnType<typeof runFairBench>>} results */
export function fairRows(results) {
  const ms = (/** @type {number} */ v) => `${Math.round(v)} ms`;
  return results.map(
    (r) =>
      `| ${r.heavy} at once (${r.statuses.join(', ')}) | ${r.seconds.toFixed(1)} s / ${r.cpu.toFixed(1)} s | ` +
      `${ms(r.other.median)} / ${ms(r.other.p95)} / ${ms(r.other.max)} (${r.other.count}) | ` +
      `${ms(r.healthz.median)} / ${ms(r.healthz.p95)} / ${ms(r.healthz.max)} |`,
  );
}

export const FAIR_HEADER = [
  '| one user, in parts (gzip) or to status level | time / server CPU | another user: median / p95 / max (lookups) | /healthz: median / p95 / max |',
  '| --- | --- | --- | --- |',
];

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = (/** @type {string} */ flag) => {
    const i = process.argv.indexOf(flag);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const entry = at('--entry');
  const cpuProfDir = at('--cpu-prof');
  const results = await runFairBench({
    ...(entry ? { entry: path.resolve(entry) } : {}),
    ...(cpuProfDir ? { cpuProfDir: path.resolve(cpuProfDir) } : {}),
  });
  console.log(`load ${os.loadavg()[0]?.toFixed(1)}`);
  for (const line of [...FAIR_HEADER, ...fairRows(results)]) console.log(line);
}
