// @ts-check
// `npm run bench -- --slow-link`: issue 25's scenario alone. The candidate page on the emulated office
// link (20 Mbit/s, 40 ms) looking up a candidate of four ~6 MB JPEGs (about 32 MB as base64 JSON), from
// an upstream in this process that keeps the body it made. Measured from pressing Enter: the status
// header and timeline, every card showing a picture (its preview), every card showing its full picture;
// the bytes that crossed the link against the service's answer; the server's CPU per lookup in parts
// (previews included: its preview processes' CPU is counted with it); and /healthz's p99 while four such lookups are
// reduced at once. `--before <main.js>` runs an earlier build (with its dist/client beside it) against the
// same upstream, alternating with this one: today's figures, measured in the same run.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { LINK, measureSlowLink, slowLinkFigures } from './bench-slow-link.mjs';
import { NOISE } from './bench-engine.mjs';
import { lookupRate, timedGet } from './bench-server.mjs';
import { chromiumLaunchOptions } from './chromium.mjs';
import { PROXY_SIGN_IN, writeConfigFile } from './config-file.mjs';
import { spawnServer } from './spawn-server.mjs';

const CLIENT_ID = 'bench-previews';
const KEY = 'bench-previews-key-7f3a9c';
/** The status-level key: the service answers it the status fields only, a few hundred bytes. */
const STATUS_KEY = 'bench-previews-status-key-2b8e';
const REF_ID = 'previews-1';
const IDENTITY = { 'x-forwarded-user': 'bench', 'x-forwarded-role': 'compliance' };
const IN_PARTS = { 'x-candidate-lookup': '1', ...IDENTITY, accept: 'multipart/mixed, application/json;q=0.9', 'accept-encoding': 'gzip' };

/** A phone camera's 12 megapixels of fine noise: about 6 MB as JPEG, as a real document photo weighs. */
/** @param {number} width @param {number} height */
async function photo(width, height) {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .blur(0.6)
    .jpeg({ quality: 82 })
    .toBuffer();
}

/** The service's answer: the status fields, a few identity fields, four pictures (two of them upright). */
async function candidateBody() {
  /** @type {Record<string, [number, number]>} */
  const sizes = { passport: [4000, 3000], selfie: [3000, 4000], selfie_national_id: [3000, 4000], proof_of_address: [4000, 3000] };
  /** @type {Record<string, { type: string; value: string }>} */
  const identities = { given_name: { type: 'string', value: 'Bench' }, family_name: { type: 'string', value: 'Previews' } };
  for (const [name, [width, height]] of Object.entries(sizes)) {
    identities[name] = { type: 'base64', value: (await photo(width, height)).toString('base64') };
  }
  const data = {
    status: 'approved',
    refId: REF_ID,
    recordId: '6650c0de0123456789abcd25',
    isArchived: false,
    blockPassID: 'bp-bench-previews',
    submitCount: 1,
    waitingDate: '2026-11-20T09:00:00.000Z',
    inreviewDate: '2026-11-20T09:05:00.000Z',
    approvedDate: '2026-11-20T10:00:00.000Z',
    identities,
  };
  return Buffer.from(JSON.stringify({ status: 'success', data }));
}

/** @param {Buffer} body */
function startUpstream(body) {
  const { identities: _, ...statusFields } = JSON.parse(body.toString()).data;
  const statusBody = Buffer.from(JSON.stringify({ status: 'success', data: statusFields }));
  const server = http.createServer((req, res) => {
    const known = req.url === `/kyc/1.0/connect/${CLIENT_ID}/refId/${REF_ID}`;
    const answer = !known
      ? undefined
      : req.headers.authorization === KEY
        ? body
        : req.headers.authorization === STATUS_KEY
          ? statusBody
          : undefined;
    res.writeHead(answer ? 200 : 404, { 'content-type': 'application/json', 'content-length': answer ? answer.length : 2 });
    res.end(answer ?? '{}');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      resolve({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
    }),
  );
}

/** @param {string} file */
const readOrEmpty = (file) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/**
 * @param {number} pid the server's user and system CPU so far, in ms (clock ticks of 10 ms), with its
 * preview processes' (issue 31: sharp runs there): those that ended, and those still running
 */
function cpuMs(pid) {
  /** @param {number} of @param {boolean} withEnded */
  const ticks = (of, withEnded) => {
    const stat = readOrEmpty(`/proc/${of}/stat`);
    if (!stat) return 0;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]) + (withEnded ? Number(fields[13]) + Number(fields[14]) : 0);
  };
  const children = readOrEmpty(`/proc/${pid}/task/${pid}/children`).split(' ').filter(Boolean).map(Number);
  return (ticks(pid, true) + children.reduce((sum, child) => sum + ticks(child, false), 0)) * 10;
}

