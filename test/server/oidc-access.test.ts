import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_REQUEST_HEADER, apiErrorBodySchema, oidcStartSchema } from '../../src/kyc/contract/api.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import type { ConfigFile } from '../../src/server/config/file-schema.ts';
import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../../src/server/sandbox/sandbox.ts';
import type { RawResponse } from './http.ts';
import { cookieFrom, freePort, type Instance, startInstance } from './instance.ts';
import { OIDC_CLIENT, type OidcAccountName, signInAtProvider, startOidcProvider, type TestProvider } from './oidc-provider.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, startRedis, type RunningRedis } from './redis-fixture.ts';
import { withClockAhead } from './clock.ts';

/** OpenID Connect sign-in end to end over HTTP: the app as `npm start` builds it, a real provider, real redirects. */
const candidates = await sampleCandidates({ now: new Date() });
const amelie = candidates[0]!.record;
const LOOKUP = `/api/candidates/refId/${amelie.refId}`;

let sandbox: RunningSandbox;
let provider: TestProvider;
let shortCodes: TestProvider;
let app: Instance;
let expiring: Instance;
let redis: RunningRedis | undefined;
const ports = { app: 0, expiring: 0, one: 0, two: 0, byEmail: 0, leads: 0 };

/** The app signing in at `issuer`, on `port`; `extra` adds variables, or changes the file's signIn. */
const oidcInstance = (issuer: string, port: number, extra: { env?: Record<string, string>; signIn?: Record<string, unknown> } = {}) =>
  startInstance(
    {
      KYC_BASE_URL: sandbox.url,
      KYC_CLIENT_ID: sandbox.clientId,
      KYC_API_KEY: SANDBOX_KEYS.full,
      OIDC_CLIENT_SECRET: OIDC_CLIENT.clientSecret,
      // A request that says https (X-Forwarded-Proto) comes as through a TLS-terminating proxy on this machine.
      TRUSTED_PROXIES: '127.0.0.1/32,::1/128',
      ...extra.env,
    },
    {
      port,
      file: {
        signIn: {
          mode: 'oidc',
          issuer,
          clientId: OIDC_CLIENT.clientId,
          clientSecretEnv: 'OIDC_CLIENT_SECRET',
          redirectUrl: `http://127.0.0.1:${port}/api/oidc/callback`,
          roleClaim: 'groups',
          complianceValues: ['kyc-compliance'],
          supportValues: ['kyc-support'],
          scopes: ['openid', 'email', 'profile', 'groups'],
          providerName: 'Test IdP',
          sessionMaxAgeMinutes: 60,
          ...extra.signIn,
        } as ConfigFile['signIn'],
      },
    },
  );

beforeAll(async () => {
  for (const name of Object.keys(ports) as (keyof typeof ports)[]) ports[name] = await freePort();
  const callbacks = Object.values(ports).map((port) => `http://127.0.0.1:${port}/api/oidc/callback`);
  [sandbox, provider, shortCodes] = await Promise.all([
    startSandbox({ candidates }),
    startOidcProvider({ redirectUris: callbacks }),
    startOidcProvider({ redirectUris: callbacks, codeTtlSeconds: 1 }),
  ]);
  [app, expiring] = await Promise.all([oidcInstance(provider.issuer, ports.app), oidcInstance(shortCodes.issuer, ports.expiring)]);
  if (hasRedisServer) redis = await startRedis();
});
afterAll(async () => {
  await Promise.all([app?.close(), expiring?.close()]);
  await Promise.all([provider?.close(), shortCodes?.close(), sandbox?.close(), redis?.stop()]);
});

