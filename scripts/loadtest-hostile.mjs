// @ts-check
// The load test's hostile phases (issue 9), each on a server of its own with the default limits:
// - a flood of 20 s: one user sends invalid ids (512 NULs each) on 20 connections, a second attacker
//   rotates made-up environment names (/api/e/<random>/candidates/…) and records exports
//   (POST /api/export) on 20 more, while a colleague looks candidates up twice a second; the audit
//   file must grow by less than 5 MB, and the colleague's lookups must all succeed with p99 under
//   200 ms;
// - support lookups without a status key: 60 at once of a ~15 MB record, the server's peak memory
//   (RSS high-water mark) under 300 MB.
// Each phase returns its lines, its failed requests and the targets it missed.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import credentials from '../src/server/sandbox/credentials.json' with { type: 'json' };
import { PROXY_SIGN_IN, writeConfigFile } from './config-file.mjs';
import { spawnServer } from './spawn-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
const APP = { 'x-candidate-lookup': '1' };
const verdict = (/** @type {boolean} */ met) => (met ? 'met' : 'MISSED');
/** The flood lasts 20 s. */
export const FLOOD_SECONDS = 20;

/** @typedef {{ lines: string[]; errors: number; missed: string[] }} PhaseResult */

/**
 * A target's verdict, and its name noted among the missed ones when it is missed.
 * @param {string[]} missed @param {string} name @param {boolean} met
 */
function judged(missed, name, met) {
  if (!met) missed.push(name);
  return verdict(met);
}

/** @param {number} pid */
function highWaterMb(pid) {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/**
 * @param {Record<string, string>} env
 * @param {object} [limits] CONFIG_FILE's limits
 */
async function start(env, limits = {}) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'cl-loadtest-hostile-'));
  const server = spawnServer([path.join(root, 'dist/server/main.js')], {
    cwd: tmp,
    env: {
      HOST: '127.0.0.1',
      PORT: '0',
      CONFIG_FILE: writeConfigFile(tmp, { signIn: PROXY_SIGN_IN, limits }),
      AUDIT_LOG: path.join(tmp, 'audit.jsonl'),
      ...env,
    },
    echoStderr: true,
  });
  process.on('exit', server.stop);
  return { server, url: await server.url, auditLog: path.join(tmp, 'audit.jsonl') };
}

/** @param {number[]} values @param {number} p */
const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] ?? 0;

/**
 * The second attacker's requests, in turn: a lookup in an environment whose name is new each time, and
 * an export of a long id (each export that is taken is an audit line).
 * @returns {import('autocannon').Request[]}
 */
function intruderRequests() {
  return [
    {
      method: 'GET',
      setupRequest: (/** @type {any} */ raw) => ({
        ...raw,
        path: `/api/e/${randomBytes(6).toString('hex')}/candidates/refId/${'%00'.repeat(512)}`,
      }),
    },
    {
      method: 'POST',
      path: '/api/export',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ what: 'summary', kind: 'refId', id: '\0'.repeat(1024) }),
    },
  ];
}

/**
 * @param {number} seconds the flood's length: FLOOD_SECONDS, or less in a short run
 * @returns {Promise<PhaseResult>}
 */
