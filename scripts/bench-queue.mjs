// @ts-check
// `npm run bench -- --queue` (and the last part of every bench run, `--quick` too): issue 32's queue at
// scale. A fast fake KYC service in this process generates its list on the fly (100 000 waiting in the
// current documentation's shape, with their dates; 10 000 approved; 2 000 in review in the older notes'
// shape, without dates, so that the crawler looks each up), and the built server runs as one instance,
// then as two, on a real redis-server. Measured: the whole crawl (time, list pages, lookups), duplicate
// requests across instances, Redis memory per 1 000 candidates, then queue views as the page asks them
// (every tab's count, pages of 50) at 200 a second: the requests they cost the service, p50/p99,
// and the first page's order and the over-SLA count against the truth. `--quick`: 2 000 waiting.
// BENCH_QUEUE_OLDER=<n>: that many in review instead, to measure the lookups of a large older list.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { PROXY_SIGN_IN, writeConfigFile } from './config-file.mjs';
import { spawnServer } from './spawn-server.mjs';

const CLIENT_ID = 'bench-queue';
/** The candidates' dates are spread back from now: about half of the waiting are over the 48 h SLA. */
const BASE = Date.now();
/** Queue views a second: 200 reviewers with the queue open on a busy day (issue 32). */
const VIEW_RATE = 200;
const DAY = 86_400_000;
const IDENTITY = { 'x-candidate-lookup': '1', 'x-forwarded-user': 'bench', 'x-forwarded-role': 'support' };

/** @typedef {{ tab: string; prefix: string; size: number; shape: 'current' | 'older'; spreadDays: number }} Tab */

/** @param {boolean} quick @returns {Tab[]} */
function tabsOf(quick) {
  return [
    { tab: 'waiting', prefix: 'w', size: quick ? 2_000 : 100_000, shape: 'current', spreadDays: 4 },
    { tab: 'inreview', prefix: 'ir', size: Number(process.env.BENCH_QUEUE_OLDER ?? (quick ? 200 : 2_000)), shape: 'older', spreadDays: 3 },
    { tab: 'approved', prefix: 'ap', size: quick ? 300 : 10_000, shape: 'current', spreadDays: 60 },
  ];
}

/** The i-th candidate's date in its status: distinct, spread over `spreadDays`, not in the list's order (7919 is prime). */
const dateOf = (/** @type {Tab} */ tab, /** @type {number} */ i) => BASE - (((i * 7919) % tab.size) * tab.spreadDays * DAY) / tab.size;

/** The record the service holds for candidate `i` of `tab`, at status level. */
function recordOf(/** @type {Tab} */ tab, /** @type {number} */ i) {
  const id = `${tab.prefix}-${i}`;
  return {
    status: tab.tab,
    recordId: `rec-${id}`,
    refId: id,
    isArchived: false,
    blockPassID: `bp-${id}`,
    [`${tab.tab}Date`]: new Date(dateOf(tab, i)).toISOString(),
  };
}

/** As the list gives it: the current documentation's whole record without a recordId, or the older notes' `_id` without dates. */
function listedOf(/** @type {Tab} */ tab, /** @type {number} */ i) {
  const record = recordOf(tab, i);
  if (tab.shape === 'older')
    return { status: record.status, isArchived: false, _id: record.recordId, blockPassID: record.blockPassID, refId: record.refId };
  const { recordId: _recordId, ...rest } = record;
  return rest;
}

