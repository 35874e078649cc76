// @ts-check
// The load test's hostile phases (issue 9), each on a server of its own with the default limits:
// - a flood: one user sends invalid ids (512 NULs each) on 20 connections while a second user looks
//   candidates up twice a second; the audit file must grow by less than 5 MB, and the second user's
//   lookups must all succeed with p99 under 200 ms;
// - support lookups without a status key: 60 at once of a ~15 MB record, the server's peak memory
//   (RSS high-water mark) under 300 MB.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import credentials from '../src/server/sandbox/credentials.json' with { type: 'json' };
import { spawnServer } from './spawn-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
const APP = { 'x-candidate-lookup': '1' };
const verdict = (/** @type {boolean} */ met) => (met ? 'met' : 'MISSED');

/** @param {number} pid */
function highWaterMb(pid) {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/** @param {Record<string, string>} env */
async function start(env, script = 'dist/server/main.js') {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'cl-loadtest-hostile-'));
  const server = spawnServer([path.join(root, script)], {
    cwd: tmp,
    env: {
      HOST: '127.0.0.1',
      PORT: '0',
      AUTH_PROXY_USER_HEADER: 'X-Forwarded-User',
      AUTH_PROXY_ROLE_HEADER: 'X-Forwarded-Role',
      AUTH_PROXY_TRUSTED: '127.0.0.1/32',
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
 * @param {number} seconds
 * @returns {Promise<{ lines: string[]; errors: number }>}
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
  const before = sizeOf();
  const flood = autocannon({
    url,
    connections: 20,
    duration: seconds,
    headers: as('flooder'),
    requests: [{ method: 'GET', path: `/api/candidates/refId/${'%00'.repeat(512)}` }],
  });
  /** @type {number[]} */
  const latencies = [];
  let failed = 0;
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    const started = performance.now();
    const res = await fetch(`${url}/api/candidates/${sample.kind}/${encodeURIComponent(sample.id)}`, { headers: as('colleague') });
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    if (res.status !== 200) failed++;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const flooded = await flood;
  // Counted refusals are written when their minute ends, or when the server stops: stop it to see them.
  server.stop();
  await server.exited;
  const grownMb = (sizeOf() - before) / 1024 / 1024;
  const p99 = percentile(latencies, 99);
  return {
    lines: [
      `Hostile flood: ${flooded.requests.total} requests of one user with 512-NUL ids in ${seconds} s (${flooded.non2xx} refused)`,
      `  audit file grew ${grownMb.toFixed(2)} MB (target < 5 MB: ${verdict(grownMb < 5)})`,
      `  a second user's ${latencies.length} lookups meanwhile: ${failed} failed (target 0: ${verdict(failed === 0)}), p99 ${p99.toFixed(0)} ms (target < 200 ms: ${verdict(p99 < 200)})`,
    ],
    errors: failed,
  };
}

/**
 * @param {number} count
 * @returns {Promise<{ lines: string[]; errors: number }>}
 */
export async function supportMemoryPhase(count) {
  const sandbox = spawnServer([path.join(root, 'dist/server/sandbox.js')], {
    cwd: root,
    env: { SANDBOX_LARGE_IMAGES: '1', SANDBOX_PORT: '0', KYC_BASE_URL: '', HOST: '127.0.0.1' },
    echoStderr: true,
  });
  process.on('exit', sandbox.stop);
  const upstream = await sandbox.url;
  const { server, url } = await start({
    KYC_BASE_URL: upstream,
    KYC_CLIENT_ID: credentials.clientId,
    KYC_API_KEY: credentials.keys.full, // no status key: support lookups are read and reduced here
    RATE_LIMIT_PER_MINUTE: '0',
    UPSTREAM_MAX_IN_FLIGHT_PER_USER: '0',
  });
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
  return {
    lines: [
      `Support lookups without a status key: ${count} at once of a ${(upstreamBytes / 1024 / 1024).toFixed(1)} MB record, ${seconds.toFixed(1)} s, ${failed} failed`,
      `  server peak memory (RSS high-water mark) ${peakMb.toFixed(0)} MB, ${baselineMb.toFixed(0)} MB before them (target < 300 MB: ${verdict(peakMb < 300)})`,
    ],
    errors: failed,
  };
}
