import type http from 'node:http';
import type { ApiErrorCode, AuthMode, Role, SessionInfo } from '../../kyc/contract/api.ts';
import type { AuthConfig } from '../config.ts';
import { clientOf } from '../client.ts';
import { isLoopbackHost } from '../loopback.ts';
import type { Route } from '../routes.ts';
import { createMemoryStore, type SharedStore } from '../state/store.ts';
import { addressMatcher } from './cidr.ts';
import { oidcAccess } from './oidc-access.ts';
import { readProxyIdentity } from './proxy-identity.ts';
import { usersAccess } from './users-access.ts';
import { readUsersFile } from './users-file.ts';

export interface Identity {
  user: string;
  role: Role;
  /** The environments this user may use (by name); undefined means all of them. */
  environments?: readonly string[];
}

export type Reply = (status: number, body: unknown, headers?: Record<string, string>) => void;
export type Fail = (
  status: number,
  code: Extract<ApiErrorCode, 'unauthenticated' | 'sign_in_failed' | 'too_many_sign_in_attempts' | 'bad_request' | 'method_not_allowed'>,
  message: string,
  headers?: Record<string, string>,
) => void;

/**
 * Who is asking: one of four modes, chosen by configuration. The modes with sessions keep them in the
 * shared store, so `identify` and `handleSession` reject with StoreUnavailableError while it is down.
 */
export interface AccessControl {
  mode: AuthMode;
  identify(req: http.IncomingMessage): Promise<Identity | undefined>;
  /** `/api/session`: GET who am I, POST sign in (built-in users), DELETE sign out. */
  handleSession(req: http.IncomingMessage, reply: Reply, fail: Fail): void | Promise<void>;
  /** The key for per-user rate limits: the user, or the client address in local mode. */
  rateLimitKey(req: http.IncomingMessage, identity: Identity): string;
  /** Routes of the mode's own, open to everyone (OpenID Connect: the start of a sign-in and the callback). */
  routes?: readonly Route[];
  /** Checks at start what can be checked early (the OpenID provider's metadata); rejects with the problem. */
  warmUp?(): Promise<void>;
}

export interface AccessOptions {
  /** Sessions and failed sign-ins (default: in this process). */
  store?: SharedStore;
  now?: () => number;
  /** The wait after a first failed sign-in; it doubles with each further failure (default 250 ms). */
  signInDelayMs?: number;
}

export function createAccessControl(config: AuthConfig, options: AccessOptions = {}): AccessControl {
  switch (config.mode) {
    case 'local':
      return localAccess(config);
    case 'proxy':
      return proxyAccess(config);
    case 'users':
      // Fail at start, naming the problem, rather than at the first sign-in.
      readUsersFile(config.usersFile);
      return usersAccess(config, options.store ?? createMemoryStore(), options);
    case 'oidc':
      return oidcAccess(config, options.store ?? createMemoryStore(), options);
  }
}

/**
 * A mode where something other than this server signs people in (or nobody does): every request
 * identifies itself, and `/api/session` only says who that is.
 */
function identifiedByRequest(
  mode: 'local' | 'proxy',
  identify: (req: http.IncomingMessage) => Identity | undefined,
  rateLimitKey: AccessControl['rateLimitKey'],
  unknownMessage: string | ((req: http.IncomingMessage) => string),
): AccessControl {
  return {
    mode,
    identify: async (req) => identify(req),
    handleSession(req, reply, fail) {
      if (req.method !== 'GET') {
        return fail(405, 'method_not_allowed', 'Signing in and out is handled elsewhere in this mode.', { Allow: 'GET' });
      }
      const identity = identify(req);
      if (!identity) return fail(401, 'unauthenticated', typeof unknownMessage === 'string' ? unknownMessage : unknownMessage(req));
      reply(200, { mode, ...identity } satisfies SessionInfo);
    },
    rateLimitKey,
  };
}

function localAccess(config: Extract<AuthConfig, { mode: 'local' }>): AccessControl {
  const identity: Identity = { user: 'local', role: 'compliance' };
  // Without sign-in, only this machine may look: the connection must come from loopback and be meant
  // for a loopback name (a web page whose name was rebound to 127.0.0.1 sends its own Host).
  const identify = (req: http.IncomingMessage) =>
    config.allowUnauthenticated || (isLoopbackHost(req.socket.remoteAddress ?? '') && isLoopbackHost(req.headers.host))
      ? identity
      : undefined;
  return identifiedByRequest(
    'local',
    identify,
    (req) => `address:${clientOf(req).address || 'unknown'}`,
    'With no sign-in configured, only this machine may use Candidate Lookup (through localhost).',
  );
}

function proxyAccess(config: Extract<AuthConfig, { mode: 'proxy' }>): AccessControl {
  const matches = addressMatcher(config.trusted);
  // A connection's address does not change: check it once per connection, not once per request.
  const trustedSockets = new WeakMap<object, boolean>();
  const trusted = (req: http.IncomingMessage) => {
    let known = trustedSockets.get(req.socket);
    if (known === undefined) {
      known = matches(req.socket.remoteAddress);
      trustedSockets.set(req.socket, known);
    }
    return known;
  };
  const headers = { user: config.userHeader, role: config.roleHeader };
  // Headers are believed only from the identity-aware proxy's own addresses.
  const read = (req: http.IncomingMessage) =>
    trusted(req)
      ? readProxyIdentity(req, headers)
      : { ok: false as const, problem: 'The sign-in gateway did not identify you (user and role).' };
  return identifiedByRequest(
    'proxy',
    (req) => {
      const result = read(req);
      return result.ok ? result.identity : undefined;
    },
    (_req, identity) => `user:${identity.user}`,
    (req) => {
      const result = read(req);
      return result.ok ? '' : result.problem;
    },
  );
}
