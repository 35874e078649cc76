import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiFromConfig } from '../../src/server/composition/api.ts';
import { createAppServer } from '../../src/server/composition/app-server.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { testPasswordHash } from './passwords.ts';
import { upsertUser } from '../../src/server/auth/users-file.ts';
import type { AuditLine } from '../../src/server/audit/audit.ts';
import { ConfigError, parseConfig } from '../../src/server/config/config.ts';
import type { ConfigFile } from '../../src/server/config/file-schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { loadSandboxData } from '../../src/server/sandbox/data-file.ts';
import { samplesOf } from '../../src/server/composition/resolve-upstream.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { cookieOf, listen, rawRequest, signIn, startTestApp, testEnvironment } from './http.ts';
import { errorOf } from './service-app.ts';

/** Issue 9's attacks on the edge of the server (requests, headers, cookies, start-up), one test each. */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-edge-'));

/** A stand-in for the built app: an index.html to serve. */
function builtClient(): string {
  const staticDir = path.join(dir, 'client');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Candidate Lookup</title>');
  return staticDir;
}

/** A fake upstream and the app in front of it, with the audit lines kept in memory. */
async function upstreamAndApp(options: Partial<Parameters<typeof startTestApp>[0]> = {}) {
  const upstream = await startFakeUpstream();
  const audited: AuditLine[] = [];
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' },
    audit: { record: async (entry) => void audited.push(entry), available: () => true },
    ...options,
  });
  cleanups.push(app.close, upstream.close);
  return { upstream, app, audited };
}

/** The server as `npm start` builds it from the environment, in front of a fake upstream. */
async function configuredApp(env: Record<string, string>, file?: ConfigFile) {
  const upstream = await startFakeUpstream();
  const config = parseConfig({ AUDIT_LOG: path.join(dir, 'configured-audit.jsonl'), ...env }, file);
  const resolved = {
    environments: [testEnvironment({ baseUrl: upstream.url, clientId: 'c', apiKey: 'k' })],
    banner: [],
    close: async () => {},
  };
  const configured = createApiFromConfig(config, resolved, { queueCrawl: { start: false } });
  const server = await listen(createAppServer({ api: configured.handler, staticDir: 'public' }));
  cleanups.push(server.close, upstream.close, configured.close);
  return { upstream, port: server.port };
}

describe('the back/forward cache or a shared cache bringing a candidate page back after sign-out', () => {
  it('serves the page with Cache-Control: no-store, at / and at every deep link', async () => {
    const staticDir = builtClient();
    const upstream = await startFakeUpstream();
    const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' } }, staticDir);
    cleanups.push(app.close, upstream.close);
    for (const route of ['/', '/index.html', '/candidates/refId/cust_000482']) {
      const res = await app.get(route);
      expect(res.status, route).toBe(200);
      expect(res.body, route).toContain('<title>Candidate Lookup</title>');
      expect(res.headers['cache-control'], route).toBe('no-store');
    }
  });
});

describe('credentials embedded in KYC_BASE_URL', () => {
  it('are refused at start with a message that does not print them', () => {
    for (const url of ['https://ops:hunter2-secret@kyc.example.org', 'https://hunter2-secret@kyc.example.org/']) {
      let message = '';
      try {
        parseConfig({ KYC_BASE_URL: url, KYC_CLIENT_ID: 'c', KYC_API_KEY: 'k' });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        message = (error as Error).message;
      }
      expect(message).toContain('KYC_BASE_URL must not contain a user name or password');
      expect(message).not.toContain('hunter2');
    }
  });
});