export async function floodPhase(seconds) {
  const { server, url, auditLog } = await start({});
  const sizeOf = () => {
    try {
      return statSync(auditLog).size;
    } catch {
      return 0;
    }
  };
  const as = (/** @type {string} */ user) => ({ ...APP, 'x-forwarded-user': user, 'x-forwarded-role': 'compliance' });
  const meta = await (await fetch(`${url}/api/meta`, { headers: as('colleague') })).json();
  const sample = meta.samples[0];
  const lookup = () => fetch(`${url}/api/candidates/${sample.kind}/${encodeURIComponent(sample.id)}`, { headers: as('colleague') });
  await (await lookup()).arrayBuffer(); // before the flood, unmeasured: the first connection to the service
  const before = sizeOf();
  const flood = autocannon({
    url,
    connections: 20,
    duration: seconds,
    headers: as('flooder'),
    requests: [{ method: 'GET', path: `/api/candidates/refId/${'%00'.repeat(512)}` }],
  });
  const intruder = autocannon({ url, connections: 20, duration: seconds, headers: as('intruder'), requests: intruderRequests() });
  /** @type {number[]} */
  const latencies = [];
  let failed = 0;
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    const started = performance.now();
    const res = await lookup();
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    if (res.status !== 200) failed++;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const [flooded, intruded] = await Promise.all([flood, intruder]);
  // Counted refusals are written when their minute ends, or when the server stops: stop it to see them.
  server.stop();
  await server.exited;
  const grownMb = (sizeOf() - before) / 1024 / 1024;
  const p99 = percentile(latencies, 99);
  /** @type {string[]} */
  const missed = [];
  const shortened =
    seconds < FLOOD_SECONDS
      ? ` (shortened from ${FLOOD_SECONDS} s by LOADTEST_SECONDS=${seconds}: the 5 MB target is for ${FLOOD_SECONDS} s)`
      : '';
  // A p99 of the handful of lookups a short run makes is one slow sample on a busy machine: printed, not
  // judged (CI runs the short form, and timing is never a pass or fail there).
  const p99Verdict = shortened ? `${verdict(p99 < 200)}, not judged in a short run` : judged(missed, "colleague's p99", p99 < 200);
  return {
    lines: [
      `Hostile flood, ${seconds} s${shortened}:`,
      `  one attacker's ${flooded.requests.total} requests with 512-NUL ids (${flooded.non2xx} refused)`,
      `  a second attacker's ${intruded.requests.total} requests, made-up environment names and exports in turn (${intruded.non2xx} refused)`,
      `  audit file grew ${grownMb.toFixed(2)} MB (target < 5 MB: ${judged(missed, 'audit file growth', grownMb < 5)})`,
      `  a colleague's ${latencies.length} lookups meanwhile: ${failed} failed (target 0: ${judged(missed, "colleague's failed lookups", failed === 0)}), p99 ${p99.toFixed(0)} ms (target < 200 ms: ${p99Verdict})`,
    ],
    errors: failed,
    missed,
  };
}

/**
 * @param {number} count
 * @returns {Promise<PhaseResult>}
 */
export async function supportMemoryPhase(count) {
  const sandbox = spawnServer([path.join(root, 'dist/server/sandbox.js'), '--large-images', '--port', '0'], {
    cwd: root,
    env: { HOST: '127.0.0.1' },
    echoStderr: true,
  });
  process.on('exit', sandbox.stop);
  const upstream = await sandbox.url;
  const { server, url } = await start(
    {
      KYC_BASE_URL: upstream,
      KYC_CLIENT_ID: credentials.clientId,
      KYC_API_KEY: credentials.keys.full, // no status key: support lookups are read and reduced here
    },
    { lookupsPerMinute: 0, upstreamInFlightPerUser: 0 },
  );
  const id = 'bench-01';
  const upstreamBytes = (
    await (
      await fetch(`${url}/api/candidates/refId/${id}`, { headers: { ...APP, 'x-forwarded-user': 'c', 'x-forwarded-role': 'compliance' } })
    ).arrayBuffer()
  ).byteLength;
  const baselineMb = highWaterMb(/** @type {number} */ (server.child.pid));
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const res = await fetch(`${url}/api/candidates/refId/${id}`, {
        headers: { ...APP, 'x-forwarded-user': `support-${i}`, 'x-forwarded-role': 'support' },
      });
      const body = await res.text();
      return res.status === 200 && !body.includes('"identities"');
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const peakMb = highWaterMb(/** @type {number} */ (server.child.pid));
  server.stop();
  sandbox.stop();
  const failed = answers.filter((ok) => !ok).length;
  /** @type {string[]} */
  const missed = [];
  return {
    lines: [
      `Support lookups without a status key: ${count} at once of a ${(upstreamBytes / 1024 / 1024).toFixed(1)} MB record, ${seconds.toFixed(1)} s, ${failed} failed`,
      `  server peak memory (RSS high-water mark) ${peakMb.toFixed(0)} MB, ${baselineMb.toFixed(0)} MB before them (target < 300 MB: ${judged(missed, 'support lookups peak memory', peakMb < 300)})`,
    ],
    errors: failed,
    missed,
  };
}
