import { RECORD } from './hostile-upstream.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { testPasswordHash } from './passwords.ts';
import type { AuditLog } from '../../src/server/audit/audit.ts';
import { createApiHandler } from '../../src/server/composition/api-handler.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { cookieOf, listen, rawRequest, signIn as signInAt, startTestApp, testEnvironment, type TestApp } from './http.ts';
import { errorOf } from './service-app.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { testSettings } from './settings.ts';

/** Ways a server like this one fails in practice: each must give a clear answer and leave it serving. */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
const STATUS_RECORD = RECORD;

async function upstreamAndApp(options: Partial<Parameters<typeof startTestApp>[0]> = {}) {
  const upstream = await startFakeUpstream();
  const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' }, ...options });
  cleanups.push(
    () => app.close(),
    () => upstream.close(),
  );
  return { upstream, app };
}

describe('robustness', () => {
  it('a reversed Range header on a static file neither crashes the server nor is honoured', async () => {
    const { app } = await upstreamAndApp();
    const res = await app.get('/favicon.svg', { range: 'bytes=10-5' });
    expect(res.status).toBe(200);
    expect(res.body).toContain('<svg');
    expect((await app.get('/favicon.svg')).status).toBe(200);
  });

  it('refuses a success body with neither length nor chunked framing, which could be cut unnoticed', async () => {
    const { upstream, app } = await upstreamAndApp();
    upstream.behave = (req) => {
      req.socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"status":"success","data":{"a');
    };
    const res = await app.get('/api/candidates/refId/a');
    expect(res.status).toBe(502);
    expect(errorOf(res).code).toBe('upstream_error');
    expect(res.body).not.toContain('"data"');
  });

  it('answers, rather than hangs, when the upstream breaks while the audit line is being written', async () => {
    const slowAudit: AuditLog = { record: () => new Promise((resolve) => setTimeout(resolve, 300)), available: () => true };
    const { upstream, app } = await upstreamAndApp({ audit: slowAudit });
    upstream.behave = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 5000 });
      res.write('{"status":"success"');
      setTimeout(() => req.socket.destroy(), 50);
    };
    const res = await app.get('/api/candidates/refId/a');
    expect(res.status).toBe(502);
    expect(errorOf(res).code).toBe('upstream_error');
  });

  it("reduces a support user's record to an allowlist of status fields, whatever the envelope holds", async () => {
    const { upstream, app } = await upstreamAndApp({
      access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1'] }),
    });
    const support = { 'x-user': 'sam', 'x-role': 'support' };
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          status: 'success',
          data: {
            ...STATUS_RECORD,
            identities: { email: { type: 'string', value: 'secret@x' } },
            newPersonalField: 'secret',
            customFields: { a: 'secret' },
          },
          identities: { email: 'secret@y' },
        }),
      );
    };
    const res = await app.get('/api/candidates/refId/r', support);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: 'success', data: STATUS_RECORD });
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'success', data: [{ identities: 'secret' }] }));
    };
    const odd = await app.get('/api/candidates/refId/r', support);
    expect(odd.status).toBe(502);
    expect(odd.body).not.toContain('secret');
  });

  it('serves a success body as JSON whatever content type the upstream claimed', async () => {
    const { upstream, app } = await upstreamAndApp();
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('{"status":"success","data":{}}');
    };
    const res = await app.get('/api/candidates/refId/a');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('passes an upstream 429 on without making up a Retry-After when the service gave none, and says to wait', async () => {
    const { upstream, app } = await upstreamAndApp();
    upstream.behave = (_req, res) => {
      res.writeHead(429);
      res.end();
    };
    const res = await app.get('/api/candidates/refId/a');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBeUndefined();
    expect(JSON.parse(res.body).error).toEqual({
      code: 'upstream_rate_limited',
      message: 'The KYC service is limiting requests (HTTP 429). Wait a minute, then try again.',
    });
  });

  it('sets the security headers on API answers wherever the handler is mounted (Vite too)', async () => {
    const upstream = await startFakeUpstream();
    const api = createApiHandler(testSettings({ limits: { upstreamTimeoutMs: 1000, maxResponseBytes: 1e6 } }), {
      environments: [testEnvironment({ baseUrl: upstream.url, clientId: 'c', apiKey: 'k' })],
      audit: memoryAuditLog(),
      queueCrawl: { start: false },
    });
    const { port, close } = await listen(http.createServer((req, res) => api(req, res)));
    cleanups.push(close, () => upstream.close());
    const res = await rawRequest(port, '/api/meta');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('local mode answers this machine only', () => {
  it('refuses a request meant for another name (DNS rebinding) and accepts loopback names', async () => {
    const { app } = await upstreamAndApp();
    for (const host of ['evil.example', 'evil.example:8080', '10.0.0.5']) {
      const res = await app.get('/api/candidates/refId/a', { host });
      expect(res.status, host).toBe(401);
    }
    for (const host of ['localhost:8080', '127.0.0.1', '[::1]:8080']) {
      expect((await app.get('/api/candidates/refId/a', { host })).status, host).toBe(200);
    }
    const open = await upstreamAndApp({ access: createAccessControl({ mode: 'local', allowUnauthenticated: true }) });
    expect((await open.app.get('/api/candidates/refId/a', { host: 'candidates.example.org' })).status).toBe(200);
  });
});

describe('built-in users under pressure and change', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-robust-'));
  const usersFile = path.join(dir, 'users.json');
  let clock = Date.now();
  let app: TestApp;
  // Each user's hash is made once: a role edited in the file keeps the password (a new hash would end the session).
  const hashes = new Map<string, Promise<string>>();
  const hashOf = (username: string) => {
    if (!hashes.has(username)) hashes.set(username, testPasswordHash(`${username} password ok`));
    return hashes.get(username)!;
  };
  const writeUsers = async (users: Array<{ username: string; role: string }>) =>
    writeFileSync(
      usersFile,
      JSON.stringify({ users: await Promise.all(users.map(async (u) => ({ ...u, passwordHash: await hashOf(u.username) }))) }),
    );
  const signIn = (username: string, password: string) => signInAt(app.port, username, password);

  beforeAll(async () => {
    await writeUsers([
      { username: 'ana', role: 'compliance' },
      { username: 'sam', role: 'support' },
    ]);
    const upstream = await startFakeUpstream();
    app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' },
      access: createAccessControl(
        { mode: 'users', usersFile, sessionMaxAgeMinutes: 60, sessionIdleMinutes: 60 },
        { now: () => clock, signInDelayMs: 1 },
      ),
    });
    return async () => {
      await app.close();
      await upstream.close();
    };
  });

  it('does not let parallel guesses slip past the count of failures', async () => {
    // Two floods of 40 at once: guesses wait their turn (a few per address) or are refused, and the
    // username locks at exactly ten checked failures however they were sent.
    const statuses: number[] = [];
    for (let round = 0; round < 2; round++) {
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn('ana', `guess number ${round}-${i}`)));
      statuses.push(...results.map((r) => r.status));
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(70);
    expect((await signIn('ana', 'ana password ok')).status).toBe(429);
  });

  it('applies a changed role at once and ends the sessions of a removed user', async () => {
    const cookie = cookieOf(await signIn('sam', 'sam password ok'));
    expect(JSON.parse((await app.get('/api/session', { cookie })).body)).toMatchObject({ role: 'support' });
    await writeUsers([
      { username: 'ana', role: 'compliance' },
      { username: 'sam', role: 'compliance' },
    ]);
    clock += 2000;
    expect(JSON.parse((await app.get('/api/session', { cookie })).body)).toMatchObject({ role: 'compliance' });
    await writeUsers([{ username: 'ana', role: 'compliance' }]);
    clock += 2000;
    expect(JSON.parse((await app.get('/api/session', { cookie })).body)).toEqual({ mode: 'users' });
    expect((await app.get('/api/candidates/refId/a', { cookie })).status).toBe(401);
  });
});
