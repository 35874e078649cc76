// @ts-check
// The audit page's searches (issue 34), measured on the built server: a page of the trail filtered by
// user and by candidate, its p99, over 1,000,000 lines in PostgreSQL (target under 200 ms on this
// machine) and over 100,000 lines in the audit files without a database (bounded by the search's own
// limits: 2 s). `npm run bench -- --audit` runs it alone; `npm run bench` runs it last; `--quick` runs it
// on far fewer lines.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PROXY_SIGN_IN, writeConfigFile } from './config-file.mjs';
import { hasPostgres, PG_BIN, startCluster } from './postgres-cluster.mjs';
import { spawnServer } from './spawn-server.mjs';

const USERS = 200;
const LEAD = {
  'x-candidate-lookup': '1',
  'x-forwarded-user': 'bench-lead',
  'x-forwarded-role': 'lead',
  'content-type': 'application/json',
};
const TARGET_MS = 200;

/** @param {number[]} values */
function p99(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? Number.NaN;
}

/**
 * One search of the audit page, timed: a POST as the page sends it.
 * @param {string} url
 * @param {object} filter
 * @returns {Promise<number>}
 */
function timedSearch(url, filter) {
  const body = JSON.stringify(filter);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(`${url}/api/audit/search`, {
      method: 'POST',
      agent: false,
      headers: { ...LEAD, 'content-length': Buffer.byteLength(body) },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`audit search: HTTP ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * p99 of `count` searches each of a filter by user, by a name that is no user's (a typo: the server then offers
 * the names like it, walking every distinct user), and by candidate (different ones each time), after a few to
 * warm up.
 * @param {string} url
 * @param {number} count
 * @param {number} candidates
 */
async function measure(url, count, candidates) {
  /** @param {number} i */
  const byUser = (i) => ({ user: `user-${(i * 37) % USERS}` });
  /** @param {number} i */
  const byCandidate = (i) => ({ refId: `cust-${String((i * 7919) % candidates).padStart(6, '0')}` });
  /** @param {number} i */
  const byTypo = (i) => ({ user: `usr-${(i * 37) % USERS}` });
  for (let i = 0; i < 5; i++) await timedSearch(url, byUser(i));
  /** @type {number[]} */
  const users = [];
  /** @type {number[]} */
  const ids = [];
  /** @type {number[]} */
  const typos = [];
  for (let i = 0; i < count; i++) {
    users.push(await timedSearch(url, byUser(i)));
    ids.push(await timedSearch(url, byCandidate(i)));
    typos.push(await timedSearch(url, byTypo(i)));
  }
  return { byUserP99Ms: p99(users), byCandidateP99Ms: p99(ids), byTypoP99Ms: p99(typos) };
}

/**
 * `lines` rows straight into the table (in SQL, a batch at a time): lookups and hand-offs of 200 users
 * and `candidates` candidates over the last month, spread over three instances.
 * @param {string} url
 * @param {number} lines
 * @param {number} candidates
 * @param {(text: string) => void} log
 */
async function fillTable(url, lines, candidates, log) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let from = 1; from <= lines; from += 200_000) {
      const to = Math.min(lines, from + 199_999);
      await client.query(
        `INSERT INTO candidate_lookup_audit (hash, instance, time, action, "user", role, env, kind, candidate_id, level, status, code, client, line)
         SELECT encode(sha256(convert_to('{"bench":' || g || '}', 'UTF8')), 'hex'), 'bench-' || (g % 3),
                now() - make_interval(secs => ($3::int - g) * 2.5), CASE WHEN g % 25 = 0 THEN 'copy_summary' ELSE 'lookup' END,
                'user-' || (g % ${USERS}), 'compliance', 'default', 'refId', 'cust-' || lpad((g % $4::int)::text, 6, '0'),
                CASE WHEN g % 25 = 0 THEN NULL ELSE 'full' END, 200, NULL, '10.0.0.' || (g % 250), '{"bench":' || g || '}'
         FROM generate_series($1::int, $2::int) AS g`,
        [from, to, lines, candidates],
      );
      log(`  ${to.toLocaleString('en')} of ${lines.toLocaleString('en')} lines in the table`);
    }
    await client.query('VACUUM ANALYZE candidate_lookup_audit');
  } finally {
    await client.end();
  }
}

/**
 * An audit file of `lines` chained lines, as the server writes them.
 * @param {string} file
 * @param {number} lines
 * @param {number} candidates
 */
function fillFile(file, lines, candidates) {
  const out = [];
  let prev = 'start';
  const start = Date.now() - lines * 2500;
  for (let i = 0; i < lines; i++) {
    const body = JSON.stringify({
      time: new Date(start + i * 2500).toISOString(),
      requestId: `bench-${i}`,
      user: `user-${i % USERS}`,
      role: 'compliance',
      client: `10.0.0.${i % 250}`,
      env: 'default',
      kind: 'refId',
      id: `cust-${String(i % candidates).padStart(6, '0')}`,
      status: 200,
      code: null,
      upstreamStatus: 200,
      level: 'full',
      durationMs: 120,
    });
    const line = `{"prev":"${prev}",${body.slice(1)}`;
    out.push(line);
    prev = createHash('sha256').update(line).digest('hex');
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${out.join('\n')}\n`, { mode: 0o600 });
}

/** @typedef {{ byUserP99Ms: number; byCandidateP99Ms: number; byTypoP99Ms: number }} Searches */

/**
 * @param {{ serverJs: string; quick: boolean; log: (text: string) => void }} options
 * @returns {Promise<{ skipped: string } | { tableLines: number; fileLines: number; requests: number; table: Searches; files: Searches }>}
 */
export async function runAuditBench({ serverJs, quick, log }) {
  if (!hasPostgres) return { skipped: `no PostgreSQL binaries at ${PG_BIN} (apt-get install postgresql, or PG_BIN)` };
  const sizes = quick ? { table: 20_000, files: 5_000, requests: 20 } : { table: 1_000_000, files: 100_000, requests: 200 };
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'cl-bench-audit-'));
  const configFile = writeConfigFile(tmp, { signIn: PROXY_SIGN_IN, limits: { lookupsPerMinute: 0, auditSearchesPerMinute: 0 } });
  const cluster = await startCluster({ settings: ['shared_buffers=256MB', 'max_wal_size=4GB'] });
  /** @type {import('./spawn-server.mjs').SpawnedServer[]} */
  const servers = [];
  /** @param {Record<string, string>} env */
  const start = async (env) => {
    const server = spawnServer([serverJs], {
      cwd: tmp,
      env: { HOST: '127.0.0.1', PORT: '0', CONFIG_FILE: configFile, ...env },
    });
    servers.push(server);
    return server.url;
  };
  try {
    log(`Audit page: ${sizes.table.toLocaleString('en')} lines in PostgreSQL…`);
    const withTable = await start({
      DATABASE_URL: cluster.url,
      AUDIT_LOG: path.join(tmp, 'table/audit.jsonl'),
      AUDIT_INSTANCE: 'bench-app',
    });
    // The server makes the schema at start: the first search waits for it.
    await timedSearch(withTable, {});
    await fillTable(cluster.url, sizes.table, Math.max(1, sizes.table / 10), log);
    const table = await measure(withTable, sizes.requests, Math.max(1, sizes.table / 10));
    log(`Audit page: ${sizes.files.toLocaleString('en')} lines in the audit file, no database…`);
    const file = path.join(tmp, 'files/audit.jsonl');
    fillFile(file, sizes.files, Math.max(1, sizes.files / 10));
    const withFiles = await start({ AUDIT_LOG: file });
    const files = await measure(withFiles, sizes.requests, Math.max(1, sizes.files / 10));
    return { tableLines: sizes.table, fileLines: sizes.files, requests: sizes.requests, table, files };
  } finally {
    for (const server of servers) server.stop();
    await Promise.all(servers.map((server) => server.exited));
    cluster.destroy();
  }
}

