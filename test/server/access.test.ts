import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiErrorBodySchema, sessionInfoSchema } from '../../src/kyc/contract/api.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { testPasswordHash } from './passwords.ts';
import { createAuditLog, type AuditEntry } from '../../src/server/audit/audit.ts';
import { createRateLimiter } from '../../src/server/ops/rate-limit.ts';
import { createMemoryStore } from '../../src/server/state/store.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../../src/server/sandbox/sandbox.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { cookieOf, rawRequest, signIn as signInAt, startTestApp, type RawResponse, type TestApp } from './http.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-access-'));
const candidates = await sampleCandidates({ now: new Date() });
const amelie = candidates[0]!.record;
const PERSONAL = [amelie.identities!.email!.value, amelie.identities!.family_name!.value, amelie.customFields!.accountId as string];
let sandbox: RunningSandbox;
const usersFile = path.join(dir, 'users.json');
const PASSWORDS = { ana: 'ana has a long password', sam: 'sam has a long password too' };

beforeAll(async () => {
  sandbox = await startSandbox({ candidates });
  writeFileSync(
    usersFile,
    JSON.stringify({
      users: [
        { username: 'ana', passwordHash: await testPasswordHash(PASSWORDS.ana), role: 'compliance' },
        { username: 'sam', passwordHash: await testPasswordHash(PASSWORDS.sam), role: 'support' },
      ],
    }),
  );
});
afterAll(() => sandbox.close());

const body = (res: RawResponse) => JSON.parse(res.body) as Record<string, unknown>;
const errorCode = (res: RawResponse) => apiErrorBodySchema.parse(JSON.parse(res.body)).error.code;
const readAudit = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as AuditEntry);

function target(statusKey: boolean) {
  return {
    baseUrl: sandbox.url,
    clientId: sandbox.clientId,
    apiKey: SANDBOX_KEYS.full,
    ...(statusKey ? { statusApiKey: SANDBOX_KEYS.status } : {}),
  };
}

const signIn = (app: TestApp, username: string, password: string, headers: Record<string, string> = {}) =>
  signInAt(app.port, username, password, headers);

