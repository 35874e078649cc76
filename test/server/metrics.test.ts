import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { testPasswordHash } from './passwords.ts';
import { createAuditLog } from '../../src/server/audit/audit.ts';
import { parseConfig } from '../../src/server/config/config.ts';
import { createMetrics, createMetricsServer, type Metrics, observeAuditLog } from '../../src/server/ops/metrics.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { APP_HEADERS, listen, rawRequest, requestWithBody, startTestApp, type TestApp } from './http.ts';

/** The metrics as Prometheus scrapes them: over HTTP, from the metrics port, parsed from the text format. */
const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-metrics-'));
let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
let metrics: Metrics;
let metricsPort: number;
let closeMetrics: () => Promise<void>;
const apps: TestApp[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream();
  metrics = createMetrics({ processMetrics: true });
  ({ port: metricsPort, close: closeMetrics } = await listen(createMetricsServer(metrics)));
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await closeMetrics();
  await upstream.close();
});

async function scrape(): Promise<Map<string, number>> {
  const res = await rawRequest(metricsPort, '/metrics');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  const samples = new Map<string, number>();
  for (const line of res.body.split('\n')) {
    const match = /^(\S+(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (match && !line.startsWith('#')) samples.set(match[1]!, Number(match[2]));
  }
  return samples;
}

const sample = (samples: Map<string, number>, name: string) => samples.get(name) ?? 0;

async function proxyApp(options: { audit?: string; perMinute?: number; statusKey?: boolean } = {}) {
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key', ...(options.statusKey ? { statusApiKey: 'status-key' } : {}) },
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
    audit: observeAuditLog(createAuditLog(options.audit ?? path.join(dir, 'audit.jsonl')), metrics),
    metrics,
    settings: {
      limits: {
        lookupsPerMinute: options.perMinute ?? 0,
      },
    },
  });
  apps.push(app);
  return app;
}
const as = (user: string, role: 'compliance' | 'support') => ({ 'x-user': user, 'x-role': role });

