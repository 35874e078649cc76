import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimValue, createOidcSignIn, roleOf, safeReturnPath } from '../../src/server/auth/oidc.ts';
import type { OidcConfig } from '../../src/server/config/oidc-config.ts';
import { createMemoryStore, type SharedStore } from '../../src/server/state/store.ts';
import { OIDC_CLIENT, signInAtProvider, startOidcProvider, type TestProvider } from './oidc-provider.ts';
import { withClockAhead } from './clock.ts';

const REDIRECT = 'http://127.0.0.1:1/api/oidc/callback';
let provider: TestProvider;
let shortCodes: TestProvider;
let claimsInIdToken: TestProvider;

beforeAll(async () => {
  [provider, shortCodes, claimsInIdToken] = await Promise.all([
    startOidcProvider({ redirectUris: [REDIRECT] }),
    startOidcProvider({ redirectUris: [REDIRECT], codeTtlSeconds: 1 }),
    startOidcProvider({ redirectUris: [REDIRECT], claimsInIdToken: true }),
  ]);
});
afterAll(() => Promise.all([provider, shortCodes, claimsInIdToken].map((p) => p.close())));

const configFor = (issuer: string, overrides: Partial<OidcConfig> = {}): OidcConfig => ({
  issuer,
  clientId: OIDC_CLIENT.clientId,
  clientSecret: OIDC_CLIENT.clientSecret,
  redirectUrl: REDIRECT,
  roleClaim: 'groups',
  complianceValues: ['kyc-compliance'],
  supportValues: ['kyc-support'],
  leadValues: [],
  scopes: 'openid email profile groups',
  providerName: 'Test IdP',
  ...overrides,
});

/** Starts a sign-in as a browser would, signs in at the provider, and returns what came back. */
async function roundTrip(signIn: ReturnType<typeof createOidcSignIn>, account: 'ana' | 'sam' | 'nora', returnTo = '/') {
  const { url, pendingId } = await signIn.start(returnTo);
  const back = await signInAtProvider(url, account);
  return { url: new URL(url), back, pendingId };
}

