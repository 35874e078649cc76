// @ts-check
// Issue 35's plain lookup (`npm run bench -- --plain` alone; every full run ends with it too): a 32 MB
// record asked as plain JSON (as curl asks it, no parts) through the built server, against the same bytes
// through a bare Node.js proxy (bare-proxy.mjs: forward and pipe, nothing else), from one upstream of
// their own (plain-upstream.mjs), alternating which goes first. The time of each (median), their ratio
// (target at most 1.1: what the answer's checks add to what any Node.js proxy costs), and each process's
// CPU per lookup, read from /proc/<pid>/stat around each (its user and system time apart: the kernel's
// part is the sockets' reads and writes, which the two share), and the machine's idle CPU during each (from
// /proc/stat: how much room the cores left, where the bench's upstream and client share them with the
// proxy; docs/performance.md). With `--before <main.js>` (a build that reads
// CONFIG_FILE), that build's server is asked beside them, alternating, for its figures of the same run.
// Beside them too, the bare proxy that hands each chunk to a worker thread and back before writing it
// (bare-proxy.mjs `worker`: no check at all): what moving the checks off the server's thread would cost
// before any check is made (docs/performance.md).
// Each process's minor page faults per lookup are counted too: a bare proxy whose malloc has handed freed
// chunks back to the kernel faults them in again (a page at a time) and takes about 15 ms more, so its time
// moves between two levels from one run to the next, and the ratio with it. So the app and the bare proxy
// are asked a second time, in the same rounds, both started with glibc's malloc told to keep what it frees
// (GLIBC_TUNABLES, `STEADY_MALLOC`): no page faults, and a ratio that holds from one run to the next.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuMs, firstByteGet, machineIdleMs, minorFaults, systemCpuMs } from './bench-engine.mjs';
import { PROXY_SIGN_IN, writeConfigFile } from './config-file.mjs';
import { spawnServer } from './spawn-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
/** The record's size, and the target: the app at most this many times the bare proxy's time. */
export const PLAIN_MB = 32;
export const PLAIN_TARGET = 1.1;
const KEY = 'bench-plain-key-35c1e8';
/** glibc's malloc never trimming its heap nor mapping a chunk apart: the memory it frees is used again, never faulted in anew. */
const STEADY_MALLOC = 'glibc.malloc.trim_threshold=4294967295:glibc.malloc.top_pad=134217728:glibc.malloc.mmap_threshold=33554432';
const CLIENT_ID = 'bench-plain';

/** The value below which `share` of them lie (nearest rank). @param {number[]} values @param {number} share */
const quantile = (values, share) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(share * values.length))] ?? 0;

/** @param {number[]} values */
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/**
 * @typedef {object} PlainFigures
 * @property {number} bytes the answer's length
 * @property {number} runs lookups of each
 * @property {number} appMs median time of a lookup through the app
 * @property {number} bareMs the same through the bare proxy
 * @property {number} ratio appMs / bareMs
 * @property {number} pairedRatio the median of each round's app / bare (the two asked one after the other)
 * @property {[number, number]} pairedSpread the first and third quartiles of those rounds' ratios
 * @property {number} appCpuMs the app's CPU per lookup
 * @property {number} bareCpuMs the bare proxy's
 * @property {number} appSystemMs of the app's CPU, the kernel's part (system time: the sockets' reads and writes)
 * @property {number} bareSystemMs the same of the bare proxy's
 * @property {number} appIdleMs the machine's idle CPU time (every core's) during a lookup through the app
 * @property {number} bareIdleMs the same during a lookup through the bare proxy
 * @property {number} cores the machine's cores, whose time the idle figures are of
 * @property {{ ms: number; ratio: number; cpuMs: number } | undefined} before the `--before` build's, when given
 * @property {{ ms: number; ratio: number; cpuMs: number }} offload the bare proxy through a worker thread's
 * @property {number} appFaults the app's minor page faults per lookup
 * @property {number} bareFaults the bare proxy's
 * @property {{ appMs: number; bareMs: number; ratio: number; appCpuMs: number; bareCpuMs: number; appFaults: number; bareFaults: number }} steady
 *   the same two with STEADY_MALLOC, in the same rounds
 */

/**
 * @param {{ serverJs: string; beforeJs?: string; quick: boolean; log: (...args: unknown[]) => void; runs?: number }} options
 * @returns {Promise<PlainFigures>}
 */
