// @ts-check
// `npm run bench`: Candidate Lookup against the physical limit of its data path, in real Chromium.
// The production server, pointed at the sandbox in large-image mode (four ~3 MB JPEGs per candidate),
// is measured for: lookup to paint against a baseline page, proxy overhead, page memory over 30 lookups,
// bundle size, and issue 20's answer engine against the figures before it (bench-engine.mjs). Every
// figure is a median of repeated runs; comparisons are ratios measured side by side in the same run.
// Prints two tables and writes the figures as JSON to bench-results/.
// `npm run bench -- --quick` is the short form CI runs so the benchmark cannot rot (no timing asserted).
// `npm run bench -- --queue`: issue 32's queue at scale alone (bench-queue.mjs; with --quick, 2 000 waiting).
// `npm run bench -- --plain`: issue 35's 32 MB plain lookup against a bare Node.js proxy alone (bench-plain.mjs);
// with `--before <main.js>`, a build that reads CONFIG_FILE beside them.
// `npm run bench -- --certificate`: a certificate's raw JSON layout before and after, in Chromium, alone (bench-certificate.mjs).
// `npm run bench -- --fair`: another user's lookups while one user reads 100 000 small identities in parts, alone (bench-fair.mjs).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import sandboxCredentials from '../src/server/sandbox/credentials.json' with { type: 'json' };
import { BEFORE, compareLookups, engineRows, NOISE, tableLines } from './bench-engine.mjs';
import { measureSlowLink, slowLinkFigures, slowLinkRows } from './bench-slow-link.mjs';
import { lookupRate, partsMemory } from './bench-server.mjs';
import { queueRows, runQueueScenario } from './bench-queue.mjs';
import { chromiumLaunchOptions } from './chromium.mjs';
import { measurePartsMemory } from './loadtest-parts.mjs';
import { PROXY_SIGN_IN, writeConfigFile } from './config-file.mjs';
import { spawnServer } from './spawn-server.mjs';
import { auditRows, runAuditBench } from './bench-audit.mjs';
import { plainRows, runPlainBench } from './bench-plain.mjs';
import { certificateRows, runCertificateBench } from './bench-certificate.mjs';
import { FAIR_HEADER, fairRows, runFairBench } from './bench-fair.mjs';

/** @import { SpawnedServer } from './spawn-server.mjs' */
/** What the probe in every page records (performance.now() times), read back through `window.__bench`. */
/** @typedef {{ submit: number; header: number; images: number; expected: number }} Probe */
/** @typedef {{ header: number; images: number }} PaintTimes */