describe('built-in users', () => {
  let app: TestApp;
  let clock = Date.now();
  const auditFile = path.join(dir, 'users-audit.jsonl');
  beforeAll(async () => {
    app = await startTestApp({
      upstream: target(false),
      access: createAccessControl(
        { mode: 'users', usersFile, sessionMaxAgeMinutes: 60, sessionIdleMinutes: 10 },
        { now: () => clock, signInDelayMs: 1 },
      ),
      audit: createAuditLog(auditFile),
    });
  });
  afterAll(() => app.close());

  it('refuses every API call without a session, before reaching the upstream', async () => {
    for (const route of ['/api/meta', `/api/candidates/refId/${amelie.refId}`, '/api/candidates/recordId/x', '/api/nothing']) {
      const res = await app.get(route);
      expect(res.status, route).toBe(401);
      expect(errorCode(res)).toBe('unauthenticated');
    }
    expect(sessionInfoSchema.parse(body(await app.get('/api/session')))).toEqual({ mode: 'users' });
  });

  it('signs in with the right password into an HttpOnly, SameSite=Strict session cookie', async () => {
    const res = await signIn(app, 'ana', PASSWORDS.ana);
    expect(res.status).toBe(200);
    expect(body(res)).toEqual({ mode: 'users', user: 'ana', role: 'compliance' });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^cl_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=3600$/);
    const session = await app.get('/api/session', { cookie: cookieOf(res) });
    expect(body(session)).toEqual({ mode: 'users', user: 'ana', role: 'compliance' });
    const lookup = await app.get(`/api/candidates/refId/${amelie.refId}`, { cookie: cookieOf(res) });
    expect(lookup.status).toBe(200);
    expect(lookup.body).toContain(amelie.identities!.passport!.value.slice(0, 100));
  });

  it('refuses a wrong password or an unknown user with the same answer, and a form post', async () => {
    for (const [user, password] of [
      ['ana', 'wrong password!!'],
      ['nobody', 'whatever password'],
    ] as const) {
      const res = await signIn(app, user, password);
      expect(res.status).toBe(401);
      expect(apiErrorBodySchema.parse(JSON.parse(res.body)).error).toEqual({
        code: 'sign_in_failed',
        message: 'Wrong username or password.',
      });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const form = await signIn(app, 'ana', PASSWORDS.ana, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    expect(errorCode(form)).toBe('unsupported_media_type');
    const crossSite = await signIn(app, 'ana', PASSWORDS.ana, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(errorCode(crossSite)).toBe('not_from_app');
  });

  it('locks a username at one address after ten failed sign-ins, even with the right password', async () => {
    for (let i = 0; i < 10; i++) await signIn(app, 'sam', `wrong password ${i}`);
    const locked = await signIn(app, 'sam', PASSWORDS.sam);
    expect(locked.status).toBe(429);
    expect(errorCode(locked)).toBe('too_many_sign_in_attempts');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // Locks expire by the clock rate-limiter-flexible reads (Date): only Date is moved.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 16 * 60_000);
      clock += 16 * 60_000;
      expect((await signIn(app, 'sam', PASSWORDS.sam)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends sessions on sign-out, when idle too long, and at their maximum age', async () => {
    const cookie = cookieOf(await signIn(app, 'ana', PASSWORDS.ana));
    const out = await rawRequest(app.port, '/api/session', { method: 'DELETE', headers: { cookie } });
    expect(out.status).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/Max-Age=0/);
    expect((await app.get('/api/meta', { cookie })).status).toBe(401);

    const idle = cookieOf(await signIn(app, 'ana', PASSWORDS.ana));
    clock += 11 * 60_000;
    expect((await app.get('/api/meta', { cookie: idle })).status).toBe(401);

    const busy = cookieOf(await signIn(app, 'ana', PASSWORDS.ana));
    for (let i = 0; i < 6; i++) {
      clock += 9 * 60_000;
      expect((await app.get('/api/meta', { cookie: busy })).status).toBe(200);
    }
    clock += 9 * 60_000; // 63 minutes after sign-in, never idle 10: past the 60-minute maximum
    expect((await app.get('/api/meta', { cookie: busy })).status).toBe(401);
  });

  it('gives a support user status level only, stripped on the server when there is no status key', async () => {
    const cookie = cookieOf(await signIn(app, 'sam', PASSWORDS.sam));
    for (const route of [`/api/candidates/refId/${amelie.refId}`, `/api/candidates/recordId/${amelie.recordId}`]) {
      for (const extra of [{}, { 'accept-encoding': 'gzip, br' }, { accept: 'application/octet-stream' }]) {
        const res = await app.get(route, { cookie, ...extra });
        expect(res.status).toBe(200);
        const data = (body(res).data as Record<string, unknown>) ?? {};
        expect(data.status).toBe('approved');
        expect(data.identities).toBeUndefined();
        expect(data.customFields).toBeUndefined();
        expect(data.certs).toBeUndefined();
        for (const secret of PERSONAL) expect(res.body).not.toContain(secret);
      }
    }
  });

  it('records every lookup in the audit log, with who, what and the outcome, but no data', () => {
    const lines = readAudit(auditFile);
    expect(lines.length).toBeGreaterThanOrEqual(6);
    const ana = lines.find((l) => l.user === 'ana')!;
    expect(ana).toMatchObject({
      role: 'compliance',
      kind: 'refId',
      id: amelie.refId,
      status: 200,
      code: null,
      upstreamStatus: 200,
      level: 'full',
    });
    expect(lines.filter((l) => l.user === 'sam').every((l) => l.level === 'stripped' && l.role === 'support')).toBe(true);
    expect(Date.parse(lines[0]!.time)).not.toBeNaN();
    const text = readFileSync(auditFile, 'utf8');
    for (const secret of [...PERSONAL, ...Object.values(SANDBOX_KEYS), PASSWORDS.ana, PASSWORDS.sam]) expect(text).not.toContain(secret);
  });
});

describe('support user with a status key', () => {
  it('uses the status key, so identity data never even reaches the server', async () => {
    const upstream = await startFakeUpstream();
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key', statusApiKey: 'status-key' },
      access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
    });
    await app.get('/api/candidates/refId/a', { 'x-user': 'sam', 'x-role': 'support' });
    await app.get('/api/candidates/refId/a', { 'x-user': 'ana', 'x-role': 'Compliance' });
    expect(upstream.seen.map((r) => r.headers.authorization)).toEqual(['status-key', 'full-key']);
    await app.close();
    await upstream.close();
  });
});

describe('support user without a status key: what cannot be checked is never passed on', () => {
  it.each([
    [
      'a body that is not JSON',
      // No envelope opens (no status, no data): said as not a record, in the full answer's words (not-a-record.ts).
      (res: import('node:http').ServerResponse) => res.writeHead(200).end('{"identities": {"passport"'),
      'not_a_record',
    ],
    [
      'a body over the size limit',
      (res: import('node:http').ServerResponse) => {
        // JSON as far as it goes: the size, not the syntax, is what refuses it.
        res.writeHead(200).write(`{"status":"success","data":{"identities":"${'x'.repeat(8000)}`);
        res.end(`${'y'.repeat(8000)}"}}`);
      },
      'response_too_large',
    ],
    [
      'a body cut mid-way',
      (res: import('node:http').ServerResponse) => {
        res.writeHead(200, { 'content-length': 5000 });
        res.write('{"status":"success","data":{"identities":');
        setTimeout(() => res.socket?.destroy(), 20);
      },
      'upstream_error',
    ],
  ])('%s: 502 without a byte of it', async (_name, behave, code) => {
    const upstream = await startFakeUpstream();
    upstream.behave = (_req, res) => behave(res);
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key' },
      access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1'] }),
      settings: {
        limits: {
          maxResponseBytes: 10_000,
        },
      },
    });
    const res = await app.get('/api/candidates/refId/a', { 'x-user': 'sam', 'x-role': 'support' });
    expect(res.status).toBe(502);
    expect(errorCode(res)).toBe(code);
    expect(res.body).not.toContain('identities');
    expect(upstream.seen[0]!.headers['accept-encoding']).toBe('identity');
    await app.close();
    await upstream.close();
  });
});