/** The provider sends the browser back: a top-level navigation from its site, without the app's header. */
const NAVIGATION = { [APP_REQUEST_HEADER.name]: undefined, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' };
const back = (at: Instance, callback: URL, headers: Record<string, string | undefined> = {}) =>
  at.request(callback.pathname + callback.search, { headers: { ...NAVIGATION, ...headers } });

/** How many sign-ins this instance refused for `reason`, as its metrics count them. */
async function refusals(at: Instance, reason: string): Promise<number> {
  const metric = await at.metrics.registry.getSingleMetric('candidate_lookup_oidc_sign_in_refusals_total')!.get();
  return metric.values.find((value) => value.labels.reason === reason)?.value ?? 0;
}

/** The refusal warnings the instance logged after `from` lines, parsed (pino's JSON lines). */
const refusalLines = (at: Instance, from: number) =>
  at.logs
    .slice(from)
    .filter((line) => line.includes('"oidc_sign_in_refused"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Nothing the browser brought back from the provider, and not the client secret, is in the log. */
function expectNoSecretsLogged(at: Instance, callback: URL) {
  const log = at.logs.join('\n');
  for (const name of ['code', 'state']) expect(log).not.toContain(callback.searchParams.get(name)!);
  expect(log).not.toContain(OIDC_CLIENT.clientSecret);
}

const json = (res: RawResponse) => JSON.parse(res.body) as Record<string, unknown>;
const errorCode = (res: RawResponse) => apiErrorBodySchema.parse(JSON.parse(res.body)).error.code;

/** What the page does on "Sign in with …": asks this server where to go. */
async function start(at: Instance, returnTo = '/', headers: Record<string, string> = {}) {
  const res = await at.request('/api/oidc/start', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', ...headers },
    body: JSON.stringify({ returnTo }),
  });
  expect(res.status).toBe(200);
  return { url: oidcStartSchema.parse(json(res)).authorizationUrl, pending: cookieFrom(res, 'cl_oidc')!, res };
}

/** The whole round trip as a browser makes it; returns the callback's answer. */
async function signInAs(
  account: OidcAccountName,
  options: { at?: Instance; back?: Instance; returnTo?: string; headers?: Record<string, string> } = {},
) {
  const at = options.at ?? app;
  const started = await start(at, options.returnTo, options.headers);
  const callback = await signInAtProvider(started.url, account);
  return back(options.back ?? at, callback, { cookie: started.pending, ...options.headers });
}

describe('OpenID Connect sign-in', () => {
  it('says who signs people in, and nobody is signed in yet', async () => {
    expect(json(await app.request('/api/session'))).toEqual({ mode: 'oidc', provider: 'Test IdP' });
    expect((await app.request(LOOKUP)).status).toBe(401);
  });

  it('signs a compliance user in with a session like the built-in users’ and returns to the page asked for', async () => {
    const res = await signInAs('ana', { returnTo: '/candidates/refId/abc' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/candidates/refId/abc');
    const setCookies = res.headers['set-cookie']!;
    expect(setCookies.find((c) => c.startsWith('cl_session='))).toMatch(
      /^cl_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=3600$/,
    );
    expect(setCookies.find((c) => c.startsWith('cl_oidc='))).toMatch(/^cl_oidc=; Path=\/api\/oidc; HttpOnly; SameSite=Lax; Max-Age=0$/);
    const cookie = cookieFrom(res, 'cl_session')!;
    expect(json(await app.request('/api/session', { headers: { cookie } }))).toEqual({
      mode: 'oidc',
      provider: 'Test IdP',
      user: 'ana@example.org',
      role: 'compliance',
    });
    const lookup = await app.request(LOOKUP, { headers: { cookie } });
    expect(lookup.status).toBe(200);
    expect(lookup.body).toContain(amelie.identities!.email!.value);
  });

  it('signs a support user in, who gets status level only', async () => {
    const cookie = cookieFrom(await signInAs('sam'), 'cl_session')!;
    expect(json(await app.request('/api/session', { headers: { cookie } }))).toMatchObject({ user: 'sam@example.org', role: 'support' });
    const lookup = await app.request(LOOKUP, { headers: { cookie } });
    expect(lookup.status).toBe(200);
    expect(lookup.body).not.toContain(amelie.identities!.email!.value);
    expect((json(lookup).data as Record<string, unknown>).status).toBe(amelie.status);
  });

  it('refuses a user whose claim maps to no role: no session, and the page that says so', async () => {
    const res = await signInAs('nora');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/sign-in-refused/no_role');
    expect(cookieFrom(res, 'cl_session')).toBeUndefined();
  });

  it('logs one warning per refused sign-in with why and who, counts it by reason, and logs no code, state or secret', async () => {
    const from = app.logs.length;
    const before = { no_role: await refusals(app, 'no_role'), stale: await refusals(app, 'stale') };

    const started = await start(app);
    const callback = await signInAtProvider(started.url, 'nora');
    expect((await back(app, callback, { cookie: started.pending })).headers.location).toBe('/sign-in-refused/no_role');
    const forged = await signInAtProvider((await start(app)).url, 'ana');
    forged.searchParams.set('state', 'made-up-by-an-attacker');
    expect((await back(app, forged, { cookie: started.pending })).headers.location).toBe('/sign-in-refused/stale');

    const lines = refusalLines(app, from);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 'warn', reason: 'no_role', user: 'nora@example.org', subject: 'nora' });
    expect(lines[0]!.detail).toContain('The groups claim matches none of signIn.leadValues, complianceValues and supportValues');
    expect(lines[0]!.msg).toContain('OpenID Connect sign-in refused (no_role) for nora@example.org');
    // The pending sign-in was already used by nora's: the forged state is refused as one nobody waits for.
    expect(lines[1]).toMatchObject({ level: 'warn', reason: 'stale' });
    expect(lines[1]).not.toHaveProperty('user');
    expect(await refusals(app, 'no_role')).toBe(before.no_role + 1);
    expect(await refusals(app, 'stale')).toBe(before.stale + 1);
    expectNoSecretsLogged(app, callback);
    expectNoSecretsLogged(app, forged);
  });

  it('refuses an answer with a state this browser was not given', async () => {
    const started = await start(app);
    const callback = await signInAtProvider(started.url, 'ana');
    const realState = callback.searchParams.get('state')!;
    callback.searchParams.set('state', 'made-up-by-an-attacker');
    const from = app.logs.length;
    const res = await back(app, callback, { cookie: started.pending });
    expect(res.headers.location).toBe('/sign-in-refused/stale');
    expect(cookieFrom(res, 'cl_session')).toBeUndefined();
    const [line] = refusalLines(app, from);
    expect(line).toMatchObject({ reason: 'stale', detail: 'The answer does not belong to the sign-in this browser started (state).' });
    expect(app.logs.join('\n')).not.toContain(realState);
    expectNoSecretsLogged(app, callback);
  });

  it('refuses an answer brought by another browser (no pending sign-in), and one used twice', async () => {
    const started = await start(app);
    const callback = await signInAtProvider(started.url, 'ana');
    expect((await back(app, callback)).headers.location).toBe('/sign-in-refused/stale');
    expect((await back(app, callback, { cookie: started.pending })).headers.location).toBe('/');
    expect((await back(app, callback, { cookie: started.pending })).headers.location).toBe('/sign-in-refused/stale');
  });

  it('refuses an expired code', async () => {
    const started = await start(expiring);
    const callback = await signInAtProvider(started.url, 'ana');
    // The provider gives codes 1 s of life, counted in whole seconds by its clock (Date, in this process).
    const from = expiring.logs.length;
    const res = await withClockAhead(2200, () => back(expiring, callback, { cookie: started.pending }));
    expect(res.headers.location).toBe('/sign-in-refused/rejected');
    expect(cookieFrom(res, 'cl_session')).toBeUndefined();
    // The provider's own answer, in the log for the operator; the counter by reason for the alert.
    const lines = refusalLines(expiring, from);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', reason: 'rejected', detail: expect.stringContaining('invalid_grant') });
    expect(await refusals(expiring, 'rejected')).toBe(1);
    expectNoSecretsLogged(expiring, callback);
  });

  it('signs out: the session ends here, the cookie is cleared', async () => {
    const cookie = cookieFrom(await signInAs('ana'), 'cl_session')!;
    const out = await app.request('/api/session', { method: 'DELETE', headers: { cookie } });
    expect(out.status).toBe(200);
    expect(json(out)).toEqual({ mode: 'oidc', provider: 'Test IdP' });
    expect(String(out.headers['set-cookie'])).toMatch(/^cl_session=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0/);
    expect((await app.request(LOOKUP, { headers: { cookie } })).status).toBe(401);
    expect(json(await app.request('/api/session', { headers: { cookie } }))).toEqual({ mode: 'oidc', provider: 'Test IdP' });
  });

  it('marks both cookies Secure behind https, both __Host- named', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    const started = await start(app, '/', https);
    expect(String(started.res.headers['set-cookie'])).toMatch(
      /^__Host-cl_oidc=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600; Secure$/,
    );
    const callback = await signInAtProvider(started.url, 'ana');
    const res = await back(app, callback, { cookie: cookieFrom(started.res, '__Host-cl_oidc')!, ...https });
    expect(res.headers.location).toBe('/');
    for (const line of res.headers['set-cookie']!) expect(line).toMatch(/; Secure$/);
    expect(res.headers['set-cookie']!.filter((line) => line.startsWith('__Host-cl_session='))).toHaveLength(1);
    expect(res.headers['set-cookie']!.find((line) => line.startsWith('__Host-cl_oidc='))).toMatch(
      /^__Host-cl_oidc=; Path=\/;.*Max-Age=0; Secure$/,
    );
  });

  it('a sign-in-in-progress cookie planted by a sibling subdomain (login CSRF) signs nobody in', async () => {
    // The attacker starts a sign-in, signs in at the provider as themself, and keeps the callback's address.
    const https = { 'x-forwarded-proto': 'https' };
    const attacker = await start(app, '/', https);
    const pendingId = /cl_oidc=([^;]+)/.exec(String(attacker.res.headers['set-cookie']))![1]!;
    const callback = await signInAtProvider(attacker.url, 'sam');
    // A sibling subdomain can set a plain `cl_oidc` for the whole domain, never a `__Host-` one; then the victim follows the link.
    const planted = await back(app, callback, { cookie: `cl_oidc=${pendingId}`, ...https });
    expect(planted.headers.location).toBe('/sign-in-refused/stale');
    expect(cookieFrom(planted, '__Host-cl_session')).toBeUndefined();
    // Nor does a sign-in-in-progress cookie of another sign-in finish this one (its state is not this answer's).
    const other = await start(app, '/', https);
    const mixed = await back(app, callback, { cookie: cookieFrom(other.res, '__Host-cl_oidc')!, ...https });
    expect(mixed.headers.location).toBe('/sign-in-refused/stale');
    expect(cookieFrom(mixed, '__Host-cl_session')).toBeUndefined();
  });

  it('starts a sign-in only by POST from this site, and never sends the browser off this site after it', async () => {
    expect((await app.request('/api/oidc/start')).status).toBe(405);
    const crossSite = await app.request('/api/oidc/start', { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' }, body: '{}' });
    expect(crossSite.status).toBe(403);
    expect((await app.request('/api/oidc/start', { method: 'POST', body: '{"returnTo": 5}' })).status).toBe(400);
    const offsite = await signInAs('ana', { returnTo: '//evil.example/' });
    expect(offsite.headers.location).toBe('/');
    expect((await app.request('/api/session', { method: 'POST', body: '{}' })).status).toBe(405);
  });

  it('says when the provider cannot be reached', async () => {
    const port = await freePort();
    const down = await oidcInstance('http://127.0.0.1:9', port);
    const res = await down.request('/api/oidc/start', { method: 'POST', body: '{}' });
    expect(res.status).toBe(502);
    expect(errorCode(res)).toBe('identity_provider_unavailable');
    expect(apiErrorBodySchema.parse(json(res)).error.message).toContain('Test IdP could not be reached');
    await expect.poll(() => down.logs.join('\n')).toContain('the OpenID provider could not be asked yet');
    await down.close();
  });
});

describe('an email address the provider has not verified', () => {
  it('is not the name a user is signed in and audited under', async () => {
    const res = await signInAs('una');
    expect(res.headers.location).toBe('/');
    const cookie = cookieFrom(res, 'cl_session')!;
    // una@example.org is unverified: the subject names her instead (the provider sends no username).
    expect(json(await app.request('/api/session', { headers: { cookie } }))).toMatchObject({ user: 'una', role: 'support' });
    expect(json(await app.request('/api/session', { headers: { cookie } }))).not.toHaveProperty('user', 'una@example.org');
  });

  it('a user in a group of signIn.leadValues is a lead, above compliance; the others keep their roles (issue 34)', async () => {
    const leads = await oidcInstance(provider.issuer, ports.leads, { signIn: { leadValues: ['staff'], supportValues: ['kyc-support'] } });
    try {
      // ana is in staff and kyc-compliance; sam in staff and kyc-support: staff makes both leads.
      for (const name of ['ana', 'sam'] as const) {
        const cookie = cookieFrom(await signInAs(name, { at: leads }), 'cl_session')!;
        expect(json(await leads.request('/api/session', { headers: { cookie } }))).toMatchObject({ role: 'lead' });
        expect((await leads.request('/api/audit/status', { headers: { cookie } })).status).toBe(200);
      }
      const compliance = cookieFrom(await signInAs('ana'), 'cl_session')!;
      expect((await app.request('/api/audit/status', { headers: { cookie: compliance } })).status).toBe(403);
    } finally {
      await leads.close();
    }
  });

  it('gives no role when the email claim is the role claim (signIn.roleClaim "email"); a verified one does', async () => {
    const byEmail = await oidcInstance(provider.issuer, ports.byEmail, {
      signIn: { roleClaim: 'email', complianceValues: ['ana@example.org'], supportValues: ['una@example.org'] },
    });
    try {
      const verified = await signInAs('ana', { at: byEmail });
      expect(verified.headers.location).toBe('/');
      const cookie = cookieFrom(verified, 'cl_session')!;
      expect(json(await byEmail.request('/api/session', { headers: { cookie } }))).toMatchObject({
        user: 'ana@example.org',
        role: 'compliance',
      });

      const from = byEmail.logs.length;
      const unverified = await signInAs('una', { at: byEmail });
      expect(unverified.headers.location).toBe('/sign-in-refused/no_role');
      expect(cookieFrom(unverified, 'cl_session')).toBeUndefined();
      expect(refusalLines(byEmail, from)).toEqual([
        expect.objectContaining({ reason: 'no_role', user: 'una', detail: expect.stringContaining('email_verified is not true') }),
      ]);
    } finally {
      await byEmail.close();
    }
  });
});

describe.skipIf(!hasRedisServer)(`OpenID Connect on several instances${hasRedisServer ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
  it('finishes a sign-in started on one instance on the other, and the session works on both', async () => {
    // Behind a load balancer both have the same public callback address.
    const shared = { env: { REDIS_URL: redis!.url }, signIn: { redirectUrl: `http://127.0.0.1:${ports.one}/api/oidc/callback` } };
    const [one, two] = await Promise.all([
      oidcInstance(provider.issuer, ports.one, shared),
      oidcInstance(provider.issuer, ports.two, shared),
    ]);
    const res = await signInAs('sam', { at: one, back: two, returnTo: '/candidates/refId/x' });
    expect(res.headers.location).toBe('/candidates/refId/x');
    const cookie = cookieFrom(res, 'cl_session')!;
    for (const at of [one, two]) expect(json(await at.request('/api/session', { headers: { cookie } }))).toMatchObject({ role: 'support' });
    await Promise.all([one.close(), two.close()]);
  });

  it('sends the browser to a page that says the store is down when it cannot finish the sign-in', async () => {
    const own = await startRedis();
    const at = await oidcInstance(provider.issuer, ports.two, { env: { REDIS_URL: own.url } });
    const started = await start(at);
    const callback = await signInAtProvider(started.url, 'ana');
    await own.kill();
    const res = await back(at, callback, { cookie: started.pending });
    expect(res.headers.location).toBe('/sign-in-refused/store_unavailable');
    const refused = await at.request('/api/oidc/start', { method: 'POST', body: '{}' });
    expect(refused.status).toBe(503);
    expect(errorCode(refused)).toBe('store_unavailable');
    await at.close();
    await own.stop();
  });
});