const root = path.resolve(import.meta.dirname, '..');
const quick = process.argv.includes('--quick');
// `--slow-link`: issue 25's slow-link scenario alone (bench-previews.mjs), beside `--before`'s build when given.
const slowLinkOnly = process.argv.includes('--slow-link');
// `--queue`: issue 32's queue at scale alone (bench-queue.mjs), which every run ends with too.
const queueOnly = process.argv.includes('--queue');
// `--audit`: issue 34's audit page alone (bench-audit.mjs): its p99 over PostgreSQL and over the files.
const auditOnly = process.argv.includes('--audit');
// `--plain`: issue 35's 32 MB plain lookup through the app against a bare Node.js proxy alone (bench-plain.mjs).
const plainOnly = process.argv.includes('--plain');
// `--certificate`: a certificate's raw JSON layout, the walk it was against the layout now (bench-certificate.mjs), alone.
const certificateOnly = process.argv.includes('--certificate');
// `--fair`: another user's lookups and /healthz while one user reads 1 and 4 records of 100 000 small identities in parts (bench-fair.mjs).
const fairOnly = process.argv.includes('--fair');
// The machine is shared: its load when the run began and ended goes with the figures.
const loadAtStart = os.loadavg()[0] ?? 0;
// `--before <main.js>`: the server of a build before issue 20, run beside this one for its engine's figures.
const beforeIndex = process.argv.indexOf('--before');
const beforeEntry = beforeIndex > 0 ? path.resolve(process.argv[beforeIndex + 1] ?? '') : undefined;
const RUNS = quick ? 1 : 5;
const MEMORY_LOOKUPS = quick ? 3 : 30;
const RATE_SECONDS = quick ? 2 : 5;
const RATE_CONNECTIONS = 50;
const out = path.join(root, 'bench-results');
const vite = path.join(root, 'node_modules/vite/bin/vite.js');
const SANDBOX = { clientId: sandboxCredentials.clientId, ...sandboxCredentials.keys };
/** @param {number[]} values */
const median = (values) => {
  /** @type {number[]} */
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
/** @param {unknown[]} args */
const log = (...args) => console.error(...args);
if (certificateOnly) {
  // Bundles its own modules: no build of the app needed.
  printCertificate(await runCertificateBench({ quick, log }));
  process.exit(0);
}

// --- Build: the app as shipped (for bundle figures), and a copy with the baseline page beside it.
/**
 * @param {string[]} args
 * @param {Record<string, string>} [env]
 */
function build(args, env = {}) {
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'error', ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) throw new Error(`vite build ${args.join(' ')} failed`);
}
log('Building…');
if (!slowLinkOnly && !auditOnly && !queueOnly && !plainOnly) build(['--outDir', path.join(out, 'dist-app/client'), '--emptyOutDir']);
if (!auditOnly && !plainOnly) build(['--outDir', path.join(out, 'dist/client'), '--emptyOutDir'], { BENCH_BASELINE: '1' });
build(['--ssr', '--outDir', path.join(out, 'dist/server'), '--emptyOutDir']);
if (auditOnly || plainOnly) {
  // The server serves a client folder: an empty one will do, its API is what is measured.
  mkdirSync(path.join(out, 'dist/client'), { recursive: true });
}
if (plainOnly) {
  const plain = await runPlainBench({ serverJs: path.join(out, 'dist/server/main.js'), beforeJs: beforeEntry, quick, log });
  printPlain(plain);
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'plain-latest.json'), `${JSON.stringify({ date: new Date().toISOString(), quick, plain }, null, 2)}\n`);
  process.exit(0);
}
if (fairOnly) {
  const fair = await runFairBench({ entry: beforeEntry ?? path.join(out, 'dist/server/main.js'), count: quick ? 20_000 : 100_000 });
  console.log(`Candidate Lookup benchmark: one user's heavy answers and everyone else's (load ${os.loadavg()[0]?.toFixed(1)})`);
  for (const line of [...FAIR_HEADER, ...fairRows(fair)]) console.log(line);
  process.exit(0);
}
if (auditOnly) {
  const audit = await runAuditBench({ serverJs: path.join(out, 'dist/server/main.js'), quick, log });
  console.log(`Candidate Lookup benchmark: the audit page${quick ? ' (quick: far fewer lines, no targets judged)' : ''}`);
  const rows = auditRows(audit, (ok) => (ok ? 'met' : 'MISSED'));
  for (const text of tableLines(['figure', 'value', 'target', ''], quick ? rows.map((row) => [...row.slice(0, 3), '']) : rows))
    console.log(text);
  process.exit(0);
}
if (slowLinkOnly) {
  const { runPreviewsScenario } = await import('./bench-previews.mjs');
  await runPreviewsScenario({ serverJs: path.join(out, 'dist/server/main.js'), beforeJs: beforeEntry, out, quick, log });
  process.exit(0);
}
if (queueOnly) {
  const queue = await runQueueScenario({ serverJs: path.join(out, 'dist/server/main.js'), quick, log });
  printQueue(queue);
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'queue-latest.json'), `${JSON.stringify({ date: new Date().toISOString(), quick, queue }, null, 2)}\n`);
  process.exit(0);
}

/** A certificate's layout, as a table of its own. @param {Awaited<ReturnType<typeof runCertificateBench>>} figures */
function printCertificate(figures) {
  console.log(
    `A certificate's raw JSON layout in Chromium, before (stringifyKeepingNumbers) and after (layOutCertificate)${quick ? ' (quick: one run each)' : ', medians of 5'}:`,
  );
  for (const text of tableLines(['figure', 'before', 'after', ''], certificateRows(figures))) console.log(text);
}

/** Issue 32's figures, as a table of their own. @param {Awaited<ReturnType<typeof runQueueScenario>>} queue */
function printQueue(queue) {
  console.log(`Issue 32's queue at scale (${queue.tabs.map((tab) => `${tab.size} ${tab.tab}, ${tab.shape} list`).join('; ')}):`);
  const judged = queueRows(queue, (ok) => (ok ? 'met' : 'MISSED'));
  for (const text of tableLines(
    ['queue (issue 32)', 'value', 'target', ''],
    quick ? judged.map((row) => [...row.slice(0, 3), '']) : judged,
  )) {
    console.log(text);
  }
}

/** Issue 35's figures, as a table of their own. @param {import('./bench-plain.mjs').PlainFigures} plain */
function printPlain(plain) {
  console.log(
    `Issue 35's plain lookup: medians of ${plain.runs} lookups each, alternating; load average ${loadAtStart.toFixed(1)} at the start, ${(os.loadavg()[0] ?? 0).toFixed(1)} at the end${quick ? ' (quick: no target judged)' : ''}:`,
  );
  const judged = plainRows(plain, (ok) => (ok ? 'met' : 'MISSED'));
  for (const text of tableLines(
    ['plain lookup (issue 35)', 'value', 'target', ''],
    quick ? judged.map((row) => [...row.slice(0, 3), '']) : judged,
  ))
    console.log(text);
}

// --- Servers: the sandbox alone (large images), and the production server pointed at it as a remote service.
const tmp = mkdtempSync(path.join(os.tmpdir(), 'cl-bench-'));
/** @type {SpawnedServer[]} */
const servers = [];
process.on('exit', () => {
  for (const server of servers) server.stop();
});
/**
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {Promise<{ url: string; pid: number }>}
 */