export async function runPlainBench({ serverJs, beforeJs, quick, log, runs = quick ? 3 : 21 }) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'cl-bench-plain-'));
  /** @type {import('./spawn-server.mjs').SpawnedServer[]} */
  const servers = [];
  /** @param {string[]} args @param {NodeJS.ProcessEnv} [env] */
  const start = async (args, env = {}) => {
    const server = spawnServer(args, { cwd: tmp, env: { HOST: '127.0.0.1', ...env }, echoStderr: true });
    servers.push(server);
    return { url: await server.url, pid: server.child.pid ?? 0 };
  };
  try {
    log(`Measuring a ${PLAIN_MB} MB plain lookup through the app and through a bare Node.js proxy…`);
    const upstream = await start([path.join(root, 'scripts/plain-upstream.mjs'), String(PLAIN_MB), KEY]);
    const CONFIG_FILE = writeConfigFile(tmp, { signIn: PROXY_SIGN_IN, limits: { lookupsPerMinute: 0, batchIdsPerMinute: 0 } });
    /** @param {string} entry @param {string} name @param {NodeJS.ProcessEnv} [env] */
    const appAt = (entry, name, env = {}) =>
      start([entry], {
        ...env,
        PORT: '0',
        KYC_BASE_URL: upstream.url,
        KYC_CLIENT_ID: CLIENT_ID,
        KYC_API_KEY: KEY,
        CONFIG_FILE,
        AUDIT_LOG: path.join(tmp, `audit-${name}.jsonl`),
      });
    const appHeaders = {
      'x-candidate-lookup': '1',
      'x-forwarded-user': 'bench',
      'x-forwarded-role': 'compliance',
      accept: 'application/json',
    };
    /** @param {{ url: string; pid: number }} server @param {Record<string, string>} headers */
    const side = (server, headers) => ({
      server,
      headers,
      times: /** @type {number[]} */ ([]),
      cpu: 0,
      system: 0,
      idle: 0,
      faults: 0,
      bytes: 0,
    });
    const bareProxy = path.join(root, 'scripts/bare-proxy.mjs');
    const steady = { GLIBC_TUNABLES: STEADY_MALLOC };
    const sides = [
      side(await appAt(serverJs, 'now'), appHeaders),
      side(await start([bareProxy, upstream.url]), { authorization: KEY }),
      side(await start([bareProxy, upstream.url, 'worker']), { authorization: KEY }),
      side(await appAt(serverJs, 'steady', steady), appHeaders),
      side(await start([bareProxy, upstream.url], steady), { authorization: KEY }),
    ];
    if (beforeJs) sides.push(side(await appAt(beforeJs, 'before'), appHeaders));
    const lookup = '/api/candidates/refId/plain-1';
    // Two of each first: the JIT warmed, the upstream's body paged in.
    for (let i = 0; i < 2; i++) for (const side of sides) await firstByteGet(`${side.server.url}${lookup}`, side.headers);
    for (let i = 0; i < runs; i++) {
      for (const side of i % 2 ? [...sides].reverse() : sides) {
        const before = cpuMs(side.server.pid);
        const systemBefore = systemCpuMs(side.server.pid);
        const faultsBefore = minorFaults(side.server.pid);
        const idleBefore = machineIdleMs();
        const answer = await firstByteGet(`${side.server.url}${lookup}`, side.headers);
        side.idle += machineIdleMs() - idleBefore;
        side.cpu += cpuMs(side.server.pid) - before;
        side.system += systemCpuMs(side.server.pid) - systemBefore;
        side.faults += minorFaults(side.server.pid) - faultsBefore;
        side.times.push(answer.ms);
        side.bytes = answer.bytes;
      }
    }
    return figuresOf(sides, runs);
  } finally {
    for (const server of servers) server.stop();
  }
}

/**
 * @typedef {{ times: number[]; cpu: number; system: number; idle: number; faults: number; bytes: number }} Side
 * @param {Side[]} sides the app, the bare proxy, the bare proxy through a worker thread, the app and the bare
 *   proxy with STEADY_MALLOC, and the `--before` build when given
 * @param {number} runs
 * @returns {PlainFigures}
 */