/**
 * The figures as the bench's table rows: figure, value, target, verdict.
 * @param {Awaited<ReturnType<typeof runAuditBench>>} audit
 * @param {(ok: boolean) => string} verdict
 * @returns {string[][]}
 */
export function auditRows(audit, verdict) {
  if ('skipped' in audit) return [['11 audit page', `skipped: ${audit.skipped}`, '', '']];
  /** @param {number} value */
  const n = (value) => value.toLocaleString('en');
  /** @param {number} value */
  const ms = (value) => `${value.toFixed(1)} ms`;
  return [
    [
      `11 audit page p99, by user, ${n(audit.tableLines)} lines in PostgreSQL`,
      ms(audit.table.byUserP99Ms),
      `< ${TARGET_MS} ms`,
      verdict(audit.table.byUserP99Ms < TARGET_MS),
    ],
    [
      `11 audit page p99, a name that is no user's (names like it offered), ${n(audit.tableLines)} lines in PostgreSQL`,
      ms(audit.table.byTypoP99Ms),
      `< ${TARGET_MS} ms`,
      verdict(audit.table.byTypoP99Ms < TARGET_MS),
    ],
    [
      `11 audit page p99, by candidate, ${n(audit.tableLines)} lines in PostgreSQL`,
      ms(audit.table.byCandidateP99Ms),
      `< ${TARGET_MS} ms`,
      verdict(audit.table.byCandidateP99Ms < TARGET_MS),
    ],
    [
      `11 audit page p99, by user, ${n(audit.fileLines)} lines in files (no database)`,
      ms(audit.files.byUserP99Ms),
      '< 2000 ms (the bound)',
      verdict(audit.files.byUserP99Ms < 2000),
    ],
    [
      `11 audit page p99, a name that is no user's (names like it offered), ${n(audit.fileLines)} lines in files (no database)`,
      ms(audit.files.byTypoP99Ms),
      '< 2000 ms (the bound)',
      verdict(audit.files.byTypoP99Ms < 2000),
    ],
    [
      `11 audit page p99, by candidate, ${n(audit.fileLines)} lines in files (no database)`,
      ms(audit.files.byCandidateP99Ms),
      '< 2000 ms (the bound)',
      verdict(audit.files.byCandidateP99Ms < 2000),
    ],
  ];
}
