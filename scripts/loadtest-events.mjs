// @ts-check
// The live updates' phase of `npm run loadtest` (issue 22): STREAMS open event streams (200 users, one
// each) while the server publishes RATE events a second for SECONDS (500 and 10): fan-out p99 (publish to
// arrival at the client) under 200 ms, the server's peak memory (RSS high-water mark) under 300 MB, and
// no event lost (every stream received every event, once). The webhook receiver is not in it: the
// server is a harness (loadtest-events-server.mjs, bundled from the sources here) whose test-only route
// publishes through the hub directly. Run alone with `node scripts/loadtest-events.mjs`.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { build } from 'rolldown';
import { spawnServer } from './spawn-server.mjs';

const STREAMS = Number(process.env.LOADTEST_EVENT_STREAMS ?? 200);
const RATE = Number(process.env.LOADTEST_EVENTS_PER_SECOND ?? 500);
const SECONDS = Number(process.env.LOADTEST_EVENT_SECONDS ?? 10);
const TARGET_P99_MS = 200;
const TARGET_PEAK_MB = 300;
/** After the last publish, how long the streams may take to receive the rest before it counts as lost. */
const DRAIN_MS = 5000;

/** @param {number} pid */
const highWaterMb = (pid) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/**
 * CPU seconds a process has used (user and system, from /proc): on a shared machine a missed p99 with
 * little CPU used says the process waited for a core, not that fan-out is slow.
 * @param {number} pid
 */
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/** The harness, bundled from the TypeScript sources into dist/ (its npm dependencies stay imports, found from there). */
async function bundleHarness() {
  const out = path.join(import.meta.dirname, '..', 'dist', 'loadtest', 'events-harness.mjs');
  await build({
    input: path.join(import.meta.dirname, 'loadtest-events-server.mjs'),
    platform: 'node',
    external: (id) => !id.startsWith('.') && !path.isAbsolute(id),
    output: { file: out, format: 'esm' },
    logLevel: 'silent',
  });
  return out;
}

/**
 * One event stream as a browser's EventSource holds it: counts each event by its number (a second copy
 * is a duplicate) and keeps its fan-out time.
 * @param {string} url @param {number} user @param {number} total @param {Float64Array} latencies @param {{ n: number }} received
 */
function openStream(url, user, total, latencies, received) {
  const seen = new Uint8Array(total);
  const stream = { seen, duplicates: 0, status: 0, close: () => {} };
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${url}/api/events`,
      { agent: false, headers: { 'sec-fetch-site': 'same-origin', 'x-forwarded-user': `stream-${user}`, 'x-forwarded-role': 'support' } },
      (res) => {
        stream.status = res.statusCode ?? 0;
        stream.close = () => req.destroy();
        let pending = '';
        res.setEncoding('utf8');
        // Read without JSON.parse: this process reads every stream, and must not be what falls behind.
        res.on('data', (/** @type {string} */ chunk) => {
          const now = Date.now();
          const text = pending + chunk;
          const last = text.lastIndexOf('\n\n');
          pending = last < 0 ? text : text.slice(last + 2);
          if (last < 0) return;
          let at = text.indexOf('"refId":"load-');
          while (at >= 0 && at < last) {
            const n = Number.parseInt(text.slice(at + 14, text.indexOf('"', at + 14)), 10);
            const stamp = text.indexOf('"at":"', at) + 6;
            if (seen[n]) stream.duplicates++;
            else seen[n] = 1;
            if (received.n < latencies.length) latencies[received.n] = now - Date.parse(text.slice(stamp, stamp + 24));
            received.n++;
            at = text.indexOf('"refId":"load-', stamp);
          }
        });
        resolve(stream);
      },
    );
    req.on('error', reject);
  });
}

/**
 * @param {boolean} [short] CI's short run (LOADTEST_SECONDS under 20): the fan-out p99 is printed, not
 *   judged (timing is never a pass or fail in CI); memory, losses and repeats are judged in every run.
 * @returns {Promise<{ lines: string[]; errors: number; missed: string[] }>}
 */
export async function eventsPhase(short = false) {
  const server = spawnServer([await bundleHarness()], {
    env: { ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}) },
    echoStderr: true,
  });
  try {
    const url = await server.url;
    const total = RATE * SECONDS;
    const latencies = new Float64Array(total * STREAMS);
    const received = { n: 0 };
    const streams = await Promise.all(Array.from({ length: STREAMS }, (_, i) => openStream(url, i, total, latencies, received)));
    const refused = streams.filter((s) => s.status !== 200).length;
    await fetch(`${url}/loadtest/publish?rate=${RATE}&seconds=${SECONDS}`, { method: 'POST' });
    const deadline = Date.now() + DRAIN_MS;
    while (received.n < total * STREAMS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const pid = /** @type {number} */ (server.child.pid);
    const [peakMb, serverCpu] = [highWaterMb(pid), cpuSeconds(pid)];
    const [load] = os.loadavg();
    for (const stream of streams) stream.close();
    const sorted = latencies.subarray(0, Math.min(received.n, latencies.length)).sort();
    const p = (/** @type {number} */ q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN;
    const lost = streams.reduce(
      (sum, s) => sum + s.seen.length - s.seen.reduce((/** @type {number} */ a, /** @type {number} */ b) => a + b, 0),
      0,
    );
    const duplicates = streams.reduce((sum, s) => sum + s.duplicates, 0);
    const verdict = (/** @type {boolean} */ ok) => (ok ? 'met' : 'MISSED');
    const missed = [];
    if (!short && !(p(0.99) < TARGET_P99_MS)) missed.push('event fan-out p99');
    if (peakMb >= TARGET_PEAK_MB) missed.push('event streams peak memory');
    if (lost > 0 || duplicates > 0) missed.push('events lost or repeated');
    return {
      lines: [
        `Live events: ${STREAMS} streams, ${RATE} events/s for ${SECONDS} s (${total} events, ${received.n} received; published through the hub by the harness)`,
        `  fan-out p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${sorted.at(-1)} ms (target p99 < ${TARGET_P99_MS} ms: ${verdict(p(0.99) < TARGET_P99_MS)}${short ? ', not judged in a short run' : ''})`,
        `  server CPU ${serverCpu.toFixed(1)} s over the ${SECONDS} s; load average ${load?.toFixed(1)} on ${os.cpus().length} cores`,
        `  server peak memory (RSS high-water mark): ${peakMb.toFixed(0)} MB (target < ${TARGET_PEAK_MB} MB: ${verdict(peakMb < TARGET_PEAK_MB)})`,
        `  lost ${lost}, repeated ${duplicates} (target 0: ${verdict(lost === 0 && duplicates === 0)})`,
      ],
      errors: refused,
      missed,
    };
  } finally {
    server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const phase = await eventsPhase();
  for (const line of phase.lines) console.log(line);
  process.exit(phase.missed.length === 0 && phase.errors === 0 ? 0 : 1);
}
