import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type SpawnedServer, spawnServer } from '../../scripts/spawn-server.mjs';
import { startFakeUpstream } from './fake-upstream.ts';
import { rawRequest } from './http.ts';

/** `npm start` as a user runs it: builds if needed, prints the URL, stops cleanly on a signal. */
const root = path.resolve(import.meta.dirname, '../..');
const started: SpawnedServer[] = [];
afterEach(() => {
  for (const server of started.splice(0)) server.child.kill('SIGKILL');
});

function start(env: Record<string, string>, entry: 'server' | 'sandbox' = 'server', args: string[] = []): SpawnedServer {
  const server = spawnServer(['scripts/built.mjs', entry, ...args], {
    cwd: root,
    env: {
      KYC_BASE_URL: '',
      KYC_CLIENT_ID: '',
      KYC_API_KEY: '',
      CONFIG_FILE: '',
      HOST: '127.0.0.1',
      PORT: '0',
      AUDIT_LOG: path.join(os.tmpdir(), `cl-start-audit-${process.pid}.jsonl`),
      ...env,
    },
  });
  started.push(server);
  return server;
}

/** CONFIG_FILE with `content`, in `dir`. */
function configFile(dir: string, content: unknown): string {
  const file = path.join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

/** Resolves once the server has printed `text`. */
async function printed(server: SpawnedServer, text: string): Promise<void> {
  while (!server.output().includes(text)) await new Promise((resolve) => server.child.stdout.once('data', resolve));
}

describe('npm start', () => {
  it('prints the URL, says it is on the sandbox, and serves a sample candidate', async () => {
    // As at a terminal: the banner as a box of text and the address on a line of its own, no JSON.
    const server = start({ LOG_FORMAT: 'pretty' });
    const url = new URL(await server.url);
    const lines = server.output().split('\n');
    expect(lines.filter((line) => /^ {2}\*.*\*$/.test(line)).some((line) => line.includes('SANDBOX MODE'))).toBe(true);
    expect(lines).toContain(`      ${url}`);
    expect(server.output()).not.toContain('{"level"');
    const res = await rawRequest(Number(url.port), '/api/candidates/refId/cust_000482');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).data.refId).toBe('cust_000482');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 60_000);

  it('stops at start on a bad configuration, naming the variable', async () => {
    const server = start({ PORT: 'eighty' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('PORT must be a whole number');
  }, 60_000);

  it('stops at start on a bad sandbox.data or users file, with the problem and no stack trace', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-start-'));
    writeFileSync(path.join(dir, 'data.json'), '[{"status": 1}]');
    const data = start({ CONFIG_FILE: configFile(dir, { sandbox: { data: path.join(dir, 'data.json') } }) });
    expect(await data.exited).toBe(1);
    expect(data.output()).toContain('is not a list of candidate records');
    expect(data.output()).toContain('→ at [0].status');
    expect(data.output()).not.toMatch(/^\s+at /m);

    writeFileSync(path.join(dir, 'users.json'), '{"users":[{"username":"ana","passwordHash":"plain text!","role":"compliance"}]}');
    const users = start({ CONFIG_FILE: configFile(dir, { signIn: { mode: 'users', usersFile: path.join(dir, 'users.json') } }) });
    expect(await users.exited).toBe(1);
    expect(users.output()).toContain('passwordHash');
    expect(users.output()).not.toMatch(/^\s+at /m);
  }, 60_000);

  it('stops at start on a half-configured OpenID Connect sign-in, naming what is missing by its place in the file', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-start-'));
    const file = configFile(dir, { signIn: { mode: 'oidc', issuer: 'https://login.example.org', clientId: 'candidate-lookup' } });
    const server = start({ CONFIG_FILE: file });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain(`CONFIG_FILE ${file}: signIn.redirectUrl: is missing`);
    expect(server.output()).not.toMatch(/^\s+at /m);
  }, 60_000);

  it('stops at start on a variable it no longer reads, naming its place in CONFIG_FILE', async () => {
    const server = start({ SUMMARY_FIELDS: 'riskLevel', OIDC_ISSUER: 'https://login.example.org' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain(
      'SUMMARY_FIELDS is no longer read: put it in CONFIG_FILE at environments[].summaryFields (or display.summaryFields for every environment)',
    );
    expect(server.output()).toContain('OIDC_ISSUER is no longer read: put it in CONFIG_FILE at signIn: { "mode": "oidc", "issuer": "…" }');
    expect(server.output()).not.toMatch(/^\s+at /m);
  }, 60_000);

  it('starts with Redis down: static files answer, lookups fail closed, and it still stops cleanly', async () => {
    const server = start({ REDIS_URL: 'redis://:never-logged@127.0.0.1:9/0' });
    const url = new URL(await server.url);
    expect(server.output()).toContain('Shared state: sessions, sign-in locks and rate limits in Redis at redis://127.0.0.1:9/0');
    expect((await rawRequest(Number(url.port), '/')).status).toBe(200);
    const lookup = await rawRequest(Number(url.port), '/api/candidates/refId/cust_000482');
    expect(lookup.status).toBe(503);
    expect(JSON.parse(lookup.body).error.code).toBe('store_unavailable');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('is unreachable');
    expect(server.output()).not.toContain('never-logged');
  }, 60_000);

  it('lets an in-flight lookup finish on SIGTERM, then exits', async () => {
    const upstream = await startFakeUpstream();
    let arrived = () => {};
    const reachedUpstream = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    upstream.behave = (_req, res) => {
      arrived();
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"status":"success","data":{"late":true}}');
      }, 700);
    };
    const server = start({ KYC_BASE_URL: upstream.url, KYC_CLIENT_ID: 'c', KYC_API_KEY: 'key-never-logged' });
    const url = new URL(await server.url);
    const inFlight = rawRequest(Number(url.port), '/api/candidates/refId/slow');
    await reachedUpstream; // the lookup is in flight: the service has it and has not answered
    server.child.kill('SIGTERM');
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.body).toContain('"late":true');
    expect(await server.exited).toBe(0);
    const request = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === 'request');
    expect(request).toMatchObject({ level: 'info', method: 'GET', route: '/api/candidates/refId/:id', status: 200 });
    expect(server.output()).not.toContain('key-never-logged');
    expect(server.output()).not.toContain('slow');
    await upstream.close();
  }, 60_000);

  it('writes a chained audit log that `npm run audit:verify` finds intact, and catches an edit', async () => {
    const auditLog = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-start-')), 'audit.jsonl');
    const server = start({ AUDIT_LOG: auditLog });
    const port = Number(new URL(await server.url).port);
    for (const id of ['cust_000482', 'no-such-candidate', 'cust_000482']) await rawRequest(port, `/api/candidates/refId/${id}`);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    const verify = () => spawnSync('npm', ['run', 'audit:verify', '--', auditLog], { cwd: root, encoding: 'utf8' });
    const intact = verify();
    expect(intact.stdout).toContain('3 lines, chain intact');
    expect(intact.status).toBe(0);

    writeFileSync(auditLog, readFileSync(auditLog, 'utf8').replace('no-such-candidate', 'another-candidate'));
    const edited = verify();
    expect(edited.status).toBe(1);
    expect(edited.stderr).toContain(`${auditLog}:3: chain broken`);
  }, 60_000);

  it('npm run sandbox with HOST=0.0.0.0 still serves this machine only: its keys are documented', async () => {
    const open = start({ HOST: '0.0.0.0' }, 'sandbox', ['--port', '0']);
    const url = new URL(await open.url);
    expect(url.hostname).toBe('127.0.0.1');
    await printed(open, 'HOST=0.0.0.0 applies to the app, not the sandbox');
    await printed(open, 'candidates:');
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((nic) => nic && nic.family === 'IPv4' && !nic.internal)?.address;
    if (external) {
      await expect(
        new Promise((resolve, reject) => net.connect(Number(url.port), external).once('connect', resolve).once('error', reject)),
      ).rejects.toThrow(/ECONNREFUSED/);
    }
    open.child.kill('SIGTERM');
    expect(await open.exited).toBe(0);

    const chosen = start({}, 'sandbox', ['--host', '::1', '--port', '0']);
    expect(new URL(await chosen.url).hostname).toBe('[::1]');
    chosen.child.kill('SIGTERM');
    expect(await chosen.exited).toBe(0);
  }, 60_000);

  it('never prints credentials embedded in KYC_BASE_URL', async () => {
    const server = start({ KYC_BASE_URL: 'http://ops:hunter2-secret@127.0.0.1:9', KYC_CLIENT_ID: 'c', KYC_API_KEY: 'k' });
    // Whichever comes first: an old server would start and print its banner.
    const code = await Promise.race([server.exited, server.url.then(() => 'started')]);
    expect(server.output()).not.toContain('hunter2');
    expect(code).toBe(1);
    expect(server.output()).toContain('KYC_BASE_URL must not contain a user name or password');
  }, 60_000);

  it('logs JSON lines when stdout is not a terminal, answers /healthz and /readyz, and serves /metrics on METRICS_PORT only', async () => {
    const server = start({ METRICS_PORT: '0' });
    const port = Number(new URL(await server.url).port);
    await expect.poll(() => /Metrics \(Prometheus\) at (http:\/\/[^\s"]+)/.exec(server.output())?.[1]).toBeDefined();
    const metricsUrl = new URL(/Metrics \(Prometheus\) at (http:\/\/[^\s"]+)/.exec(server.output())![1]!);

    expect((await rawRequest(port, '/healthz')).status).toBe(200);
    const ready = await rawRequest(port, '/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body).checks).toEqual({ auditLog: { ok: true }, upstreamHost: { ok: true } });
    const lookup = await rawRequest(port, '/api/candidates/refId/cust_000482');
    expect(lookup.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    const metrics = await rawRequest(Number(metricsUrl.port), metricsUrl.pathname);
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('candidate_lookup_lookups_total{code="ok",role="compliance",level="full"} 1');
    expect(metrics.body).toContain('candidate_lookup_process_cpu_seconds_total');
    expect(metrics.body).toMatch(/candidate_lookup_audit_free_bytes \d+/);
    expect((await rawRequest(port, '/metrics')).body).not.toContain('candidate_lookup_');

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // Every line of output is a JSON log line; the request line carries the same id as the header.
    const lines = server
      .output()
      .trim()
      .split('\n')
      .filter((line) => !line.startsWith('Building') && !line.startsWith('>'));
    const records = lines.map((line) => JSON.parse(line) as { msg: string; reqId?: string });
    expect(records.find((line) => line.reqId === lookup.headers['x-request-id'])).toMatchObject({ msg: 'request', status: 200 });
  }, 60_000);
});