describe('identity-aware proxy', () => {
  it('trusts the user and role headers only from the configured addresses', async () => {
    const upstream = await startFakeUpstream();
    const make = (trusted: string[]) =>
      startTestApp({
        upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' },
        access: createAccessControl({ mode: 'proxy', userHeader: 'x-forwarded-user', roleHeader: 'x-forwarded-role', trusted }),
      });
    const trustedApp = await make(['127.0.0.0/8']);
    const untrustedApp = await make(['10.0.0.0/8', '::1/128']);
    const headers = { 'x-forwarded-user': 'ana@example.org', 'x-forwarded-role': 'compliance' };

    expect((await trustedApp.get('/api/candidates/refId/a', headers)).status).toBe(200);
    expect(body(await trustedApp.get('/api/session', headers))).toEqual({ mode: 'proxy', user: 'ana@example.org', role: 'compliance' });
    for (const bad of [
      {},
      { 'x-forwarded-user': 'ana' },
      { ...headers, 'x-forwarded-role': 'admin' },
      { ...headers, 'x-forwarded-user': '' },
    ]) {
      const res = await trustedApp.get('/api/candidates/refId/a', bad);
      expect(res.status).toBe(401);
    }
    const fromElsewhere = await untrustedApp.get('/api/candidates/refId/a', headers);
    expect(fromElsewhere.status).toBe(401);
    expect(errorCode(fromElsewhere)).toBe('unauthenticated');
    expect(upstream.seen).toHaveLength(1);
    await trustedApp.close();
    await untrustedApp.close();
    await upstream.close();
  });
});