describe('OpenID Connect sign-in', () => {
  let store: SharedStore;
  let signIn: ReturnType<typeof createOidcSignIn>;
  beforeAll(() => {
    store = createMemoryStore();
    signIn = createOidcSignIn(configFor(provider.issuer), store);
  });

  it('asks for the code flow with PKCE (S256), state and nonce, back to the registered address', async () => {
    const url = new URL((await signIn.start('/')).url);
    expect(url.origin).toBe(provider.issuer);
    const params = url.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe(OIDC_CLIENT.clientId);
    expect(params.get('redirect_uri')).toBe(REDIRECT);
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(params.get('nonce')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(params.get('scope')).toBe('openid email profile groups');
    // Nothing about where the user was going leaves this server.
    expect(url.href).not.toContain('candidates');
  });

  it('signs a compliance user in, and returns them to where they were going', async () => {
    const { back, pendingId } = await roundTrip(signIn, 'ana', '/candidates/refId/abc');
    expect(await signIn.finish(back.searchParams, pendingId)).toEqual({
      ok: true,
      user: 'ana@example.org',
      role: 'compliance',
      returnTo: '/candidates/refId/abc',
    });
  });

  it('signs a support user in', async () => {
    const { back, pendingId } = await roundTrip(signIn, 'sam');
    expect(await signIn.finish(back.searchParams, pendingId)).toMatchObject({ ok: true, user: 'sam@example.org', role: 'support' });
  });

  it('refuses a user whose claim maps to no role, naming them', async () => {
    const { back, pendingId } = await roundTrip(signIn, 'nora');
    expect(await signIn.finish(back.searchParams, pendingId)).toMatchObject({ ok: false, reason: 'no_role', user: 'nora@example.org' });
  });

  it('refuses an answer whose state is not the one this browser was given', async () => {
    const { back, pendingId } = await roundTrip(signIn, 'ana');
    back.searchParams.set('state', 'a-state-somebody-else-made-up');
    const r = await signIn.finish(back.searchParams, pendingId);
    expect(r).toMatchObject({ ok: false, reason: 'stale' });
  });

  it('refuses an answer brought back by another browser, and the same answer twice', async () => {
    const first = await roundTrip(signIn, 'ana');
    expect(await signIn.finish(first.back.searchParams, undefined)).toMatchObject({ ok: false, reason: 'stale' });
    expect(await signIn.finish(first.back.searchParams, 'another-browsers-id')).toMatchObject({ ok: false, reason: 'stale' });
    const second = await roundTrip(signIn, 'ana');
    expect(await signIn.finish(second.back.searchParams, second.pendingId)).toMatchObject({ ok: true });
    expect(await signIn.finish(second.back.searchParams, second.pendingId)).toMatchObject({ ok: false, reason: 'stale' });
  });

  it('refuses a code used twice, even with a fresh sign-in started', async () => {
    const first = await roundTrip(signIn, 'ana');
    expect(await signIn.finish(first.back.searchParams, first.pendingId)).toMatchObject({ ok: true });
    // An attacker replays the code into a sign-in of their own: state and PKCE do not match.
    const theirs = await signIn.start('/');
    const replay = new URLSearchParams(first.back.searchParams);
    replay.set('state', new URL(theirs.url).searchParams.get('state')!);
    expect(await signIn.finish(replay, theirs.pendingId)).toMatchObject({ ok: false, reason: 'rejected' });
  });

  it('refuses an expired code', async () => {
    const expiring = createOidcSignIn(configFor(shortCodes.issuer), store);
    const { back, pendingId } = await roundTrip(expiring, 'ana');
    // The provider gives codes 1 s of life; its clock (Date, in this process) counts whole seconds.
    const result = await withClockAhead(2200, () => expiring.finish(back.searchParams, pendingId));
    expect(result).toMatchObject({ ok: false, reason: 'rejected' });
    expect(result.ok === false && result.detail).toMatch(/invalid_grant/);
  });

  it('passes on an error the provider sent back', async () => {
    const { url, pendingId } = await signIn.start('/');
    const state = new URL(url).searchParams.get('state')!;
    const back = new URLSearchParams({
      error: 'access_denied',
      error_description: 'End-User aborted interaction',
      state,
      iss: provider.issuer,
    });
    expect(await signIn.finish(back, pendingId)).toMatchObject({
      ok: false,
      reason: 'rejected',
      detail: expect.stringContaining('access_denied'),
    });
  });

  it('reads the role from the ID token when the provider puts it there', async () => {
    const fromToken = createOidcSignIn(configFor(claimsInIdToken.issuer), store);
    const { back, pendingId } = await roundTrip(fromToken, 'sam');
    expect(await fromToken.finish(back.searchParams, pendingId)).toMatchObject({ ok: true, role: 'support' });
  });

  it('says when the provider cannot be reached, and tries again at the next sign-in', async () => {
    const down = createOidcSignIn(configFor('http://127.0.0.1:9'), store);
    await expect(down.start('/')).rejects.toThrow();
    await expect(down.warmUp()).rejects.toThrow();
  });
});

describe('OpenID Connect helpers', () => {
  it('maps claim values to roles, compliance first', () => {
    const config = { complianceValues: ['c', 'admins'], supportValues: ['s'] };
    expect(roleOf(['x', 's'], config)).toBe('support');
    expect(roleOf(['s', 'admins'], config)).toBe('compliance');
    expect(roleOf('c', config)).toBe('compliance');
    expect(roleOf(['x'], config)).toBeUndefined();
    expect(roleOf(undefined, config)).toBeUndefined();
    expect(roleOf({ c: true }, config)).toBeUndefined();
  });

  it('a lead value gives the lead role, whatever else the user has (issue 34)', () => {
    const config = { complianceValues: ['c'], supportValues: ['s'], leadValues: ['leads'] };
    expect(roleOf(['s', 'c', 'leads'], config)).toBe('lead');
    expect(roleOf('leads', config)).toBe('lead');
    expect(roleOf(['c'], config)).toBe('compliance');
    expect(roleOf(['leads'], { complianceValues: ['c'], supportValues: [] })).toBeUndefined();
  });

  it('finds a claim by its exact name or a dotted path', () => {
    const claims = { 'https://example.com/roles': ['a'], realm_access: { roles: ['b'] } };
    expect(claimValue(claims, 'https://example.com/roles')).toEqual(['a']);
    expect(claimValue(claims, 'realm_access.roles')).toEqual(['b']);
    expect(claimValue(claims, 'realm_access.nothing.deeper')).toBeUndefined();
  });

  it('returns only to a path of this site', () => {
    expect(safeReturnPath('/candidates/refId/a%2Fb')).toBe('/candidates/refId/a%2Fb');
    for (const bad of ['//evil.example/', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '/a b', '']) {
      expect(safeReturnPath(bad), bad).toBe('/');
    }
  });
});
