import { createHash, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import type { Role, SignInRefusal } from '../../kyc/contract/api.ts';
import { isLoopbackHost } from '../http/loopback.ts';
import { StoreUnavailableError, type SharedStore } from '../state/store.ts';
import type { OidcConfig } from '../config/oidc-config.ts';

/**
 * Why a sign-in at the provider gave no session (each has its own page in the browser): `no_role`, the
 * claim maps to no role here; `stale`, the answer belongs to no sign-in this browser started (a wrong
 * state, already used, expired, another browser); `rejected`, the provider refused (an expired or used
 * code, a token that does not verify, an error answer); `provider_unavailable`; `store_unavailable`.
 */
export type OidcResult =
  | { ok: true; user: string; role: Role; returnTo: string }
  | { ok: false; reason: SignInRefusal; detail: string; user?: string; subject?: string };

/** A sign-in must come back within this time. */
export const PENDING_TTL_MS = 10 * 60_000;

interface Pending {
  state: string;
  nonce: string;
  verifier: string;
  returnTo: string;
}

/**
 * OpenID Connect sign-in with openid-client: the authorization code flow with PKCE, state and nonce,
 * the ID token's signature checked against the provider's keys. What a sign-in in progress needs is
 * kept in the shared store under a random id (the browser holds only the id), so the provider may send
 * the browser back to any instance, and each sign-in can be finished once.
 */
export function createOidcSignIn(config: OidcConfig, store: SharedStore) {
  let discovered: Promise<client.Configuration> | undefined;
  const issuer = new URL(config.issuer);
  // Plain http only to this machine (a provider in development or in tests).
  const insecure = issuer.protocol === 'http:' && isLoopbackHost(issuer.hostname);

  /** The provider's metadata, fetched once; a failure is not remembered, so the next sign-in tries again. */
  const configuration = (): Promise<client.Configuration> => {
    discovered ??= client
      .discovery(issuer, config.clientId, config.clientSecret, undefined, {
        execute: [...(insecure ? [client.allowInsecureRequests] : []), client.enableNonRepudiationChecks],
        timeout: 10,
      })
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  };

  return {
    providerName: config.providerName,

    /** Fetches the provider's metadata now, so that a wrong OIDC_ISSUER shows at start. */
    warmUp: (): Promise<void> => configuration().then(() => undefined),

    /**
     * Begins a sign-in: returns the provider's URL to send the browser to, and the id the browser must
     * bring back (in a cookie). Rejects with StoreUnavailableError, or with the discovery failure.
     */
    async start(returnTo: string): Promise<{ url: string; pendingId: string }> {
      const provider = await configuration();
      const pending: Pending = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        verifier: client.randomPKCECodeVerifier(),
        returnTo: safeReturnPath(returnTo),
      };
      const pendingId = randomBytes(32).toString('base64url');
      await store.put(pendingKey(pendingId), JSON.stringify(pending), PENDING_TTL_MS);
      const url = client.buildAuthorizationUrl(provider, {
        redirect_uri: config.redirectUrl,
        scope: config.scopes,
        code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      });
      return { url: url.href, pendingId };
    },

    /** The provider sent the browser back with `query`: checks it all and says who signed in, or why not. */
    async finish(query: URLSearchParams, pendingId: string | undefined): Promise<OidcResult> {
      const pending = await takePending(store, pendingId);
      if (!pending.ok) return pending;
      let provider: client.Configuration;
      try {
        provider = await configuration();
      } catch (error) {
        return { ok: false, reason: 'provider_unavailable', detail: explain(error) };
      }
      const claims = await claimsOf(provider, config, query, pending.pending);
      if (!claims.ok) return claims;
      const user = userName(claims.claims);
      // An address the provider has not verified is anyone's to claim: it gives no role, as no name.
      const unverified = config.roleClaim === 'email' && !emailVerified(claims.claims);
      const role = unverified ? undefined : roleOf(claimValue(claims.claims, config.roleClaim), config);
      if (!role) {
        const subject = claims.claims.sub;
        return {
          ok: false,
          reason: 'no_role',
          user,
          ...(typeof subject === 'string' ? { subject } : {}),
          detail: unverified
            ? 'The email claim gives the role, and the provider does not say it is verified (email_verified is not true).'
            : `The ${config.roleClaim} claim matches none of signIn.leadValues, complianceValues and supportValues.`,
        };
      }
      return { ok: true, user, role, returnTo: pending.pending.returnTo };
    },
  };
}

type Refused = Extract<OidcResult, { ok: false }>;