/** The fake service: its list and lookups made on the fly, every request counted. */
async function startService(/** @type {Tab[]} */ tabs) {
  const seen = {
    list: 0,
    lookups: 0,
    /** @type {Map<string, number>} */ ids: new Map(),
    /** @type {Map<string, number>} */ pages: new Map(),
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const [, , , , , kind, id] = url.pathname.split('/');
    const send = (/** @type {number} */ status, /** @type {unknown} */ body) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    if (kind === 'applicants') {
      seen.list++;
      seen.pages.set(url.pathname + url.search, (seen.pages.get(url.pathname + url.search) ?? 0) + 1);
      const listed = id ? tabs.filter((tab) => tab.tab === id) : tabs;
      const total = listed.reduce((sum, tab) => sum + tab.size, 0);
      const skip = Number(url.searchParams.get('skip') ?? 0);
      const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 100));
      const records = [];
      for (let at = skip; at < Math.min(total, skip + limit); at++) {
        let index = at;
        for (const tab of listed) {
          if (index < tab.size) {
            records.push(listedOf(tab, index));
            break;
          }
          index -= tab.size;
        }
      }
      return send(200, { status: 'success', data: { records, total, skip, limit } });
    }
    seen.lookups++;
    const key = decodeURIComponent(id ?? '');
    seen.ids.set(key, (seen.ids.get(key) ?? 0) + 1);
    const bare = kind === 'recordId' ? key.replace(/^rec-/, '') : key;
    const tab = tabs.find((one) => bare.startsWith(`${one.prefix}-`));
    const i = tab ? Number(bare.slice(tab.prefix.length + 1)) : Number.NaN;
    if (!tab || !(i >= 0 && i < tab.size)) return send(404, { status: 'error', code: 404, message: 'Resource not Found' });
    send(200, { status: 'success', data: recordOf(tab, i) });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {net.AddressInfo} */ (server.address());
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((resolve) => server.close(() => resolve(undefined))) };
}

