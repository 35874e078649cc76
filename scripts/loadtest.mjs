// @ts-check
// `npm run loadtest`: the production server on its sandbox under load, with autocannon.
// 200 connections on status lookups (support role), then 20 on full lookups (compliance role), each
// for LOADTEST_SECONDS (default 20). Prints requests/s, p50 and p99 latency, errors, and the server's
// peak memory (resident set size, read from /proc). Then the hostile phases (loadtest-hostile.mjs): a
// 20 s flood from two attackers (invalid ids; made-up environments and exports) against the audit log
// and a colleague's lookups (shorter only when LOADTEST_SECONDS is under 20, as in CI's short form), and 60
// support lookups at once of a 15 MB record without a status key (LOADTEST_SUPPORT_LOOKUPS, 0 skips it).
// Then the live updates (loadtest-events.mjs): 200 event streams while 500 events a second are published
// for 10 s, through the hub of a harness (the webhook receiver is not in it). Then the slow connections
// (loadtest-slow.mjs): 3000 clients nobody signed in as, holding slow headers and webhook bodies from
// 127.0.0.2 and up, while /healthz and a signed-in lookup are asked from 127.0.0.1 (issue 31).
// Exits 1 if any request that should have succeeded failed, or any target was missed (a short run does
// not judge the colleague's p99, the slow connections' p99s, the events' fan-out p99 nor the "=" picture's
// time ratio: timing is never a pass or fail in CI, whose machine is busy).
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { FLOOD_SECONDS, floodPhase, supportMemoryPhase } from './loadtest-hostile.mjs';
import { partsMemoryPhase } from './loadtest-parts.mjs';
import { eventsPhase } from './loadtest-events.mjs';
import { slowConnectionsPhase } from './loadtest-slow.mjs';
import { asManyUsers } from './load-users.mjs';
import { PROXY_SIGN_IN, writeConfigFile } from './config-file.mjs';
import { spawnServer } from './spawn-server.mjs';

/** @import { ApiMeta } from '../src/kyc/contract/api.ts' */

const root = path.resolve(import.meta.dirname, '..');
const seconds = Number(process.env.LOADTEST_SECONDS ?? 20);
const phases = [
  { name: 'status lookups', role: 'support', connections: Number(process.env.LOADTEST_STATUS_CONNECTIONS ?? 200) },
  { name: 'full lookups', role: 'compliance', connections: Number(process.env.LOADTEST_FULL_CONNECTIONS ?? 20) },
];
const TARGET_PEAK_MB = 300;

const tmp = mkdtempSync(path.join(os.tmpdir(), 'cl-loadtest-'));
const server = spawnServer([path.join(root, 'dist/server/main.js')], {
  cwd: tmp, // no .env of the developer's
  env: {
    HOST: '127.0.0.1',
    PORT: '0',
    CONFIG_FILE: writeConfigFile(tmp, { signIn: PROXY_SIGN_IN, limits: { lookupsPerMinute: 0 } }),
    AUDIT_LOG: path.join(tmp, 'audit.jsonl'),
  },
  echoStderr: true,
});
process.on('exit', server.stop);
const url = await server.url;
const pid = server.child.pid;

let peakKb = 0;
const rssKb = () => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
};
const sampler = setInterval(() => {
  peakKb = Math.max(peakKb, rssKb());
}, 50);

/** @type {ApiMeta} */
const meta = await (
  await fetch(`${url}/api/meta`, {
    // Every API call carries the header the server requires of the app (X-Candidate-Lookup).
    headers: { 'x-candidate-lookup': '1', 'x-forwarded-user': 'loadtest', 'x-forwarded-role': 'support' },
  })
).json();
const paths = (meta.samples ?? []).map((s) => `/api/candidates/${s.kind}/${encodeURIComponent(s.id)}`);

console.log(
  `Load test: ${url}, ${seconds} s per phase, ${paths.length} sample candidates, Node ${process.version}, ${os.cpus().length} cores`,
);
const rows = [];
for (const phase of phases) {
  const result = await autocannon({
    url,
    connections: phase.connections,
    duration: seconds,
    headers: {
      'x-candidate-lookup': '1',
      'x-forwarded-role': phase.role,
      accept: 'application/json',
    },
    // One user per connection: many people at once, each within the per-user bound.
    requests: asManyUsers(
      paths.map((p) => ({ method: /** @type {const} */ ('GET'), path: p })),
      `loadtest-${phase.role}`,
      phase.connections,
    ),
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  rows.push({
    phase: phase.name,
    connections: phase.connections,
    'requests/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'MB/s': (result.throughput.average / 1024 / 1024).toFixed(1),
    requests: result.requests.total,
    errors,
  });
}
clearInterval(sampler);
peakKb = Math.max(peakKb, rssKb());
const hwm = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
server.stop();

console.table(rows);
const peakMb = Math.max(peakKb, hwm) / 1024;
const hostile = [await floodPhase(Math.min(seconds, FLOOD_SECONDS))];
const supportLookups = Number(process.env.LOADTEST_SUPPORT_LOOKUPS ?? 60);
if (supportLookups > 0) hostile.push(await supportMemoryPhase(supportLookups));
hostile.push(await partsMemoryPhase(seconds));
hostile.push(await eventsPhase(seconds < 20));
hostile.push(await slowConnectionsPhase(seconds));
for (const phase of hostile) for (const line of phase.lines) console.log(line);
const totalErrors = rows.reduce((sum, row) => sum + row.errors, 0) + hostile.reduce((sum, phase) => sum + phase.errors, 0);
const missed = hostile.flatMap((phase) => phase.missed);
if (peakMb >= TARGET_PEAK_MB) missed.push('server peak memory');
if (totalErrors > 0) missed.push('errors');
console.log(
  `Server peak memory (RSS high-water mark): ${peakMb.toFixed(0)} MB (target < ${TARGET_PEAK_MB} MB: ${peakMb < TARGET_PEAK_MB ? 'met' : 'MISSED'})`,
);
console.log(`Errors: ${totalErrors} (target 0: ${totalErrors === 0 ? 'met' : 'MISSED'})`);
console.log(missed.length === 0 ? 'Every target met.' : `Targets MISSED: ${missed.join(', ')}.`);
process.exit(missed.length === 0 ? 0 : 1);