/** The sign-in this browser started, taken from the store so that it can be finished once only. */
async function takePending(store: SharedStore, pendingId: string | undefined): Promise<{ ok: true; pending: Pending } | Refused> {
  let pending: Pending | undefined;
  try {
    pending = pendingId && pendingId.length <= 64 ? parsePending(await store.take(pendingKey(pendingId))) : undefined;
  } catch (error) {
    if (error instanceof StoreUnavailableError) return { ok: false, reason: 'store_unavailable', detail: error.message };
    throw error;
  }
  if (pending) return { ok: true, pending };
  return {
    ok: false,
    reason: 'stale',
    detail: 'No sign-in started in this browser is waiting (expired, already used, or another browser).',
  };
}

/** The code exchanged for tokens (state, nonce and PKCE checked, the ID token verified), and the user's claims. */
async function claimsOf(
  provider: client.Configuration,
  config: OidcConfig,
  query: URLSearchParams,
  pending: Pending,
): Promise<{ ok: true; claims: Record<string, unknown> } | Refused> {
  const current = new URL(config.redirectUrl);
  current.search = query.toString();
  try {
    const tokens = await client.authorizationCodeGrant(provider, current, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const claims = { ...tokens.claims() };
    // Many providers put groups and roles in the userinfo answer only.
    if (claimValue(claims, config.roleClaim) === undefined && tokens.access_token) {
      const info = await client.fetchUserInfo(provider, tokens.access_token, String(claims.sub));
      return { ok: true, claims: { ...info, ...claims } };
    }
    return { ok: true, claims };
  } catch (error) {
    if (isStateMismatch(error))
      return { ok: false, reason: 'stale', detail: 'The answer does not belong to the sign-in this browser started (state).' };
    if (isNetworkError(error)) return { ok: false, reason: 'provider_unavailable', detail: explain(error) };
    return { ok: false, reason: 'rejected', detail: explain(error) };
  }
}

export type OidcSignIn = ReturnType<typeof createOidcSignIn>;

function pendingKey(id: string): string {
  return `oidc:${createHash('sha256').update(id).digest('base64url')}`;
}

function parsePending(text: string | undefined): Pending | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<Pending>;
    const strings = [value.state, value.nonce, value.verifier, value.returnTo];
    return strings.every((s) => typeof s === 'string') ? (value as Pending) : undefined;
  } catch {
    return undefined;
  }
}

/** Only a path of this site: never another origin (`//evil.example`, `/\evil.example`), never a scheme. */
export function safeReturnPath(path: string): string {
  return /^\/(?![/\\])[^\s\\]*$/.test(path) && path.length <= 2048 ? path : '/';
}

/** The claim by its exact name (`https://example.com/roles`), else as a dotted path (`realm_access.roles`). */
export function claimValue(claims: Record<string, unknown>, name: string): unknown {
  if (name in claims) return claims[name];
  let value: unknown = claims;
  for (const part of name.split('.')) {
    if (!value || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/**
 * The most a user's values give: lead when any is a lead value, else compliance when any is a compliance
 * value, else support when any is a support value (a lead is in the compliance group too, as a rule).
 */
export function roleOf(
  value: unknown,
  config: Pick<OidcConfig, 'complianceValues' | 'supportValues'> & Partial<Pick<OidcConfig, 'leadValues'>>,
): Role | undefined {
  const values = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
  if (values.some((v) => config.leadValues?.includes(v))) return 'lead';
  if (values.some((v) => config.complianceValues.includes(v))) return 'compliance';
  if (values.some((v) => config.supportValues.includes(v))) return 'support';
  return undefined;
}

/**
 * The name in the session, the badge and the audit log: email when the provider says it is verified,
 * else the username at the provider, else the subject.
 */
function userName(claims: Record<string, unknown>): string {
  for (const name of [...(emailVerified(claims) ? ['email'] : []), 'preferred_username', 'sub']) {
    const value = claims[name];
    if (typeof value === 'string' && value.trim() && value.length <= 256) return value.trim();
  }
  return 'unknown';
}

/** `email_verified` is true (some providers send the string "true"); missing is not verified. */
function emailVerified(claims: Record<string, unknown>): boolean {
  return claims.email_verified === true || claims.email_verified === 'true';
}

function isStateMismatch(error: unknown): boolean {
  return /unexpected "state"/.test(explain(error));
}

function isNetworkError(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e.message === 'fetch failed' || /^E[A-Z]+$/.test(String((e as NodeJS.ErrnoException).code))) return true;
  }
  return false;
}

/** The error and its causes in one line: openid-client's own message alone ("invalid response") says little. */
function explain(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e && parts.length < 4; e = e instanceof Error ? e.cause : undefined) {
    if (e instanceof client.ResponseBodyError || e instanceof client.AuthorizationResponseError) {
      parts.push(`${e.error}${e.error_description ? ` (${e.error_description})` : ''}`);
    } else if (e instanceof Error) parts.push(e.message);
    else break;
  }
  return parts.join(': ') || String(error);
}