function figuresOf(sides, runs) {
  const [through, reference, offload, steadyApp, steadyBare, earlier] = /** @type {[Side, Side, Side, Side, Side, Side | undefined]} */ (
    sides
  );
  for (const other of [through, offload, steadyApp, steadyBare]) {
    if (other.bytes !== reference.bytes) throw new Error(`a proxy answered ${other.bytes} bytes, the bare proxy ${reference.bytes}`);
  }
  const appMs = median(through.times);
  const bareMs = median(reference.times);
  const paired = through.times.map((ms, i) => ms / (reference.times[i] ?? Number.NaN));
  /** @param {Side} other */
  const against = (other) => ({ ms: median(other.times), ratio: median(other.times) / bareMs, cpuMs: other.cpu / runs });
  return {
    bytes: through.bytes,
    runs,
    appMs,
    bareMs,
    ratio: appMs / bareMs,
    pairedRatio: median(paired),
    pairedSpread: [quantile(paired, 0.25), quantile(paired, 0.75)],
    appCpuMs: through.cpu / runs,
    bareCpuMs: reference.cpu / runs,
    appSystemMs: through.system / runs,
    bareSystemMs: reference.system / runs,
    appIdleMs: through.idle / runs,
    bareIdleMs: reference.idle / runs,
    cores: os.availableParallelism(),
    before: earlier && against(earlier),
    offload: against(offload),
    appFaults: through.faults / runs,
    bareFaults: reference.faults / runs,
    steady: {
      appMs: median(steadyApp.times),
      bareMs: median(steadyBare.times),
      ratio: median(steadyApp.times) / median(steadyBare.times),
      appCpuMs: steadyApp.cpu / runs,
      bareCpuMs: steadyBare.cpu / runs,
      appFaults: steadyApp.faults / runs,
      bareFaults: steadyBare.faults / runs,
    },
  };
}

/**
 * The table's rows: figure, value, target, verdict.
 * @param {PlainFigures} plain
 * @param {(ok: boolean) => string} verdict
 * @returns {string[][]}
 */
export function plainRows(plain, verdict) {
  const mb = (plain.bytes / 1024 / 1024).toFixed(1);
  return [
    [
      `12 plain ${mb} MB lookup: app / bare Node proxy (${plain.appMs.toFixed(0)} / ${plain.bareMs.toFixed(0)} ms)`,
      plain.ratio.toFixed(2),
      `<= ${PLAIN_TARGET}`,
      verdict(plain.ratio <= PLAIN_TARGET),
    ],
    [
      '12 the same, median of each round’s ratio (quartiles)',
      `${plain.pairedRatio.toFixed(2)} (${plain.pairedSpread.map((ratio) => ratio.toFixed(2)).join(' to ')})`,
      '',
      '',
    ],
    [
      '12 server CPU per lookup: app / bare Node proxy',
      `${(plain.appCpuMs / plain.bareCpuMs).toFixed(2)} (${plain.appCpuMs.toFixed(0)} / ${plain.bareCpuMs.toFixed(0)} ms)`,
      '',
      '',
    ],
    [
      '12 of that CPU, user / system (kernel: the sockets): app; bare Node proxy',
      `${(plain.appCpuMs - plain.appSystemMs).toFixed(0)} / ${plain.appSystemMs.toFixed(0)} ms; ${(plain.bareCpuMs - plain.bareSystemMs).toFixed(0)} / ${plain.bareSystemMs.toFixed(0)} ms`,
      '',
      '',
    ],
    [
      `12 the machine's idle CPU per lookup (${plain.cores} cores): app / bare Node proxy`,
      `${plain.appIdleMs.toFixed(0)} / ${plain.bareIdleMs.toFixed(0)} ms`,
      '',
      '',
    ],
    ['12 minor page faults per lookup: app / bare Node proxy', `${plain.appFaults.toFixed(0)} / ${plain.bareFaults.toFixed(0)}`, '', ''],
    [
      `12 the two with malloc keeping what it frees: app / bare (${plain.steady.appMs.toFixed(0)} / ${plain.steady.bareMs.toFixed(0)} ms)`,
      `${plain.steady.ratio.toFixed(2)} (CPU ${plain.steady.appCpuMs.toFixed(0)} / ${plain.steady.bareCpuMs.toFixed(0)} ms; faults ${plain.steady.appFaults.toFixed(0)} / ${plain.steady.bareFaults.toFixed(0)})`,
      '',
      '',
    ],
    [
      `12 the bare proxy, each chunk to a worker thread and back, no check (${plain.offload.ms.toFixed(0)} ms)`,
      `${plain.offload.ratio.toFixed(2)} (CPU ${plain.offload.cpuMs.toFixed(0)} ms)`,
      '',
      '',
    ],
    ...(plain.before
      ? [
          [`12 the --before build / bare Node proxy (${plain.before.ms.toFixed(0)} ms)`, plain.before.ratio.toFixed(2), '', ''],
          ['12 the --before build: server CPU per lookup', `${plain.before.cpuMs.toFixed(0)} ms`, '', ''],
        ]
      : []),
  ];
}