describe("a page on another site making lookups in a signed-in user's name", () => {
  const lookupPath = '/api/candidates/refId/cust_000482';

  it('refuses a request another site sent (Sec-Fetch-Site), even with the header, before anyone is identified or audited', async () => {
    const { upstream, app, audited } = await upstreamAndApp();
    for (const site of ['cross-site', 'same-site', 'something-else']) {
      for (const route of [lookupPath, '/api/meta', '/api/session', '/api/nothing']) {
        const res = await app.get(route, { 'sec-fetch-site': site, 'sec-fetch-mode': 'no-cors' });
        expect(res.status, `${site} ${route}`).toBe(403);
        expect(errorOf(res).code).toBe('not_from_app');
        expect(errorOf(res).message).toContain('Sec-Fetch-Site');
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
      }
    }
    expect(upstream.seen).toHaveLength(0);
    expect(audited).toHaveLength(0);
  });

  it("refuses a request without the app's header (a navigation, a form, an older browser), and a CORS preflight for it", async () => {
    const { upstream, app, audited } = await upstreamAndApp();
    for (const route of [lookupPath, '/api/meta', '/api/session']) {
      const res = await app.get(route, { 'X-Candidate-Lookup': undefined });
      expect(res.status, route).toBe(403);
      expect(errorOf(res).message).toContain('X-Candidate-Lookup: 1');
      expect((await app.get(route, { 'X-Candidate-Lookup': 'true' })).status, route).toBe(403);
    }
    const preflight = await rawRequest(app.port, lookupPath, {
      method: 'OPTIONS',
      headers: {
        'X-Candidate-Lookup': undefined,
        origin: 'https://attacker.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-candidate-lookup',
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'cors',
      },
    });
    expect(preflight.status).toBe(403);
    expect(Object.keys(preflight.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    expect(upstream.seen).toHaveLength(0);
    expect(audited).toHaveLength(0);
  });

  it('answers the app itself: its header, from the same origin or typed by the user', async () => {
    const { upstream, app, audited } = await upstreamAndApp();
    for (const site of ['same-origin', 'none', undefined]) {
      const res = await app.get(lookupPath, { 'sec-fetch-site': site });
      expect(res.status, String(site)).toBe(200);
    }
    expect(upstream.seen).toHaveLength(3);
    // One line per lookup, besides each full answer's closing line (what it held).
    const lookups = audited.filter((entry) => !('held' in entry));
    expect(lookups.map((entry) => ('id' in entry ? entry.id : undefined))).toEqual(['cust_000482', 'cust_000482', 'cust_000482']);
  });
});

describe('local mode behind a reverse proxy on the same machine, which opens it to the network', () => {
  it('refuses requests that came through a proxy, saying why and what to configure', async () => {
    const { upstream, port } = await configuredApp({});
    for (const [header, value] of [
      ['X-Forwarded-For', '203.0.113.7'],
      ['Forwarded', 'for=203.0.113.7;proto=https'],
      ['Via', '1.1 nginx'],
      ['X-Real-IP', '203.0.113.7'],
    ] as const) {
      for (const route of ['/api/candidates/refId/cust_000482', '/api/session', '/api/meta']) {
        const res = await rawRequest(port, route, { headers: { [header]: value } });
        expect(res.status, `${header} ${route}`).toBe(403);
        expect(errorOf(res).code).toBe('proxied_request');
        expect(errorOf(res).message).toContain(`it carries ${header}`);
        expect(errorOf(res).message).toMatch(/no sign-in is configured.*CONFIG_FILE's signIn.*"allowUnauthenticated": true/s);
      }
    }
    expect(upstream.seen).toHaveLength(0);
    expect((await rawRequest(port, '/api/candidates/refId/cust_000482')).status).toBe(200);
  });

  it('lets them through when something else guards access (signIn.allowUnauthenticated) or sign-in is configured', async () => {
    const open = await configuredApp({ HOST: '0.0.0.0' }, { signIn: { mode: 'local', allowUnauthenticated: true } });
    expect((await rawRequest(open.port, '/api/meta', { headers: { 'X-Forwarded-For': '203.0.113.7', Via: '1.1 nginx' } })).status).toBe(
      200,
    );
    writeFileSync(path.join(dir, 'users.json'), '{"users":[]}');
    const users = await configuredApp({}, { signIn: { mode: 'users', usersFile: path.join(dir, 'users.json') } });
    const session = await rawRequest(users.port, '/api/session', { headers: { 'X-Forwarded-For': '203.0.113.7' } });
    expect(session.status).toBe(200);
  });
});

describe("a support user reading the sandbox candidates' names from /api/meta", () => {
  it('leaves the names out for support users, from the built-in candidates and a data file alike', async () => {
    const dataFile = path.join(dir, 'team-candidates.json');
    const teamMember = { status: 'waiting', refId: 'team-1', recordId: 'r-team-1', isArchived: false, blockPassID: 'b', submitCount: 1 };
    writeFileSync(dataFile, JSON.stringify([{ ...teamMember, identities: { given_name: { type: 'string', value: 'Zebulon' } } }]));
    const candidates = [...(await sampleCandidates({ now: new Date(), pictures: false })), ...loadSandboxData(dataFile)];
    const samples = samplesOf(candidates);
    const names = samples.flatMap((sample) => (sample.name ? [sample.name] : []));
    expect(names).toContain('Zebulon');
    const { app } = await upstreamAndApp({
      samples,
      access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
    });

    const support = await app.get('/api/meta', { 'x-user': 'sam', 'x-role': 'support' });
    expect(support.status).toBe(200);
    const supportSamples = JSON.parse(support.body).samples as Array<Record<string, unknown>>;
    expect(supportSamples.map((sample) => sample.id)).toEqual(samples.map((sample) => sample.id));
    expect(supportSamples.filter((sample) => 'name' in sample)).toEqual([]);
    for (const name of names) expect(support.body).not.toContain(name);

    const compliance = await app.get('/api/meta', { 'x-user': 'ana', 'x-role': 'compliance' });
    expect(
      JSON.parse(compliance.body)
        .samples.map((sample: { name?: string }) => sample.name)
        .filter(Boolean),
    ).toEqual(names);
  });
});

describe('https claimed by anyone, and a session cookie planted from a sibling or a plain-http page', () => {
  const usersFile = path.join(dir, 'https-users.json');
  async function usersApp(trustedProxies: string[]) {
    writeFileSync(
      usersFile,
      JSON.stringify({ users: [{ username: 'ana', passwordHash: await testPasswordHash('ana password ok'), role: 'compliance' }] }),
    );
    const access = createAccessControl(
      { mode: 'users', usersFile, sessionMaxAgeMinutes: 60, sessionIdleMinutes: 10 },
      { signInDelayMs: 1 },
    );
    const { app } = await upstreamAndApp({
      access,
      settings: {
        trustedProxies,
      },
    });
    return app;
  }

  it('behind a trusted https proxy: a __Host- cookie, Secure, and HSTS on the API and the page', async () => {
    const app = await usersApp(['127.0.0.1/32', '::1/128']);
    const https = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' };
    const res = await signIn(app.port, 'ana', 'ana password ok', https);
    expect(res.status).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(
      /^__Host-cl_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=3600; Secure$/,
    );
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    const cookie = cookieOf(res);
    expect(JSON.parse((await app.get('/api/session', { ...https, cookie })).body)).toMatchObject({ user: 'ana' });
    // The same token under the plain name (as a sibling subdomain or an http page could set it) is no session.
    const planted = cookie.replace('__Host-cl_session=', 'cl_session=');
    expect(JSON.parse((await app.get('/api/session', { ...https, cookie: planted })).body)).toEqual({ mode: 'users' });
    expect((await app.get('/favicon.svg', https)).headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('/healthz and /readyz lack HSTS behind a trusted TLS proxy: now they carry it like every answer', async () => {
    const { app } = await upstreamAndApp({
      settings: {
        trustedProxies: ['127.0.0.1/32', '::1/128'],
      },
    });
    for (const route of ['/healthz', '/readyz']) {
      const res = await app.get(route, { 'x-forwarded-proto': 'https' });
      expect([route, res.status, res.headers['strict-transport-security']]).toEqual([route, 200, 'max-age=31536000']);
      expect((await app.get(route)).headers['strict-transport-security']).toBeUndefined();
    }
    const { app: untrusting } = await upstreamAndApp({
      settings: {
        trustedProxies: ['10.0.0.0/8'],
      },
    });
    expect((await untrusting.get('/healthz', { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toBeUndefined();
  });

  it('believes X-Forwarded-Proto by its first value only', async () => {
    const app = await usersApp(['127.0.0.1/32', '::1/128']);
    const downgraded = await signIn(app.port, 'ana', 'ana password ok', { 'x-forwarded-proto': 'http, https' });
    expect(String(downgraded.headers['set-cookie'])).toMatch(/^cl_session=.*Max-Age=3600$/);
    expect(downgraded.headers['strict-transport-security']).toBeUndefined();
    const first = await signIn(app.port, 'ana', 'ana password ok', { 'x-forwarded-proto': 'HTTPS , http' });
    expect(String(first.headers['set-cookie'])).toMatch(/^__Host-cl_session=.*; Secure$/);
  });

  it('ignores X-Forwarded-Proto from anyone not in TRUSTED_PROXIES', async () => {
    for (const trusted of [[], ['10.0.0.0/8']]) {
      const app = await usersApp(trusted);
      const res = await signIn(app.port, 'ana', 'ana password ok', { 'x-forwarded-proto': 'https' });
      expect(res.status).toBe(200);
      expect(String(res.headers['set-cookie']), String(trusted)).toMatch(/^cl_session=.*Max-Age=3600$/);
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });
});

describe('identity-aware proxy headers repeated (two users joined into a third) or in UTF-8 (a garbled name)', () => {
  const gateway = () =>
    upstreamAndApp({
      access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
    });
  /** What a proxy sends for a name: its UTF-8 bytes, which Node's client writes as they are when given as Latin-1. */
  const asSent = (name: string) => Buffer.from(name, 'utf8').toString('latin1');

  it('refuses a user or role header that came more than once, instead of joining them', async () => {
    const { upstream, app, audited } = await gateway();
    for (const headers of [
      { 'x-user': ['alice', 'bob'], 'x-role': 'compliance' },
      { 'x-user': 'alice', 'x-role': ['support', 'compliance'] },
    ]) {
      const session = await app.get('/api/session', headers);
      expect(session.status).toBe(401);
      expect(errorOf(session).message).toMatch(/header came more than once, so it identifies nobody/);
      expect((await app.get('/api/candidates/refId/cust_000482', headers)).status).toBe(401);
    }
    expect(upstream.seen).toHaveLength(0);
    expect(audited).toHaveLength(0);
  });

  it('reads the user name as UTF-8, in the session and the audit line, and refuses bytes that are not UTF-8', async () => {
    const { app, audited } = await gateway();
    const headers = { 'x-user': asSent('José Núñez-Øster 王'), 'x-role': 'compliance' };
    expect(JSON.parse((await app.get('/api/session', headers)).body)).toEqual({
      mode: 'proxy',
      user: 'José Núñez-Øster 王',
      role: 'compliance',
    });
    expect((await app.get('/api/candidates/refId/cust_000482', headers)).status).toBe(200);
    const lookups = audited.filter((entry) => !('held' in entry));
    expect(lookups.map((entry) => ('user' in entry ? entry.user : undefined))).toEqual(['José Núñez-Øster 王']);

    const latin1 = await app.get('/api/session', { 'x-user': 'Jos\u00e9', 'x-role': 'compliance' });
    expect(latin1.status).toBe(401);
    expect(errorOf(latin1).message).toBe("The sign-in gateway's x-user header is not valid UTF-8.");
  });
});

describe('a session that outlives a password change (npm run user:add for an existing user)', () => {
  it("ends that user's sessions within a second or so, and nobody else's", async () => {
    const usersFile = path.join(dir, 'password-change-users.json');
    const user = async (username: string, password: string) => ({
      username,
      passwordHash: await testPasswordHash(password),
      role: 'compliance' as const,
    });
    writeFileSync(usersFile, JSON.stringify({ users: [await user('ana', 'ana old password'), await user('sam', 'sam password ok')] }));
    const access = createAccessControl(
      { mode: 'users', usersFile, sessionMaxAgeMinutes: 60, sessionIdleMinutes: 10 },
      { signInDelayMs: 1 },
    );
    const { app } = await upstreamAndApp({ access });
    const ana = cookieOf(await signIn(app.port, 'ana', 'ana old password'));
    const sam = cookieOf(await signIn(app.port, 'sam', 'sam password ok'));
    const who = async (cookie: string) => JSON.parse((await app.get('/api/session', { cookie })).body).user as string | undefined;
    expect(await who(ana)).toBe('ana');

    // What `npm run user:add -- ana --role compliance` writes when given a new password.
    upsertUser(usersFile, await user('ana', 'ana new password'));
    await expect.poll(() => who(ana), { timeout: 15_000, interval: 100 }).toBeUndefined();
    expect((await app.get('/api/candidates/refId/cust_000482', { cookie: ana })).status).toBe(401);
    expect(await who(sam)).toBe('sam');
    expect((await signIn(app.port, 'ana', 'ana old password')).status).toBe(401);
    expect(await who(cookieOf(await signIn(app.port, 'ana', 'ana new password')))).toBe('ana');
  });
});

describe('jamming sign-in without an account', () => {
  const usersFile = path.join(dir, 'jam-users.json');
  const users = async () =>
    writeFileSync(
      usersFile,
      JSON.stringify({ users: [{ username: 'ana', passwordHash: await testPasswordHash('ana password ok'), role: 'compliance' }] }),
    );
  /** A sign-in sent from one of this machine's loopback addresses (127.0.0.0/8), as if from another client. */
  const signInFrom = (port: number, from: string, password: string, headers: Record<string, string> = {}) =>
    rawRequest(port, '/api/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ username: 'ana', password }),
      localAddress: from,
    });

  it("lets a colleague's sign-in through while wrong guesses from two addresses keep coming", async () => {
    await users();
    // The real wait after a failure (250 ms, doubling): a guess used to hold the username's only turn through it.
    const access = createAccessControl({ mode: 'users', usersFile, sessionMaxAgeMinutes: 60, sessionIdleMinutes: 10 });
    const { app } = await upstreamAndApp({ access });
    let jamming = true;
    const refused = new Map<string, number>();
    const attacker = async (from: string) => {
      while (jamming) {
        await signInFrom(app.port, from, 'a wrong guess');
        refused.set(from, (refused.get(from) ?? 0) + 1);
      }
    };
    const attackers = ['127.0.0.2', '127.0.0.3'].flatMap((from) => [attacker(from), attacker(from)]);
    // The colleague comes once each address has had a guess refused: the username's waits are under way.
    await expect.poll(() => Math.min(refused.get('127.0.0.2') ?? 0, refused.get('127.0.0.3') ?? 0), { timeout: 15_000 }).toBeGreaterThan(0);
    const colleague = await signInFrom(app.port, '127.0.0.4', 'ana password ok');
    jamming = false;
    await Promise.all(attackers);
    expect(colleague.status, colleague.body).toBe(200);
    expect(JSON.parse(colleague.body)).toMatchObject({ user: 'ana' });
  });

  it('behind a reverse proxy, locks the guessing client only (TRUSTED_PROXIES), not everyone behind the proxy', async () => {
    await users();
    const access = createAccessControl(
      { mode: 'users', usersFile, sessionMaxAgeMinutes: 60, sessionIdleMinutes: 10 },
      { signInDelayMs: 1 },
    );
    const { app } = await upstreamAndApp({
      access,
      settings: {
        trustedProxies: ['127.0.0.1/32'],
      },
    });
    const guesser = { 'x-forwarded-for': '203.0.113.9' };
    // Ten failures lock a username at the client's address (fifty from one address lock it, the same way).
    for (let i = 0; i < 10; i++) expect((await signIn(app.port, 'ana', `guess ${i}`, guesser)).status).toBe(401);
    expect((await signIn(app.port, 'ana', 'ana password ok', guesser)).status).toBe(429);
    // A forged X-Forwarded-For sent straight to the server (not through the proxy) is not believed.
    expect((await signInFrom(app.port, '127.0.0.5', 'ana password ok', guesser)).status).toBe(200);
    const colleague = await signIn(app.port, 'ana', 'ana password ok', { 'x-forwarded-for': '198.51.100.7' });
    expect(colleague.status).toBe(200);
  });
});
