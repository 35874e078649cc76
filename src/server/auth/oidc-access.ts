import type http from 'node:http';
import { z } from 'zod';
import {
  OIDC_API_PREFIX,
  OIDC_CALLBACK_API_PATH,
  OIDC_START_API_PATH,
  SIGN_IN_REFUSED_PATH,
  type SessionInfo,
} from '../../kyc/contract/api.ts';
import type { AuthConfig } from '../config/sign-in.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { isHttps, methodNotAllowed, readCookie, sendJson } from '../http/http-reply.ts';
import { readJsonBody } from '../http/request-body.ts';
import { navigation, open, type Route } from '../http/routes.ts';
import { StoreUnavailableError, type SharedStore } from '../state/store.ts';
import type { AccessControl, AccessOptions, IdentifyOptions, SignInRefusalEvent } from './access-control.ts';
import type { Identity } from '../http/identity.ts';
import { createOidcSignIn, type OidcSignIn, PENDING_TTL_MS } from './oidc.ts';
import { readSessionCookie, SessionStore, sessionCookie } from './session-store.ts';

/** Names the sign-in this browser started (the rest is in the shared store), from start to callback. */
export const PENDING_COOKIE = 'cl_oidc';
/**
 * Over https, `__Host-` named like the session cookie: a sibling subdomain (or a plain-http page on this
 * name) can set a plain `cl_oidc` for this site, naming a sign-in the attacker started, and the callback
 * would then sign the victim in as the attacker (login CSRF). Browsers accept a `__Host-` cookie only
 * from this very host, over https, for Path=/, so over https nothing else is read.
 */
export const SECURE_PENDING_COOKIE = `__Host-${PENDING_COOKIE}`;

const pendingCookieName = (req: http.IncomingMessage) => (isHttps(req) ? SECURE_PENDING_COOKIE : PENDING_COOKIE);

type OidcAuthConfig = Extract<AuthConfig, { mode: 'oidc' }>;

const startSchema = z.object({ returnTo: z.string().max(2048).optional() });

/**
 * OpenID Connect: the browser asks `POST /api/oidc/start` where to go, signs in at the provider, and
 * comes back to `GET /api/oidc/callback`, which makes a session like the built-in users' (the same
 * cookie) and sends it on to the page it came from, or to a page saying why not.
 */
export function oidcAccess(config: OidcAuthConfig, store: SharedStore, options: AccessOptions): AccessControl {
  const sessions = new SessionStore(store, {
    maxAgeMs: config.sessionMaxAgeMinutes * 60_000,
    idleMs: config.sessionIdleMinutes * 60_000,
    now: options.now,
  });
  const oidc = createOidcSignIn(config.oidc, store);
  const provider = oidc.providerName;

  const identify = async (req: http.IncomingMessage, options?: IdentifyOptions): Promise<Identity | undefined> => {
    const session = await sessions.get(readSessionCookie(req), options?.touch);
    return session && { user: session.user, role: session.role };
  };

  const routes: Route[] = [
    open(OIDC_START_API_PATH, ({ req, res }) => start(oidc, req, res)),
    navigation(OIDC_CALLBACK_API_PATH, ({ req, res }) =>
      callback({ oidc, sessions, config, onSignInRefused: options.onSignInRefused }, req, res),
    ),
  ];

  return {
    mode: 'oidc',
    identify,
    remembered(req) {
      const session = sessions.recall(readSessionCookie(req));
      return session && { user: session.user, role: session.role };
    },
    routes,
    warmUp: () => oidc.warmUp(),
    async handleSession(req, reply, fail) {
      if (req.method === 'GET') return reply(200, { mode: 'oidc', provider, ...(await identify(req)) } satisfies SessionInfo);
      if (req.method === 'DELETE') {
        await sessions.delete(readSessionCookie(req));
        return reply(200, { mode: 'oidc', provider } satisfies SessionInfo, { 'Set-Cookie': sessionCookie(req, '', 0) });
      }
      fail(methodNotAllowed('GET, DELETE', `Sign in through ${provider}: POST ${OIDC_START_API_PATH}.`));
    },
    rateLimitKey: (_req, identity) => `user:${identity.user}`,
  };
}

