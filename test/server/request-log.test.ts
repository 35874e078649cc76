import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { type AuditEntry, createAuditLog } from '../../src/server/audit.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { type RawResponse, startTestApp, type TestApp } from './http.ts';

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
    for (const line of app.logs) {
      expect(Object.keys(JSON.parse(line)).sort()).toEqual(
        ['level', 'time', 'pid', 'hostname', 'reqId', 'method', 'route', 'status', 'ms', 'bytes', 'msg'].sort(),
      );
    }
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