describe('audit log and rate limits', () => {
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  beforeEach(async () => {
    upstream = await startFakeUpstream();
    return () => upstream.close();
  });

  it('records refused, failed and found lookups alike', async () => {
    const file = path.join(dir, 'outcomes.jsonl');
    const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' }, audit: createAuditLog(file) });
    upstream.behave = (req, res) => {
      res.writeHead(req.url?.endsWith('/missing') ? 404 : 200, { 'content-type': 'application/json' });
      res.end(req.url?.endsWith('/missing') ? '{}' : '{"status":"success","data":{"status":"approved"}}');
    };
    await app.get('/api/candidates/refId/found');
    await app.get('/api/candidates/recordId/missing');
    await app.get('/api/candidates/refId/%0A');
    await app.close();
    expect(
      readAudit(file).map(({ kind, id, status, code, upstreamStatus, level, user, role }) => ({
        kind,
        id,
        status,
        code,
        upstreamStatus,
        level,
        user,
        role,
      })),
    ).toEqual([
      { kind: 'refId', id: 'found', status: 200, code: null, upstreamStatus: 200, level: 'full', user: 'local', role: 'compliance' },
      // Its request's closing line: what the answer held (held-audit.test.ts).
      { kind: 'refId', id: 'found', status: 200, code: null, upstreamStatus: 200, level: 'full', user: 'local', role: 'compliance' },
      {
        kind: 'recordId',
        id: 'missing',
        status: 404,
        code: 'not_found',
        upstreamStatus: 404,
        level: 'full',
        user: 'local',
        role: 'compliance',
      },
      { kind: 'refId', id: '\n', status: 400, code: 'invalid_id', upstreamStatus: null, level: null, user: 'local', role: 'compliance' },
    ]);
  });

  it('records the decoded id whenever the path decodes, valid or not, and the path text as received when it does not', async () => {
    const file = path.join(dir, 'ids.jsonl');
    const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' }, audit: createAuditLog(file) });
    upstream.behave = (_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{}');
    };
    const asked = ['%C3%A9t%C3%A9%2F1', '%20%20', 'bad%ZZ', 'two/segments%20'];
    for (const id of asked) await app.get(`/api/candidates/refId/${id}`);
    await app.close();
    expect(readAudit(file).map(({ id, code }) => ({ id, code }))).toEqual([
      { id: 'été/1', code: 'not_found' },
      { id: '  ', code: 'invalid_id' },
      { id: 'bad%ZZ', code: 'invalid_id' },
      { id: 'two/segments%20', code: 'invalid_id' },
    ]);
  });

  it('refuses the lookup when the audit line cannot be written, and keeps serving', async () => {
    const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' }, audit: createAuditLog('/dev/full') });
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"success","data":{"secret":"candidate data"}}');
    };
    for (const route of ['/api/candidates/refId/a', '/api/candidates/refId/%0A']) {
      const res = await app.get(route);
      expect(res.status).toBe(503);
      expect(errorCode(res)).toBe('audit_unavailable');
      expect(res.body).not.toContain('candidate data');
    }
    expect((await app.get('/api/session')).status).toBe(200);
    await app.close();
  });

  it('limits lookups per user with 429 and Retry-After, each user on their own', async () => {
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' },
      access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1'] }),
      settings: {
        limits: {
          lookupsPerMinute: 2,
        },
      },
    });
    const as = (user: string) => ({ 'x-user': user, 'x-role': 'compliance' });
    expect((await app.get('/api/candidates/refId/a', as('ana'))).status).toBe(200);
    expect((await app.get('/api/candidates/refId/b', as('ana'))).status).toBe(200);
    const limited = await app.get('/api/candidates/refId/c', as('ana'));
    expect(limited.status).toBe(429);
    expect(errorCode(limited)).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await app.get('/api/candidates/refId/d', as('sam'))).status).toBe(200);
    expect(upstream.seen).toHaveLength(3);
    await app.close();
  });
});

describe('rate limiter', () => {
  it('allows the configured lookups per minute and key, then says how long to wait', async () => {
    const limiter = createRateLimiter(createMemoryStore(), 'lookups', 60);
    for (let i = 0; i < 60; i++) expect((await limiter.take('u')).ok).toBe(true);
    const refused = await limiter.take('u');
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect((await limiter.take('other')).ok).toBe(true);
    const off = createRateLimiter(createMemoryStore(), 'lookups', 0);
    for (let i = 0; i < 100; i++) expect((await off.take('u')).ok).toBe(true);
  });
});