/** @param {number[]} values @param {number} q */
function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

/** Lookups in parts over loopback one after another: the server's CPU for each. @param {{ url: string; pid: number }} app @param {number} n */
async function cpuPerLookup(app, n) {
  /** @type {number[]} */
  const each = [];
  for (let i = 0; i < n; i++) {
    const before = cpuMs(app.pid);
    const answer = await timedGet(`${app.url}/api/candidates/refId/${REF_ID}`, IN_PARTS);
    if (answer.status !== 200) throw new Error(`a lookup in parts answered ${answer.status}`);
    // The previews' threads may finish a moment after the last byte is read.
    await new Promise((resolve) => setTimeout(resolve, 50));
    each.push(cpuMs(app.pid) - before);
  }
  return quantile(each, 0.5);
}

/** /healthz asked again and again while four lookups in parts of the candidate are answered at once. @param {{ url: string }} app */
async function healthzDuringLookups(app) {
  let running = 4;
  const lookups = Array.from({ length: 4 }, () =>
    timedGet(`${app.url}/api/candidates/refId/${REF_ID}`, IN_PARTS).finally(() => {
      running--;
    }),
  );
  /** @type {number[]} */
  const latencies = [];
  while (running > 0) latencies.push((await timedGet(`${app.url}/healthz`, {})).ms);
  await Promise.all(lookups);
  return { p99: quantile(latencies, 0.99), samples: latencies.length };
}

/**
 * Support users' status lookups a second (20 connections, one user each, for `seconds`): alone, then while
 * four lookups in parts of the candidate (previews and all) are answered again and again. Issue 25: the
 * previews must not cut the status lookups' throughput by more than the run-to-run noise.
 * @param {{ url: string }} app @param {number} seconds
 */
async function statusRateDuringPreviews(app, seconds) {
  const rate = () =>
    lookupRate({
      url: app.url,
      headers: { 'x-candidate-lookup': '1', 'x-forwarded-role': 'support' },
      requests: [{ method: 'GET', path: `/api/candidates/refId/${REF_ID}` }],
      connections: 20,
      seconds,
      user: 'bench-support',
    });
  const alone = await rate();
  let running = true;
  let inParts = 0;
  const keepLooking = async () => {
    while (running) {
      const answer = await timedGet(`${app.url}/api/candidates/refId/${REF_ID}`, IN_PARTS);
      if (answer.status !== 200) throw new Error(`a lookup in parts answered ${answer.status}`);
      inParts++;
    }
  };
  const lookups = Array.from({ length: 4 }, keepLooking);
  const during = await rate();
  running = false;
  await Promise.all(lookups);
  return { alone, during, inParts, seconds };
}

/**
 * @param {{ serverJs: string; beforeJs?: string; out: string; quick: boolean; log: (...args: unknown[]) => void }} options
 */
export async function runPreviewsScenario({ serverJs, beforeJs, out, quick, log }) {
  log('Making the candidate: four ~6 MB JPEGs…');
  const body = await candidateBody();
  const upstream = /** @type {{ url: string; close: () => void }} */ (await startUpstream(body));
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'cl-bench-previews-'));
  const config = writeConfigFile(tmp, { signIn: PROXY_SIGN_IN, limits: { lookupsPerMinute: 0, batchIdsPerMinute: 0 } });
  /** @param {string} entry @param {string} name */
  const start = async (entry, name) => {
    const env = {
      HOST: '127.0.0.1',
      PORT: '0',
      KYC_BASE_URL: upstream.url,
      KYC_CLIENT_ID: CLIENT_ID,
      KYC_API_KEY: KEY,
      KYC_API_KEY_STATUS: STATUS_KEY,
      CONFIG_FILE: config,
    };
    const server = spawnServer([entry], { cwd: tmp, env: { ...env, AUDIT_LOG: path.join(tmp, `audit-${name}.jsonl`) }, echoStderr: true });
    return { name, server, url: await server.url, pid: server.child.pid ?? 0 };
  };
  const sides = [await start(serverJs, 'now'), ...(beforeJs ? [await start(beforeJs, 'today')] : [])];
  try {
    const browser = await chromium.launch(chromiumLaunchOptions);
    /** @type {Record<string, import('./bench-slow-link.mjs').SlowLookup[]>} */
    const runs = { now: [], today: [] };
    for (let i = 0; i < (quick ? 1 : 3); i++) {
      // Alternating which goes first, so that neither always meets a machine warmed by the other.
      for (const side of i % 2 ? [...sides].reverse() : sides) {
        log(`Slow link, ${side.name}, run ${i + 1}…`);
        const [run] = await measureSlowLink(browser, { appUrl: side.url, ids: [REF_ID], headers: IDENTITY, expectedPictures: 4 });
        if (run) runs[side.name]?.push(run);
      }
    }
    await browser.close();
    /** @type {Record<string, { cpuMs: number; healthz: { p99: number; samples: number }; statusRate: Awaited<ReturnType<typeof statusRateDuringPreviews>> }>} */
    const server = {};
    for (const side of sides) {
      log(`Server CPU, /healthz and status lookups during previews, ${side.name}…`);
      server[side.name] = {
        cpuMs: await cpuPerLookup(side, quick ? 2 : 8),
        healthz: await healthzDuringLookups(side),
        statusRate: await statusRateDuringPreviews(side, quick ? 2 : 8),
      };
    }
    const figures = {
      date: new Date().toISOString(),
      machine: { cores: os.cpus().length, node: process.version, load: os.loadavg()[0] ?? 0 },
      upstreamBytes: body.length,
      now: { ...slowLinkFigures(runs.now ?? [], body.length), ...server.now },
      today: beforeJs ? { ...slowLinkFigures(runs.today ?? [], body.length), ...server.today } : undefined,
    };
    writeFileSync(path.join(out, 'previews-latest.json'), `${JSON.stringify(figures, null, 2)}\n`);
    printTable(figures, quick);
  } finally {
    for (const side of sides) side.server.stop();
    upstream.close();
  }
}