async function start(args, env) {
  const server = spawnServer(args, { cwd: tmp, env: env && { HOST: '127.0.0.1', ...env }, echoStderr: true });
  servers.push(server);
  return { url: await server.url, pid: server.child.pid ?? 0 };
}
log('Starting the sandbox in large-image mode…');
const sandbox = await start([path.join(out, 'dist/server/sandbox.js'), '--large-images', '--port', '0'], {});
const LIMITS = { lookupsPerMinute: 0, batchIdsPerMinute: 0 };
const CONFIG_FILE = writeConfigFile(tmp, { signIn: PROXY_SIGN_IN, limits: LIMITS });
// Issue 20's engine is measured alone: the same server with no previews (issue 25's, whose cost is printed beside).
const ENGINE_CONFIG_FILE = writeConfigFile(tmp, { signIn: PROXY_SIGN_IN, limits: { ...LIMITS, previewLookupsAtOnce: 0 } });
/** The same settings as the variables a build before CONFIG_FILE reads (`--before`). */
const BEFORE_CONFIG = {
  AUTH_PROXY_USER_HEADER: 'X-Forwarded-User',
  AUTH_PROXY_ROLE_HEADER: 'X-Forwarded-Role',
  AUTH_PROXY_TRUSTED: '127.0.0.1/32',
  RATE_LIMIT_PER_MINUTE: '0',
  RATE_LIMIT_BATCH_PER_MINUTE: '0',
};
let appsStarted = 0;
/**
 * Each app its own audit file: several run at once, and a second server on one file refuses to start
 * (two writers would break its hash chain).
 * @param {string} upstreamUrl
 * @param {boolean} [before] for the build before CONFIG_FILE
 */
const appEnv = (upstreamUrl, before = false) => ({
  PORT: '0',
  KYC_BASE_URL: upstreamUrl,
  KYC_CLIENT_ID: SANDBOX.clientId,
  KYC_API_KEY: SANDBOX.full,
  KYC_API_KEY_STATUS: SANDBOX.status,
  ...(before ? BEFORE_CONFIG : { CONFIG_FILE }),
  AUDIT_LOG: path.join(tmp, `audit-${++appsStarted}.jsonl`),
});
const app = await start([path.join(out, 'dist/server/main.js')], appEnv(sandbox.url));
const appEngine = await start([path.join(out, 'dist/server/main.js')], { ...appEnv(sandbox.url), CONFIG_FILE: ENGINE_CONFIG_FILE });
const appBefore = beforeEntry && (await start([beforeEntry], appEnv(sandbox.url, true)));
// A reference point: the least a Node.js proxy can do (scripts/bare-proxy.mjs).
const bare = await start([path.join(root, 'scripts/bare-proxy.mjs'), sandbox.url]);
// The identity-aware proxy's headers; direct API calls add the one the server requires of the app.
/** @param {'support' | 'compliance'} role */
const identity = (role) => ({ 'x-forwarded-user': 'bench', 'x-forwarded-role': role });
/** @param {'support' | 'compliance'} role */
const as = (role) => ({ 'x-candidate-lookup': '1', ...identity(role) });
/** @param {string} id */
const lookupPath = (id) => `/api/candidates/refId/${id}`;
/** @param {string} id */
const upstreamPath = (id) => `/kyc/1.0/connect/${SANDBOX.clientId}/refId/${id}`;

/**
 * @param {string} url
 * @param {http.OutgoingHttpHeaders} headers
 * @returns {Promise<{ ms: number; bytes: number }>}
 */
function timedGet(url, headers) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(url, { headers, agent: false }, (res) => {
        let bytes = 0;
        res.on('data', (chunk) => {
          bytes += chunk.length;
        });
        res.on('end', () =>
          res.statusCode === 200 ? resolve({ ms: performance.now() - started, bytes }) : reject(new Error(`${url}: ${res.statusCode}`)),
        );
      })
      .on('error', reject);
  });
}

