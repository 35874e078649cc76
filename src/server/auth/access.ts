import type http from 'node:http';
import type { SessionInfo } from '../../kyc/contract/api.ts';
import { ApiFailure } from '../http/api-failure.ts';
import type { AuthConfig } from '../config/sign-in.ts';
import { methodNotAllowed } from '../http/http-reply.ts';
import { clientOf } from '../http/client.ts';
import { addressKey } from '../http/connection-guard.ts';
import { isLoopbackHost } from '../http/loopback.ts';
import { createMemoryStore } from '../state/store.ts';
import type { AccessControl, AccessOptions } from './access-control.ts';
import { addressMatcher } from '../http/cidr.ts';
import type { Identity } from '../http/identity.ts';
import { oidcAccess } from './oidc-access.ts';
import { readProxyIdentity } from './proxy-identity.ts';
import { usersAccess } from './users-access.ts';
import { readUsersFile } from './users-file.ts';

/** The sign-in mode the configuration names; each mode lives in a file of its own. */
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
      if (req.method !== 'GET') return fail(methodNotAllowed('GET', 'Signing in and out is handled elsewhere in this mode.'));
      const identity = identify(req);
      if (!identity) {
        return fail(new ApiFailure('unauthenticated', typeof unknownMessage === 'string' ? unknownMessage : unknownMessage(req)));
      }
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
    // A whole IPv6 /64 is one client (one host holds all of it), as for sign-in and the connection caps.
    (req) => `address:${addressKey(clientOf(req).address) || 'unknown'}`,
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