/** @param {any} f @param {boolean} quick */
function printTable(f, quick) {
  const ms = (/** @type {number | undefined} */ n) => (n === undefined ? '—' : `${n.toFixed(0)} ms`);
  const t = f.today;
  const verdict = (/** @type {boolean} */ ok) => (quick ? '(quick: not judged)' : ok ? 'met' : 'MISSED');
  const mb = (/** @type {number} */ n) => `${(n / 1e6).toFixed(1)} MB`;
  const rows = [
    ['Enter → status header and timeline', ms(f.now.headerMs), ms(t?.headerMs), '≤ 300 ms', verdict(f.now.headerMs <= 300)],
    [
      'Enter → every preview (today: every picture, the first look)',
      ms(f.now.previewsMs),
      ms(t?.picturesMs),
      '≤ 1500 ms',
      verdict(f.now.previewsMs <= 1500),
    ],
    [
      'Enter → every full picture',
      ms(f.now.picturesMs),
      ms(t?.picturesMs),
      '≤ today (+5 %)',
      t ? verdict(f.now.picturesMs <= t.picturesMs * 1.05) : '(no --before)',
    ],
    [
      `bytes on the wire / the service's answer (${mb(f.upstreamBytes)})`,
      `${f.now.wireOverPlain.toFixed(2)} (${mb(f.now.wireBytes)})`,
      t ? `${t.wireOverPlain.toFixed(2)} (${mb(t.wireBytes)})` : '—',
      '≤ 0.78',
      verdict(f.now.wireOverPlain <= 0.78),
    ],
    ['server CPU per lookup in parts (loopback, median)', ms(f.now.cpuMs), ms(t?.cpuMs), "today's recorded: 72 ms per 15 MB", ''],
    [
      `status lookups/s during 4 lookups in parts at once / alone (${f.now.statusRate.inParts} in parts)`,
      `${(f.now.statusRate.during / f.now.statusRate.alone).toFixed(2)} (${f.now.statusRate.during.toFixed(0)} / ${f.now.statusRate.alone.toFixed(0)})`,
      t
        ? `${(t.statusRate.during / t.statusRate.alone).toFixed(2)} (${t.statusRate.during.toFixed(0)} / ${t.statusRate.alone.toFixed(0)})`
        : '—',
      t ? '≥ today − noise (⅓)' : '≥ 1 − noise (⅓)',
      verdict(f.now.statusRate.during / f.now.statusRate.alone >= (t ? t.statusRate.during / t.statusRate.alone : 1) * (1 - NOISE)),
    ],
    [
      `/healthz p99 while 4 lookups are answered (${f.now.healthz.samples} asks)`,
      ms(f.now.healthz.p99),
      ms(t?.healthz.p99),
      // Two cores: the bench's own upstream and clients share them with the server (docs/performance.md).
      t ? '≤ today + noise (⅓)' : '≤ 50 ms',
      verdict(f.now.healthz.p99 <= (t ? t.healthz.p99 * (1 + NOISE) : 50)),
    ],
  ];
  const head = ['figure', 'now', 'today (same run)', 'target', ''];
  const widths = head.map((_, i) => Math.max(...[head, ...rows].map((row) => String(row[i]).length)));
  const line = (/** @type {string[]} */ row) => `| ${row.map((cell, i) => String(cell).padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(
    `\nIssue 25, slow link (${LINK.mbitPerSecond} Mbit/s, ${LINK.rttMs} ms), ${f.now.runs} run(s) each, load ${f.machine.load.toFixed(1)}:`,
  );
  console.log([line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'));
}