// --- 2. Proxy overhead.
log('Measuring proxy overhead…');
await timedGet(`${sandbox.url}${upstreamPath('bench-01')}`, { authorization: SANDBOX.full }); // body built and cached
await timedGet(`${app.url}${lookupPath('bench-01')}`, as('compliance'));
/** @type {number[]} */
const direct = [];
/** @type {number[]} */
const proxied = [];
/** @type {number[]} */
const bareProxied = [];
/** @type {number[]} */
const beforeProxied = [];
let largeBytes = 0;
for (let i = 0; i < RUNS * 3; i++) {
  // Alternate the order, so neither side always runs on a warmer machine.
  /** @type {Array<() => Promise<unknown>>} */
  const pair = [
    () => timedGet(`${sandbox.url}${upstreamPath('bench-01')}`, { authorization: SANDBOX.full }).then((r) => direct.push(r.ms)),
    () =>
      timedGet(`${app.url}${lookupPath('bench-01')}`, as('compliance')).then((r) => {
        proxied.push(r.ms);
        largeBytes = r.bytes;
      }),
    () => timedGet(`${bare.url}${lookupPath('bench-01')}`, { authorization: SANDBOX.full }).then((r) => bareProxied.push(r.ms)),
  ];
  if (appBefore) {
    pair.push(() => timedGet(`${appBefore.url}${lookupPath('bench-01')}`, as('compliance')).then((r) => beforeProxied.push(r.ms)));
  }
  for (const run of i % 2 ? pair.reverse() : pair) await run();
}
// Issue 20's engine: the server's CPU per large lookup in parts and the time to its first byte (beside
// the build before it, when given).
/** @param {{ url: string; pid: number }} server @param {http.OutgoingHttpHeaders} headers */
const target = (server, headers) => ({ url: `${server.url}${lookupPath('bench-01')}`, pid: server.pid, headers });
const partsHeaders = { ...as('compliance'), accept: 'multipart/mixed, application/json;q=0.9' };
const partsRun = await compareLookups(
  {
    now: target(appEngine, partsHeaders),
    previews: target(app, partsHeaders),
    ...(appBefore ? { before: target(appBefore, partsHeaders) } : {}),
  },
  RUNS * 3,
);
const statusPaths = ['c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10', 'cust_000482', 'crm-55102', 'user-7781'];
/**
 * @param {string} url
 * @param {Record<string, string>} headers
 * @param {(id: string) => string} pathOf
 */
async function rate(url, headers, pathOf) {
  /** @type {import('autocannon').Request[]} */
  const requests = statusPaths.map((id) => ({ method: 'GET', path: pathOf(id) }));
  return lookupRate({ url, headers, requests, connections: RATE_CONNECTIONS, seconds: RATE_SECONDS });
}
const directRate = await rate(sandbox.url, { authorization: SANDBOX.status }, upstreamPath);
const proxiedRate = await rate(app.url, as('support'), lookupPath);
const bareRate = await rate(bare.url, { authorization: SANDBOX.status }, lookupPath);

// --- 5. A batch of 200 ids at status level, as the batch page sends it: ids the service has, a few unknown.
log('Measuring batch lookups…');
/** @param {string[]} ids @returns {Promise<{ ms: number; rows: number; found: number; errors: number }>} */
function timedBatch(ids) {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ kind: 'refId', ids });
    const started = performance.now();
    const req = http.request(`${app.url}/api/batch`, {
      method: 'POST',
      agent: false,
      headers: { ...as('support'), 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`batch: HTTP ${res.statusCode} ${text}`));
        const events = text
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line));
        const rows = events.filter((e) => e.type === 'row');
        // An unknown id is an answer, not an error; anything else that failed is.
        const errors = rows.filter((r) => !r.ok && r.code !== 'not_found').length;
        resolve({ ms: performance.now() - started, rows: rows.length, found: rows.filter((r) => r.ok).length, errors });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
/**
 * Every refId the service lists, from the applicants list through the app (100 a page): in large-image
 * mode the sandbox has 134 candidates, 90 of them only in the queue, nearly all with a refId.
 * @returns {Promise<string[]>}
 */
async function listedRefIds() {
  /** @type {string[]} */
  const ids = [];
  for (let skip = 0; ; skip += 100) {
    const response = await fetch(`${app.url}/api/applicants?skip=${skip}&limit=100`, { headers: as('support') });
    if (!response.ok) throw new Error(`applicants: HTTP ${response.status}`);
    /** @type {{ data: { records: Array<{ refId?: string }>; total: number } }} */
    const page = await response.json();
    for (const record of page.data.records) if (record.refId) ids.push(record.refId);
    if (page.data.records.length === 0 || skip + 100 >= page.data.total) return ids;
  }
}
// 200 real lookups: the listed refIds (repeated to make up the number, as a ticket export repeats ids),
// interleaved with a few unknown ones (a ticket export has those too). A batch of unknown ids measures 404s.
const BATCH_SIZE = 200;
const BATCH_UNKNOWN = 5;
const knownIds = await listedRefIds();
if (knownIds.length < 100) throw new Error(`The sandbox lists ${knownIds.length} candidates with a refId: is it in large-image mode?`);
const batchIds = Array.from({ length: BATCH_SIZE - BATCH_UNKNOWN }, (_, i) => knownIds[i % knownIds.length] ?? '');
for (let i = 0; i < BATCH_UNKNOWN; i++) batchIds.splice(Math.floor(((i + 1) * BATCH_SIZE) / (BATCH_UNKNOWN + 1)), 0, `unknown-${i}`);
/** @type {Array<{ ms: number; rows: number; found: number; errors: number }>} */
const batches = [];
for (let i = 0; i < RUNS; i++) batches.push(await timedBatch(batchIds));