/** A redis-server of this run's own on a free port, without persistence (REDIS_SERVER_PATH, as the tests find it). */
async function startRedisServer() {
  const binary = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';
  if (!existsSync(binary)) return undefined;
  const port = await new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = /** @type {net.AddressInfo} */ (probe.address());
      probe.close(() => resolve(free));
    });
  });
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  // Ready once it accepts a connection.
  for (let tries = 0; !(await accepts(Number(port))); tries++) {
    if (tries > 100) throw new Error(`redis-server did not start on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const redis = new Redis(url);
  redis.on('error', () => {});
  const stop = () => {
    redis.disconnect();
    child.kill('SIGTERM');
  };
  return { url, redis, stop };
}

/** @param {number} port @returns {Promise<boolean>} */
const accepts = (port) =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** @param {number[]} values @param {number} share */
const percentile = (values, share) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;
};

/** @param {http.Agent} agent @param {string} url @returns {Promise<{ ms: number; body: any }>} */
function getJson(agent, url) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(url, { agent, headers: IDENTITY }, (res) => {
        const chunks = /** @type {Buffer[]} */ ([]);
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) return reject(new Error(`${url}: ${res.statusCode} ${text.slice(0, 200)}`));
          resolve({ ms: performance.now() - started, body: JSON.parse(text) });
        });
      })
      .on('error', reject);
  });
}

/**
 * One phase: `instances` servers on the same Redis (or one in memory), from an empty index until every
 * tab is read whole and dated, then the views.
 * @param {{ serverJs: string; tabs: Tab[]; redis: Awaited<ReturnType<typeof startRedisServer>>; instances: number; views: number; log: (...args: unknown[]) => void }} options
 */
async function phase({ serverJs, tabs, redis, instances, views, log }) {
  const service = await startService(tabs);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-bench-queue-'));
  const CONFIG_FILE = writeConfigFile(dir, {
    environments: [
      {
        name: 'bench',
        label: 'Bench',
        baseUrl: service.url,
        clientId: CLIENT_ID,
        apiKeyEnv: 'BENCH_KEY',
        statusApiKeyEnv: 'BENCH_STATUS_KEY',
      },
    ],
    signIn: PROXY_SIGN_IN,
    limits: { lookupsPerMinute: 0, queueViewsPerMinute: 0, queueIndexLookupsPerSecond: 1000 },
  });
  if (redis) await redis.redis.flushall();
  const memoryBefore = redis ? await usedMemory(redis.redis) : 0;
  const started = performance.now();
  const servers = Array.from({ length: instances }, (_, n) =>
    spawnServer([serverJs], {
      cwd: dir,
      env: {
        HOST: '127.0.0.1',
        PORT: '0',
        CONFIG_FILE,
        BENCH_KEY: 'bench-queue-full-key',
        BENCH_STATUS_KEY: 'bench-queue-status-key',
        AUDIT_LOG: path.join(dir, `audit-${n}.jsonl`),
        ...(redis ? { REDIS_URL: redis.url } : {}),
      },
      echoStderr: true,
    }),
  );
  try {
    const urls = await Promise.all(servers.map((server) => server.url));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 200 });
    const crawlMs = await crawled(agent, urls[0] ?? '', tabs, started, log);
    const crawl = { ms: crawlMs, listPages: service.seen.list, lookups: service.seen.lookups };
    const duplicates = {
      lookups: [...service.seen.ids.values()].reduce((sum, n) => sum + n - 1, 0),
      pages: [...service.seen.pages.values()].reduce((sum, n) => sum + n - 1, 0),
    };
    const memoryAfter = redis ? await usedMemory(redis.redis) : 0;
    const candidates = tabs.reduce((sum, tab) => sum + tab.size, 0);
    const asked = service.seen.list + service.seen.lookups;
    const latencies = await viewLoad(agent, urls, tabs, views);
    const requestsPerView = (service.seen.list + service.seen.lookups - asked) / views;
    const truth = await againstTruth(agent, urls[0] ?? '', tabs[0]);
    agent.destroy();
    return {
      instances,
      store: redis ? 'redis' : 'memory',
      candidates,
      crawl,
      duplicates,
      redisBytesPer1000: redis ? ((memoryAfter - memoryBefore) / candidates) * 1000 : undefined,
      views: { count: views, p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99), requestsPerView },
      ...truth,
    };
  } finally {
    for (const server of servers) server.stop();
    await Promise.all(servers.map((server) => server.exited));
    await service.close();
  }
}

/** @param {Redis} redis */
async function usedMemory(redis) {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
}

/**
 * Polls the tabs' index state (views: they ask the service nothing) until each is read whole and dated; the time since `started`.
 * @param {http.Agent} agent @param {string} url @param {Tab[]} tabs @param {number} started @param {(...args: unknown[]) => void} log
 */
async function crawled(agent, url, tabs, started, log) {
  const deadline = Date.now() + 30 * 60_000;
  let said = 0;
  for (;;) {
    const states = await Promise.all(
      tabs.map(async (tab) => (await getJson(agent, `${url}/api/applicants?status=${tab.tab}&limit=1`)).body.data.index),
    );
    if (states.every((state, i) => !state.crawling && state.dated === tabs[i]?.size && state.of === tabs[i]?.size))
      return performance.now() - started;
    if (Date.now() > deadline) throw new Error(`the crawl did not finish: ${JSON.stringify(states)}`);
    if (Date.now() - said > 5000) {
      said = Date.now();
      log(
        `  crawling: ${states.map((state, i) => `${tabs[i]?.tab} ${state.dated}/${state.read ?? state.of}${state.crawling ? ' (reading)' : ''}`).join(', ')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * `views` queue views as the page asks them (a tab, a page of 50, every tab's count), at VIEW_RATE a
 * second across the instances, each sent at its time whatever the others are doing (an open loop, as
 * 200 reviewers' pages refetching on live events are): the latency of each.
 */
async function viewLoad(
  /** @type {http.Agent} */ agent,
  /** @type {string[]} */ urls,
  /** @type {Tab[]} */ tabs,
  /** @type {number} */ views,
) {
  const start = performance.now();
  const one = async (/** @type {number} */ n) => {
    const wait = start + (n * 1000) / VIEW_RATE - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const tab = tabs[n % tabs.length] ?? tabs[0];
    const pages = Math.max(1, Math.ceil((tab?.size ?? 1) / 50));
    const skip = ((n * 37) % Math.min(pages, 200)) * 50;
    return (await getJson(agent, `${urls[n % urls.length]}/api/applicants?status=${tab?.tab}&skip=${skip}&limit=50&counts=1`)).ms;
  };
  return Promise.all(Array.from({ length: views }, (_, n) => one(n)));
}

/** The waiting tab's first page and over-SLA count against a sort of the service's own dates. */
async function againstTruth(/** @type {http.Agent} */ agent, /** @type {string} */ url, /** @type {Tab | undefined} */ tab) {
  if (!tab) return {};
  const { body } = await getJson(agent, `${url}/api/applicants?status=${tab.tab}&skip=0&limit=50`);
  const at = Date.parse(body.data.index.at);
  const truth = Array.from({ length: tab.size }, (_, i) => ({ id: `${tab.prefix}-${i}`, date: dateOf(tab, i) })).sort(
    (a, b) => a.date - b.date,
  );
  const shown = body.data.records.map((/** @type {{ refId: string }} */ row) => row.refId);
  const exact = shown.filter((/** @type {string} */ id, /** @type {number} */ i) => id === truth[i]?.id).length;
  const overSla = truth.filter((one) => at - one.date > (body.data.slaHours ?? 48) * 3_600_000).length;
  return {
    firstPage: { exact, of: shown.length },
    overSla: { shown: body.data.overSla, truth: overSla, partial: body.data.overSlaPartial === true },
  };
}

/**
 * The whole scenario: one instance, then two, on one redis-server (or, without one, one instance in memory).
 * @param {{ serverJs: string; quick: boolean; log: (...args: unknown[]) => void }} options
 */
export async function runQueueScenario({ serverJs, quick, log }) {
  const tabs = tabsOf(quick);
  const views = quick ? 300 : 3000;
  const redis = await startRedisServer();
  if (!redis) log('No redis-server (REDIS_SERVER_PATH): the queue is measured in memory, one instance.');
  const phases = [];
  try {
    for (const instances of redis ? [1, 2] : [1]) {
      log(`Queue at scale: ${instances} instance${instances > 1 ? 's' : ''}, ${tabs.map((tab) => `${tab.size} ${tab.tab}`).join(', ')}…`);
      phases.push(await phase({ serverJs, tabs, redis, instances, views, log }));
    }
  } finally {
    redis?.stop();
  }
  return { tabs: tabs.map(({ tab, size, shape }) => ({ tab, size, shape })), phases };
}

/**
 * The table's rows.
 * @param {Awaited<ReturnType<typeof runQueueScenario>>} figures
 * @param {(ok: boolean) => string} verdict
 */
export function queueRows(figures, verdict) {
  return figures.phases.flatMap((p) => {
    const who = `${p.instances} instance${p.instances > 1 ? 's' : ''} (${p.store})`;
    return [
      [`Q crawl of ${p.candidates} candidates, ${who}`, `${(p.crawl.ms / 1000).toFixed(1)} s`, '', ''],
      [`Q crawl: list pages / lookups asked, ${who}`, `${p.crawl.listPages} / ${p.crawl.lookups}`, '', ''],
      [
        `Q duplicate requests across instances, ${who}`,
        `${p.duplicates.lookups + p.duplicates.pages}`,
        '0',
        verdict(p.duplicates.lookups + p.duplicates.pages === 0),
      ],
      ...(p.redisBytesPer1000 === undefined
        ? []
        : [[`Q Redis memory per 1 000 candidates, ${who}`, `${(p.redisBytesPer1000 / 1024).toFixed(0)} KiB`, '', '']]),
      [`Q requests to the service per queue view, ${who}`, p.views.requestsPerView.toFixed(2), '0', verdict(p.views.requestsPerView === 0)],
      [
        `Q view p50 / p99 (${p.views.count} views at ${VIEW_RATE}/s), ${who}`,
        `${p.views.p50Ms.toFixed(1)} / ${p.views.p99Ms.toFixed(1)} ms`,
        'p99 < 200 ms',
        verdict(p.views.p99Ms < 200),
      ],
      [
        `Q first page against the true oldest, ${who}`,
        `${p.firstPage?.exact} of ${p.firstPage?.of}`,
        'exact',
        verdict(p.firstPage?.exact === p.firstPage?.of),
      ],
      [
        `Q over-SLA count against the truth, ${who}`,
        `${p.overSla?.shown} / ${p.overSla?.truth}`,
        'exact',
        verdict(p.overSla?.shown === p.overSla?.truth),
      ],
    ];
  });
}