describe('/metrics', () => {
  it('counts lookups by outcome, role and level, with latency, bytes and upstream timing', async () => {
    const before = await scrape();
    const app = await proxyApp();
    const record = JSON.stringify({
      status: 'success',
      data: {
        status: 'approved',
        refId: 'r1',
        isArchived: false,
        blockPassID: 'bp1',
        identities: { given_name: { type: 'string', value: 'Ana' } },
      },
    });
    upstream.behave = (req, res) => {
      if (req.url?.endsWith('/missing')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return void res.end('{"status":"error"}');
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(record) });
      res.end(record);
    };
    await app.get('/api/candidates/refId/r1', as('ana', 'compliance'));
    await app.get('/api/candidates/refId/r1', as('ana', 'compliance'));
    await app.get('/api/candidates/refId/missing', as('ana', 'compliance'));
    await app.get('/api/candidates/refId/r1', as('sam', 'support'));
    await app.get('/api/candidates/refId/%E0%A4%A', as('sam', 'support'));
    const after = await scrape();
    const delta = (name: string) => sample(after, name) - sample(before, name);
    expect(delta('candidate_lookup_lookups_total{code="ok",role="compliance",level="full"}')).toBe(2);
    expect(delta('candidate_lookup_lookups_total{code="not_found",role="compliance",level="full"}')).toBe(1);
    expect(delta('candidate_lookup_lookups_total{code="ok",role="support",level="stripped"}')).toBe(1);
    expect(delta('candidate_lookup_lookups_total{code="invalid_id",role="support",level="stripped"}')).toBe(1);
    expect(delta('candidate_lookup_lookup_duration_seconds_count{level="full"}')).toBe(3);
    expect(delta('candidate_lookup_lookup_response_bytes_total{level="full"}')).toBeGreaterThanOrEqual(2 * Buffer.byteLength(record));
    expect(delta('candidate_lookup_upstream_duration_seconds_count{outcome="2xx"}')).toBe(3);
    expect(delta('candidate_lookup_upstream_duration_seconds_count{outcome="4xx"}')).toBe(1);
    // Five lookups' lines, and the closing lines of the two full answers (what each held).
    expect(delta('candidate_lookup_audit_write_duration_seconds_count')).toBe(7);
    expect(sample(after, 'candidate_lookup_lookups_in_flight')).toBe(0);
    // Process figures come along for the operator.
    expect(sample(after, 'candidate_lookup_process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('shows lookups in flight while they wait for the service', async () => {
    const app = await proxyApp();
    let answer: () => void = () => {};
    upstream.behave = (_req, res) => {
      answer = () => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 });
        res.end('{}');
      };
    };
    const pending = app.get('/api/candidates/refId/slow', as('ana', 'compliance'));
    await expect.poll(async () => sample(await scrape(), 'candidate_lookup_lookups_in_flight')).toBe(1);
    answer();
    await pending;
    await expect.poll(async () => sample(await scrape(), 'candidate_lookup_lookups_in_flight')).toBe(0);
  });

  it('counts upstream timeouts and errors apart from answers', async () => {
    const before = await scrape();
    const app = await startTestApp({ upstream: { baseUrl: 'http://127.0.0.1:1', clientId: 'c', apiKey: 'k' }, metrics });
    apps.push(app);
    await app.get('/api/candidates/refId/x');
    const after = await scrape();
    expect(
      sample(after, 'candidate_lookup_upstream_duration_seconds_count{outcome="error"}') -
        sample(before, 'candidate_lookup_upstream_duration_seconds_count{outcome="error"}'),
    ).toBe(1);
    expect(
      sample(after, 'candidate_lookup_lookups_total{code="upstream_unreachable",role="compliance",level="full"}') -
        sample(before, 'candidate_lookup_lookups_total{code="upstream_unreachable",role="compliance",level="full"}'),
    ).toBe(1);
  });

  it('counts rate-limit refusals, and audit write failures with their lookups refused', async () => {
    const before = await scrape();
    const limited = await proxyApp({ perMinute: 1 });
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 });
      res.end('{}');
    };
    await limited.get('/api/candidates/refId/a', as('rita', 'compliance'));
    await limited.get('/api/candidates/refId/b', as('rita', 'compliance'));
    await limited.get('/api/candidates/refId/c', as('rita', 'compliance'));
    const full = await proxyApp({ audit: '/dev/full' });
    await full.get('/api/candidates/refId/d', as('ana', 'compliance'));
    const after = await scrape();
    const delta = (name: string) => sample(after, name) - sample(before, name);
    expect(delta('candidate_lookup_rate_limited_total{limit="lookup"}')).toBe(2);
    expect(delta('candidate_lookup_lookups_total{code="rate_limited",role="compliance",level="full"}')).toBe(2);
    expect(delta('candidate_lookup_audit_write_failures_total')).toBe(1);
    expect(delta('candidate_lookup_lookups_total{code="audit_unavailable",role="compliance",level="full"}')).toBe(1);
  });

  it('counts the refusals of every limit apart: lookups, list pages, exports, batches, waits for the service and for the archiving check', async () => {
    const before = await scrape();
    const gateway = () => createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] });
    const limited = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' },
      access: gateway(),
      metrics,
      settings: {
        limits: {
          lookupsPerMinute: 1,
          batchIdsPerMinute: 1,
          queueViewsPerMinute: 1,
        },
      },
    });
    const bounded = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' },
      access: gateway(),
      metrics,
      settings: {
        limits: {
          upstreamInFlightPerUser: 1,
          upstreamTimeoutMs: 300,
        },
      },
    });
    apps.push(limited, bounded);
    upstream.behave = (req, res) => {
      if (req.url?.endsWith('/held')) return trickle(res); // the user's one slot stays taken for a second
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 });
      res.end('{}');
    };
    const rita = as('rita', 'compliance');
    const batch = (path: string) => requestWithBody(limited.port, path, JSON.stringify({ kind: 'refId', ids: ['b'] }), { headers: rita });
    const exported = JSON.stringify({ what: 'summary', kind: 'refId', id: 'a' });
    const statuses = [
      (await limited.get('/api/candidates/refId/a', rita)).status,
      (await limited.get('/api/candidates/refId/c', rita)).status,
      // The queue's views are a bucket of their own (issue 32): one, then the limit.
      (await limited.get('/api/applicants', rita)).status,
      (await limited.get('/api/applicants', rita)).status,
      (await requestWithBody(limited.port, '/api/export', exported, { headers: rita })).status,
      (await batch('/api/batch')).status,
      (await batch('/api/batch')).status,
      (await batch('/api/e/nowhere/batch')).status,
    ];
    expect(statuses).toEqual([502, 429, 200, 429, 429, 200, 429, 429]);
    const held = bounded.get('/api/candidates/refId/held', as('sam', 'compliance'));
    await expect.poll(() => upstream.seen.some((seen) => seen.path.endsWith('/held'))).toBe(true);
    // Sam's second lookup waits for his one slot; Tom's has a slot of his own, but waits behind the first
    // full answer, which shows whether the key archives after extract (full lookups go one at a time until then).
    const [waited, heldBack] = await Promise.all([
      bounded.get('/api/candidates/refId/waits', as('sam', 'compliance')),
      bounded.get('/api/candidates/refId/behind', as('tom', 'compliance')),
    ]);
    expect(JSON.parse(waited.body).error.code).toBe('rate_limited');
    expect(JSON.parse(heldBack.body).error.message).toContain('archive after extract');
    await held;

    const after = await scrape();
    const delta = (limit: string) =>
      sample(after, `candidate_lookup_rate_limited_total{limit="${limit}"}`) -
      sample(before, `candidate_lookup_rate_limited_total{limit="${limit}"}`);
    expect(
      Object.fromEntries(['lookup', 'applicants', 'export', 'batch', 'in_flight', 'archiving_check'].map((limit) => [limit, delta(limit)])),
    ).toEqual({
      lookup: 1,
      applicants: 1,
      export: 1,
      // One over the batch budget, one refused for its environment over the per-user limit.
      batch: 2,
      in_flight: 1,
      archiving_check: 1,
    });
  });

  it('counts failed sign-ins and sign-ins refused by a lock', async () => {
    const usersFile = path.join(dir, 'users.json');
    writeFileSync(
      usersFile,
      JSON.stringify({ users: [{ username: 'ana', passwordHash: await testPasswordHash('a long password'), role: 'compliance' }] }),
    );
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' },
      access: createAccessControl({ mode: 'users', usersFile, sessionMaxAgeMinutes: 60, sessionIdleMinutes: 60 }, { signInDelayMs: 1 }),
      metrics,
    });
    apps.push(app);
    const before = await scrape();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await signIn(app.port, 'ana', 'wrong password')).status);
    const after = await scrape();
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    expect(sample(after, 'candidate_lookup_sign_in_failures_total') - sample(before, 'candidate_lookup_sign_in_failures_total')).toBe(10);
    expect(sample(after, 'candidate_lookup_sign_in_locked_total') - sample(before, 'candidate_lookup_sign_in_locked_total')).toBe(1);
  });

  it('is served on its own port only: nothing else there, and not on the public port', async () => {
    expect((await rawRequest(metricsPort, '/')).status).toBe(404);
    expect((await rawRequest(metricsPort, '/metrics', { method: 'POST' })).status).toBe(405);
    const app = await proxyApp();
    const publicMetrics = await app.get('/metrics');
    expect(publicMetrics.body).not.toContain('candidate_lookup_');
  });
});

describe('METRICS_PORT', () => {
  it('is off when unset, on with its own host when set, and never the public port', () => {
    expect(parseConfig({}).metrics).toBeUndefined();
    expect(parseConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(parseConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }).metrics).toEqual({ host: '0.0.0.0', port: 9464 });
    expect(() => parseConfig({ METRICS_PORT: '8080' })).toThrow('METRICS_PORT=8080 is the public PORT too');
    expect(() => parseConfig({ METRICS_PORT: 'x' })).toThrow('METRICS_PORT must be a whole number');
  });
});

/** A record sent a space every 50 ms for a second: never idle long enough to time out, never quick. */
function trickle(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"status":"success","data":{"status":"approved","refId":"r","isArchived":false,"blockPassID":"b"');
  let sent = 0;
  const timer = setInterval(() => {
    if (++sent < 20) return void res.write(' ');
    clearInterval(timer);
    res.end('}}');
  }, 50);
  res.once('close', () => clearInterval(timer));
}

function signIn(port: number, username: string, password: string) {
  return new Promise<{ status: number }>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/session',
        method: 'POST',
        headers: { ...APP_HEADERS, 'content-type': 'application/json' },
        agent: false,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ username, password }));
  });
}