// --- 1 and 3. The browser.
log('Measuring in Chromium…');
const browser = await chromium.launch(chromiumLaunchOptions);
const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, extraHTTPHeaders: identity('compliance') });
// A probe in every page: the time of the form's submit, of the status header and timeline, of every picture shown.
await context.addInitScript(() => {
  /** @type {Probe} */
  const bench = { submit: 0, header: 0, images: 0, expected: 4 };
  /** @type {any} */ (window).__bench = bench;
  const tick = () => {
    const now = performance.now();
    if (!bench.header) {
      const viewer = document.querySelector('main h1') && document.querySelector('[aria-label="Status changes, oldest first"] li');
      const baseline = document.querySelector('#status')?.textContent;
      if (viewer || baseline) bench.header = now;
    }
    if (!bench.images) {
      const images = [...document.querySelectorAll('figure[data-attribute] img, #pictures img')].filter(
        (img) => img instanceof HTMLImageElement,
      );
      if (images.length >= bench.expected && images.every((img) => img.complete && img.naturalWidth > 0)) bench.images = now;
    }
    if (!bench.header || !bench.images) requestAnimationFrame(tick);
  };
  document.addEventListener(
    'submit',
    () => {
      Object.assign(bench, { submit: performance.now(), header: 0, images: 0 });
      requestAnimationFrame(tick);
    },
    true,
  );
});
const page = await context.newPage();
page.on('pageerror', (error) => log(`page error: ${error.message}`));

/**
 * @param {'viewer' | 'baseline'} kind
 * @param {string} id
 * @returns {Promise<PaintTimes>}
 */
async function lookupToPaint(kind, id) {
  await page.goto(`${app.url}${kind === 'viewer' ? '/' : '/test/bench/baseline.html'}`);
  const input = kind === 'viewer' ? page.getByLabel('refId to look up') : page.locator('input[name=id]');
  await input.fill(id);
  await input.press('Enter');
  // These functions run in the page, where the probe is the global `__bench`.
  await page.waitForFunction(
    () => /** @type {any} */ (window).__bench.images > 0 && /** @type {any} */ (window).__bench.header > 0,
    undefined,
    {
      timeout: 60_000,
      polling: 100,
    },
  );
  /** @type {Probe} */
  const bench = await page.evaluate(() => /** @type {any} */ (window).__bench);
  return { header: bench.header - bench.submit, images: bench.images - bench.submit };
}
await lookupToPaint('viewer', 'bench-02'); // warm-up: the candidate page's chunk, the JIT
await lookupToPaint('baseline', 'bench-02');
/** @type {PaintTimes[]} */
const viewer = [];
/** @type {PaintTimes[]} */
const baseline = [];
for (let i = 0; i < RUNS * 2; i++) {
  const id = `bench-${String(3 + i).padStart(2, '0')}`;
  const pair = [
    () => lookupToPaint('viewer', id).then((r) => viewer.push(r)),
    () => lookupToPaint('baseline', id).then((r) => baseline.push(r)),
  ];
  for (const run of i % 2 ? pair.reverse() : pair) await run();
}

// Memory: one tab, lookups of different large candidates through the header's form, as a reviewer goes.
const memoryPage = await context.newPage();
const cdp = await context.newCDPSession(memoryPage);
const browserCdp = await browser.newBrowserCDPSession();
async function readMemory() {
  await cdp.send('HeapProfiler.collectGarbage');
  await new Promise((resolve) => setTimeout(resolve, 300));
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const { processInfo } = await browserCdp.send('SystemInfo.getProcessInfo');
  let rendererKb = 0;
  for (const process of processInfo.filter((p) => p.type === 'renderer')) {
    try {
      rendererKb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${process.id}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // the process went away
    }
  }
  return { heapMb: usedSize / 1024 / 1024, rendererMb: rendererKb / 1024 };
}
await memoryPage.goto(`${app.url}/`);
/** @param {number} n */
const memoryLookup = async (n) => {
  // A textbox, or a combobox once recent lookups give it suggestions: found by its label.
  const input = memoryPage.getByRole('search', { name: 'Look up a candidate' }).getByLabel('refId to look up');
  await input.fill(`bench-${String(n).padStart(2, '0')}`);
  await input.press('Enter');
  await memoryPage.waitForFunction(() => /** @type {any} */ (window).__bench.images > 0, undefined, { timeout: 60_000, polling: 100 });
};
await memoryLookup(1);
const afterOne = await readMemory();
for (let n = 2; n <= MEMORY_LOOKUPS; n++) await memoryLookup(n);
const afterMany = await readMemory();
// --- 6. A real network (issue 12): the candidate page on an emulated 20 Mbit/s, 40 ms link, answered in parts.
log('Measuring on an emulated slow link…');
const slowIds = ['bench-31', 'bench-32', 'bench-31', 'bench-32', 'bench-31'].slice(0, RUNS);
const slow = await measureSlowLink(browser, { appUrl: app.url, ids: slowIds, headers: identity('compliance'), expectedPictures: 4 });
const slowPlain = await measureSlowLink(browser, {
  appUrl: app.url,
  ids: slowIds.slice(0, quick ? 1 : 3),
  headers: identity('compliance'),
  expectedPictures: 4,
  page: 'baseline',
});
await browser.close();

