import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { type AuditEntry, createAuditLog } from '../../src/server/audit/audit.ts';
import type { AccessControl } from '../../src/server/auth/access-control.ts';
import { createAppServer } from '../../src/server/composition/app-server.ts';
import { createLogger } from '../../src/server/log/log.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { listen, type RawResponse, rawRequest, startTestApp, type TestApp } from './http.ts';

/**
 * The request log as the server writes it (pino JSON lines), after lookups of distinctive ids with a
 * distinctive key and distinctive candidate data: none of them may appear in it.
 */
const KEY = 'KEY-QUUX-55aa-never-logged';
const STATUS_KEY = 'KEY-QUUX-66bb-status-never-logged';
const NAME = 'XYZZY-Candidate-Name';
const EMAIL = 'xyzzy.person@example.test';
const auditFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-reqlog-')), 'audit.jsonl');
let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
let app: TestApp;

beforeAll(async () => {
  const record = {
    status: 'approved',
    refId: 'PLUGH-0001',
    recordId: '5f0c3a9e8b1d4c2a7e6f9012',
    isArchived: false,
    blockPassID: 'PLUGH-bp-0001',
    approvedDate: '2026-11-01T10:00:00.000Z',
    identities: { given_name: { type: 'string', value: NAME }, email: { type: 'string', value: EMAIL } },
  };
  const body = JSON.stringify({ status: 'success', data: record });
  upstream = await startFakeUpstream();
  upstream.behave = (req, res) => {
    if (req.url?.includes('PLUGH-0001')) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      return void res.end(body);
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"status":"error","message":"no PLUGH here"}');
  };
  app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'client-QUUX', apiKey: KEY, statusApiKey: STATUS_KEY },
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
    audit: createAuditLog(auditFile),
  });
});
afterAll(async () => {
  await app.close();
  await upstream.close();
});

const compliance = { 'x-user': 'ana', 'x-role': 'compliance' };
const support = { 'x-user': 'sam', 'x-role': 'support' };

describe('the request log', () => {
  it('has one JSON line per request, with the route shape and never an id, a key or candidate data', async () => {
    app.logs.length = 0;
    const responses: RawResponse[] = [];
    for (const [url, headers] of [
      ['/api/candidates/refId/PLUGH-0001', compliance],
      ['/api/candidates/refId/PLUGH-0001', support],
      ['/api/candidates/recordId/PLUGH-0002', compliance],
      ['/api/candidates/refId/PLUGH-0003%00', compliance],
      ['/api/candidates/refId/PLUGH-0004', {}],
      ['/candidates/refId/PLUGH-0005', {}],
      ['/api/candidates/PLUGH-0006', compliance],
    ] as const) {
      responses.push(await app.get(url, headers));
    }
    expect(responses[0]!.body).toContain(NAME); // the data did pass through the server
    await expect.poll(() => app.logs.length).toBe(responses.length);

    const text = app.logs.join('\n');
    for (const secret of ['PLUGH', KEY, STATUS_KEY, 'QUUX', NAME, EMAIL, 'xyzzy']) expect(text).not.toContain(secret);
    expect(app.requests().map(({ route, status }) => [route, status])).toEqual([
      ['/api/candidates/refId/:id', 200],
      ['/api/candidates/refId/:id', 200],
      ['/api/candidates/recordId/:id', 404],
      ['/api/candidates/refId/:id', 400],
      ['/api/candidates/refId/:id', 401],
      ['static', 404], // no built app in public/: the history fallback has nothing to serve
      ['/api/candidates/:rest', 404],
    ]);
    const keys = ['level', 'time', 'pid', 'hostname', 'reqId', 'method', 'route', 'status', 'ms', 'bytes', 'msg'];
    // The user once known (the request's child logger is bound to it): not for the 401, nor the static file.
    const users = ['ana', 'sam', 'ana', 'ana', undefined, undefined, 'ana'];
    app.logs.forEach((line, index) => {
      const user = users[index];
      expect(Object.keys(JSON.parse(line)).sort()).toEqual([...keys, ...(user ? ['user'] : [])].sort());
      expect(JSON.parse(line).user).toBe(user);
    });
  });

  it('gives each request an id, in the X-Request-Id header, the log line and the audit line', async () => {
    app.logs.length = 0;
    const ok = await app.get('/api/candidates/refId/PLUGH-0001', compliance);
    const missing = await app.get('/api/candidates/refId/PLUGH-0007', support);
    await expect.poll(() => app.logs.length).toBe(2);
    const ids = [ok, missing].map((res) => res.headers['x-request-id'] as string);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids[0]).not.toBe(ids[1]);
    expect(app.requests().map((record) => record.reqId)).toEqual(ids);

    const audit = readFileSync(auditFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditEntry);
    expect(audit.slice(-2).map((entry) => [entry.requestId, entry.id, entry.status])).toEqual([
      [ids[0], 'PLUGH-0001', 200],
      [ids[1], 'PLUGH-0007', 404],
    ]);
  });

  it('never takes the request id from the request', async () => {
    const res = await app.get('/api/candidates/refId/PLUGH-0001', { ...compliance, 'x-request-id': 'PLUGH-chosen-by-client' });
    expect(res.headers['x-request-id']).not.toContain('PLUGH');
    expect(app.logs.join('\n')).not.toContain('PLUGH');
  });
});