/** `POST /api/oidc/start`: where to send the browser to sign in, with a cookie naming the sign-in started. */
async function start(oidc: OidcSignIn, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (req.method !== 'POST') throw methodNotAllowed('POST', 'Start a sign-in with POST.');
  if (req.headers['sec-fetch-site'] && !['same-origin', 'none'].includes(String(req.headers['sec-fetch-site']))) {
    throw new ApiFailure('not_from_app', 'Sign-in from another site is not allowed.');
  }
  // The body may be left out: a sign-in that names no page to come back to returns to the start page.
  const body = await readJsonBody({ req, res }, 4096, startSchema, 'sign-in request', {
    empty: {},
    shape: 'The sign-in request is not valid.',
  });
  let started: Awaited<ReturnType<typeof oidc.start>>;
  try {
    started = await oidc.start(body.returnTo ?? '/');
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw error;
    throw new ApiFailure('identity_provider_unavailable', `${oidc.providerName} could not be reached to sign in. Try again in a moment.`);
  }
  sendJson(res, 200, JSON.stringify({ authorizationUrl: started.url }), {
    'Set-Cookie': pendingCookie(req, started.pendingId, PENDING_TTL_MS / 1000),
  });
}

/** `GET /api/oidc/callback`: the provider's answer turned into a new session, or a page saying why not. */
async function callback(
  {
    oidc,
    sessions,
    config,
    onSignInRefused,
  }: { oidc: OidcSignIn; sessions: SessionStore; config: OidcAuthConfig; onSignInRefused: AccessOptions['onSignInRefused'] },
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  if (req.method !== 'GET') throw methodNotAllowed('GET', 'The provider sends the browser back with GET.');
  const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
  const result = await oidc.finish(query, readCookie(req, pendingCookieName(req)));
  const cookies = [pendingCookie(req, '', 0)];
  const refused = (refusal: SignInRefusalEvent) => {
    onSignInRefused?.({ ...refusal, detail: withoutSecrets(refusal.detail, query, config.oidc.clientSecret) });
    redirect(res, `${SIGN_IN_REFUSED_PATH}${refusal.reason}`, cookies);
  };
  if (!result.ok) {
    const { reason, detail, user, subject } = result;
    return refused({ reason, detail, ...(user ? { user } : {}), ...(subject ? { subject } : {}) });
  }
  try {
    // A new session, never one the browser brought along (session fixation).
    await sessions.delete(readSessionCookie(req));
    const token = await sessions.create(result.user, result.role);
    cookies.push(sessionCookie(req, token, config.sessionMaxAgeMinutes * 60));
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    return refused({ reason: 'store_unavailable', detail: 'The session could not be stored.', user: result.user });
  }
  redirect(res, result.returnTo, cookies);
}

/**
 * SameSite=Lax, unlike the session: the provider sends the browser back from its own site, and a
 * Strict cookie would not come along. It only names a sign-in in progress: over plain http only for
 * /api/oidc; over https for the whole site, as the `__Host-` prefix requires.
 */
function pendingCookie(req: http.IncomingMessage, id: string, maxAgeSeconds: number): string {
  const https = isHttps(req);
  return [
    `${pendingCookieName(req)}=${id}`,
    `Path=${https ? '/' : OIDC_API_PREFIX}`,
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAgeSeconds}`,
    ...(https ? ['Secure'] : []),
  ].join('; ');
}

/**
 * The detail as it may be logged: no value the browser brought back (the code, the state), no client
 * secret, even if an error message quoted one; one line, cut to 500 characters.
 */
function withoutSecrets(detail: string, query: URLSearchParams, clientSecret: string): string {
  let text = detail.replace(/\s+/g, ' ');
  const secrets = [clientSecret, ...[...query].filter(([name]) => name !== 'iss').map(([, value]) => value)];
  for (const secret of secrets) if (secret.length >= 4) text = text.split(secret).join('[redacted]');
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

function redirect(res: http.ServerResponse, location: string, cookies: string[]): void {
  res.writeHead(303, { Location: location, 'Set-Cookie': cookies, 'Cache-Control': 'no-store', 'Content-Length': 0 });
  res.end();
}