// --- 7. The proxy's memory for 10 lookups in parts at once, on a server that has answered nothing else.
log('Measuring server memory for 10 lookups in parts at once…');
const fresh = spawnServer([path.join(out, 'dist/server/main.js')], { cwd: tmp, env: { HOST: '127.0.0.1', ...appEnv(sandbox.url) } });
servers.push(fresh);
const freshUrl = await fresh.url;
const partsIds = Array.from({ length: 10 }, (_, i) => `bench-${String(i + 1).padStart(2, '0')}`);
const serverMemory = await partsMemory({ appUrl: freshUrl, pid: fresh.child.pid ?? 0, ids: partsIds, headers: as('compliance') });

// --- 8. A large plain-JSON lookup (no parts asked, as curl makes it) through the proxy and straight
// from an upstream that builds each answer afresh, as a real service does.
log('Measuring plain JSON against an upstream that builds each answer afresh…');
const freshUpstream = await start([path.join(root, 'scripts/fresh-upstream.mjs'), sandbox.url, SANDBOX.clientId, SANDBOX.full, 'bench-01']);
const freshApp = await start([path.join(out, 'dist/server/main.js')], appEnv(freshUpstream.url));
const freshBare = await start([path.join(root, 'scripts/bare-proxy.mjs'), freshUpstream.url]);
/** @type {number[]} */
const freshDirect = [];
/** @type {number[]} */
const freshProxied = [];
/** @type {number[]} */
const freshBareProxied = [];
const plainHeaders = { ...as('compliance'), accept: 'application/json' };
await timedGet(`${freshApp.url}${lookupPath('bench-01')}`, plainHeaders); // warm-up
for (let i = 0; i < RUNS * 3; i++) {
  const pair = [
    () => timedGet(`${freshUpstream.url}${upstreamPath('bench-01')}`, { authorization: SANDBOX.full }).then((r) => freshDirect.push(r.ms)),
    () => timedGet(`${freshApp.url}${lookupPath('bench-01')}`, plainHeaders).then((r) => freshProxied.push(r.ms)),
    () => timedGet(`${freshBare.url}${lookupPath('bench-01')}`, { authorization: SANDBOX.full }).then((r) => freshBareProxied.push(r.ms)),
  ];
  for (const run of i % 2 ? pair.reverse() : pair) await run();
}
// Issue 20: the CPU each proxy spends on a plain answer, which the one tokenizer now reads on the way.
const freshBefore = beforeEntry && (await start([beforeEntry], appEnv(freshUpstream.url, true)));
const plainRun = await compareLookups(
  {
    now: target(freshApp, plainHeaders),
    bare: target(freshBare, { authorization: SANDBOX.full }),
    ...(freshBefore ? { before: target(freshBefore, plainHeaders) } : {}),
  },
  RUNS * 3,
);

// --- 9. Issue 20's hostile answers in parts (scripts/loadtest-parts.mjs) on a server of their own:
// eight 60 MB number arrays at once from two users (the quick form: 16 MB, and a 4 MB "=" picture).
log('Measuring hostile answers in parts…');
const hostile = await measurePartsMemory({
  entry: path.join(out, 'dist/server/main.js'),
  arrayMb: quick ? 16 : 60,
  pictureMb: quick ? 4 : 32,
});
if (!hostile.alive || hostile.parts + hostile.busy !== hostile.concurrent) {
  throw new Error(`hostile answers in parts: ${hostile.parts} in parts, ${hostile.busy} 503, server up: ${hostile.alive}`);
}

// --- 11. Issue 34's audit page: a search by user and by candidate over PostgreSQL and over the files.
// Its own servers, the others stopped first: the machine is shared.
for (const server of servers) server.stop();
const audit = await runAuditBench({ serverJs: path.join(out, 'dist/server/main.js'), quick, log });
// --- 10. Issue 32's queue at scale (bench-queue.mjs): its own servers, one then two on a redis-server (the others stopped above).
const queue = await runQueueScenario({ serverJs: path.join(out, 'dist/server/main.js'), quick, log });
// --- 12. Issue 35's 32 MB plain lookup against a bare Node.js proxy (bench-plain.mjs): its own servers.
// Without --before's build: that one may be older than CONFIG_FILE; `--plain --before` takes one that reads it.
const plain = await runPlainBench({ serverJs: path.join(out, 'dist/server/main.js'), quick, log });
// --- 13. A certificate's raw JSON layout, before and after (bench-certificate.mjs): in a browser of its own.
const certificate = await runCertificateBench({ quick, log });