describe('unexpected errors are silent', () => {
  /** An error whose message carries the key and a candidate's name (an upstream body quoted in a parse error, say), and a line that looks like a stack frame. */
  const hostileError = () => new TypeError(`upstream said ${KEY} for ${NAME}\n    at ${EMAIL} (file:///${STATUS_KEY}.ts:1:1)`);
  const secrets = [KEY, STATUS_KEY, NAME, EMAIL, 'QUUX', 'XYZZY', 'upstream said'];
  const parsed = (logs: string[]) => logs.map((line) => JSON.parse(line) as Record<string, unknown>);

  it('an error thrown in a route is logged once, with the request id, route, user and stack, never the key or candidate data', async () => {
    const access: AccessControl = {
      mode: 'proxy',
      identify: async () => ({ user: 'ana', role: 'compliance' }),
      handleSession: (_req, reply) => reply(200, { mode: 'proxy' }),
      rateLimitKey: () => {
        throw hostileError();
      },
    };
    const failing = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'client-QUUX', apiKey: KEY }, access });
    try {
      // The request fails alone (a 500 saying nothing of what went wrong, only its request id), and the server goes on.
      const res = await failing.get('/api/candidates/refId/PLUGH-0001');
      expect(res.status).toBe(500);
      expect(apiErrorBodySchema.parse(JSON.parse(res.body)).error).toMatchObject({
        code: 'internal_error',
        message: expect.stringContaining('X-Request-Id'),
      });
      for (const secret of [...secrets, 'PLUGH']) expect(res.body).not.toContain(secret);
      await expect.poll(() => failing.logs.length).toBe(2);
      const lines = parsed(failing.logs);
      const unexpected = lines.filter((line) => line.msg === 'unexpected error');
      expect(unexpected).toHaveLength(1);
      const request = lines.find((line) => line.msg === 'request')!;
      expect(request).toMatchObject({ status: 500, reqId: res.headers['x-request-id'] });
      expect(request.reqId).toMatch(/^[0-9a-f-]{36}$/);
      expect(unexpected[0]).toMatchObject({
        level: 'error',
        reqId: request.reqId,
        route: '/api/candidates/refId/:id',
        user: 'ana',
        error: { type: 'TypeError', stack: expect.arrayContaining([expect.stringMatching(/^at .*request-log\.test\.ts:\d+:\d+\)?$/)]) },
      });
      const text = failing.logs.join('\n');
      for (const secret of [...secrets, 'PLUGH']) expect(text).not.toContain(secret);
      expect((await failing.get('/api/session')).status).toBe(200);
    } finally {
      await failing.close();
    }
  });

  it("the app server's 500 is logged once, with the request id and stack, never the error's message", async () => {
    const logs: string[] = [];
    const server = createAppServer({
      api: () => {
        throw hostileError();
      },
      staticDir: 'public',
      logger: createLogger({ write: (text: string) => void logs.push(text.trimEnd()) }),
    });
    const { port, close } = await listen(server);
    try {
      const res = await rawRequest(port, '/api/meta');
      expect(res.status).toBe(500);
      await expect.poll(() => logs.length).toBe(2);
      const [unexpected, request] = parsed(logs);
      expect(unexpected).toMatchObject({
        level: 'error',
        msg: 'unexpected error',
        reqId: res.headers['x-request-id'],
        error: { type: 'TypeError' },
      });
      expect((unexpected!.error as { stack: string[] }).stack.length).toBeGreaterThan(0);
      expect(request).toMatchObject({ msg: 'request', status: 500, reqId: res.headers['x-request-id'] });
      for (const secret of secrets) expect(logs.join('\n')).not.toContain(secret);
    } finally {
      await close();
    }
  });
});