// --- 4. Bundle, as shipped.
const client = path.join(out, 'dist-app/client');
const indexHtml = readFileSync(path.join(client, 'index.html'), 'utf8');
const initialFiles = [...indexHtml.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1] ?? '');
/** @param {string} file */
const gzipOf = (file) => gzipSync(readFileSync(path.join(client, file))).length;
const allJs = readdirSync(path.join(client, 'assets'))
  .filter((f) => f.endsWith('.js'))
  .map((f) => `assets/${f}`);
const bundle = {
  initialJsGzipKb: initialFiles.filter((f) => f.endsWith('.js')).reduce((sum, f) => sum + gzipOf(f), 0) / 1024,
  initialCssGzipKb: initialFiles.filter((f) => f.endsWith('.css')).reduce((sum, f) => sum + gzipOf(f), 0) / 1024,
  totalJsGzipKb: allJs.reduce((sum, f) => sum + gzipOf(f), 0) / 1024,
};

// --- Report.
const figures = {
  date: new Date().toISOString(),
  quick,
  machine: { cores: os.cpus().length, node: process.version, load: { start: loadAtStart, end: os.loadavg()[0] ?? 0 } },
  lookupToPaint: {
    runs: viewer.length,
    responseMb: largeBytes / 1024 / 1024,
    viewerHeaderMs: median(viewer.map((r) => r.header)),
    viewerImagesMs: median(viewer.map((r) => r.images)),
    baselineImagesMs: median(baseline.map((r) => r.images)),
    viewerOverBaseline: median(viewer.map((r, i) => r.images / (baseline[i]?.images ?? Number.NaN))),
    headerOverImages: median(viewer.map((r) => r.header / r.images)),
  },
  proxy: {
    largeDirectMs: median(direct),
    largeProxiedMs: median(proxied),
    largeProxiedOverDirect: median(proxied) / median(direct),
    largeBareProxyMs: median(bareProxied),
    largeBareProxyOverDirect: median(bareProxied) / median(direct),
    statusDirectPerSecond: directRate,
    statusProxiedPerSecond: proxiedRate,
    statusProxiedOverDirect: proxiedRate / directRate,
    statusBareProxyPerSecond: bareRate,
    statusBareProxyOverDirect: bareRate / directRate,
    connections: RATE_CONNECTIONS,
  },
  memory: {
    lookups: MEMORY_LOOKUPS,
    heapAfterOneMb: afterOne.heapMb,
    heapAfterManyMb: afterMany.heapMb,
    heapRatio: afterMany.heapMb / afterOne.heapMb,
    rendererAfterOneMb: afterOne.rendererMb,
    rendererAfterManyMb: afterMany.rendererMb,
  },
  bundle,
  batch: {
    ids: batchIds.length,
    medianMs: median(batches.map((b) => b.ms)),
    rows: Math.min(...batches.map((b) => b.rows)),
    found: Math.min(...batches.map((b) => b.found)),
    unknown: BATCH_UNKNOWN,
    errors: batches.reduce((sum, b) => sum + b.errors, 0),
  },
  slowLink: slowLinkFigures(slow, largeBytes, slowPlain),
  serverMemory,
  plainFresh: {
    directMs: median(freshDirect),
    proxiedMs: median(freshProxied),
    proxiedOverDirect: median(freshProxied) / median(freshDirect),
    bareOverDirect: median(freshBareProxied) / median(freshDirect),
  },
  engine: {
    noise: NOISE,
    recorded: BEFORE,
    beforeBuild: beforeEntry,
    parts: partsRun,
    plain: plainRun,
    largeProxyOverBare: median(proxied) / median(bareProxied),
    largeBeforeOverBare: appBefore ? median(beforeProxied) / median(bareProxied) : undefined,
    upstreamBytes: largeBytes,
    hostile,
  },
  queue,
  audit,
  plain,
  certificate,
};
mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, 'latest.json'), `${JSON.stringify(figures, null, 2)}\n`);
writeFileSync(path.join(out, `bench-${figures.date.replace(/[:.]/g, '-')}.json`), `${JSON.stringify(figures, null, 2)}\n`);

/**
 * @param {number} n
 * @param {number} [digits]
 */
const f = (n, digits = 0) => n.toFixed(digits);
/** @param {boolean} ok */
const verdict = (ok) => (ok ? 'met' : 'MISSED');
/** @type {string[][]} */
const rows = [
  ['1a lookup to status header + timeline (median)', `${f(figures.lookupToPaint.viewerHeaderMs)} ms`, '', ''],
  ['1b lookup to every picture shown: viewer', `${f(figures.lookupToPaint.viewerImagesMs)} ms`, '', ''],
  ['1b lookup to every picture shown: baseline', `${f(figures.lookupToPaint.baselineImagesMs)} ms`, '', ''],
  [
    '1b viewer / baseline',
    f(figures.lookupToPaint.viewerOverBaseline, 2),
    '<= 1.0',
    verdict(figures.lookupToPaint.viewerOverBaseline <= 1.0),
  ],
  [
    '1 (a) / (b): header before pictures',
    f(figures.lookupToPaint.headerOverImages, 2),
    '< 1',
    verdict(figures.lookupToPaint.headerOverImages < 1),
  ],
  [`2 large lookup (${f(figures.lookupToPaint.responseMb, 1)} MB): direct`, `${f(figures.proxy.largeDirectMs, 1)} ms`, '', ''],
  ['2 large lookup: through the proxy', `${f(figures.proxy.largeProxiedMs, 1)} ms`, '', ''],
  [
    '2 large lookup: proxy / direct',
    f(figures.proxy.largeProxiedOverDirect, 2),
    '<= 1.15',
    verdict(figures.proxy.largeProxiedOverDirect <= 1.15),
  ],
  ['2 large lookup: bare Node proxy / direct (reference)', f(figures.proxy.largeBareProxyOverDirect, 2), '', ''],
  [`2 status lookups/s at ${RATE_CONNECTIONS} connections: direct`, f(figures.proxy.statusDirectPerSecond), '', ''],
  ['2 status lookups/s: through the proxy', f(figures.proxy.statusProxiedPerSecond), '', ''],
  [
    '2 status lookups/s: proxy / direct',
    f(figures.proxy.statusProxiedOverDirect, 2),
    '>= 0.7',
    verdict(figures.proxy.statusProxiedOverDirect >= 0.7),
  ],
  ['2 status lookups/s: bare Node proxy (reference)', f(figures.proxy.statusBareProxyPerSecond), '', ''],
  ['2 status lookups/s: bare Node proxy / direct', f(figures.proxy.statusBareProxyOverDirect, 2), '', ''],
  ['3 JS heap after 1 lookup', `${f(figures.memory.heapAfterOneMb, 1)} MB`, '', ''],
  [`3 JS heap after ${MEMORY_LOOKUPS} lookups`, `${f(figures.memory.heapAfterManyMb, 1)} MB`, '', ''],
  [`3 heap after ${MEMORY_LOOKUPS} / after 1`, f(figures.memory.heapRatio, 2), '<= 1.1', verdict(figures.memory.heapRatio <= 1.1)],
  [
    `3 renderer memory after 1 / after ${MEMORY_LOOKUPS}`,
    `${f(figures.memory.rendererAfterOneMb)} / ${f(figures.memory.rendererAfterManyMb)} MB`,
    '',
    '',
  ],
  ['4 initial JS (gzip)', `${f(bundle.initialJsGzipKb, 1)} kB`, '<= 100 kB', verdict(bundle.initialJsGzipKb <= 100)],
  ['4 initial CSS (gzip)', `${f(bundle.initialCssGzipKb, 1)} kB`, '', ''],
  ['4 total JS (gzip)', `${f(bundle.totalJsGzipKb, 1)} kB`, '', ''],
  [
    `5 batch of ${figures.batch.ids} ids, status level (median)`,
    `${f(figures.batch.medianMs)} ms`,
    '< 10000 ms',
    verdict(figures.batch.medianMs < 10_000),
  ],
  [
    `5 batch: errors (every row an answer; ${figures.batch.found} found, ${figures.batch.unknown} unknown)`,
    `${figures.batch.errors}`,
    '0',
    verdict(
      figures.batch.errors === 0 &&
        figures.batch.rows === figures.batch.ids &&
        figures.batch.found === figures.batch.ids - figures.batch.unknown,
    ),
  ],
  ...slowLinkRows(figures.slowLink, figures.serverMemory, figures.plainFresh, verdict),
  ...auditRows(audit, verdict),
];
console.log(
  `Candidate Lookup benchmark${quick ? ' (quick: 1 run, no targets judged)' : ''}, ${figures.machine.cores} cores, Node ${figures.machine.node}, medians of ${figures.lookupToPaint.runs} runs, load average ${figures.machine.load.start.toFixed(1)} at the start, ${figures.machine.load.end.toFixed(1)} at the end`,
);
for (const text of tableLines(['figure', 'value', 'target', ''], quick ? rows.map((row) => [...row.slice(0, 3), '']) : rows))
  console.log(text);
console.log(
  `Issue 20's answer engine against the figures before it (docs/performance.md), allowed the run-to-run noise it states (a third)${beforeEntry ? `; the build before it in this run: ${beforeEntry}` : ''}${quick ? `; quick: ${RUNS * 3} lookups each, hostile case reduced to ${hostile.arrayMb} MB, indicative only` : ''}:`,
);
for (const text of tableLines(
  ['issue 20 (answer engine)', 'now', 'before (recorded)', 'before (this run)', 'change', 'allowed', ''],
  engineRows(figures.engine),
))
  console.log(text);
printQueue(queue);
printPlain(plain);
printCertificate(certificate);
console.log(`Figures written to ${path.relative(root, path.join(out, 'latest.json'))}`);
process.exit(0);
