import { statSync } from 'node:fs';
import type http from 'node:http';
import { z } from 'zod';
import { ROLES, type AuthMode, type Role, type SessionInfo } from '../../kyc/contract/api.ts';
import type { AuthConfig } from '../config.ts';
import { isHttps, readBody, readCookie, single } from '../http-reply.ts';
import { isLoopbackHost } from '../loopback.ts';
import { addressMatcher } from './cidr.ts';
import { decoyHash, verifyPassword } from './passwords.ts';
import { SessionStore } from './sessions.ts';
import { readUsersFile, type StoredUser } from './users-file.ts';

export interface Identity {
  user: string;
  role: Role;
}

export type Reply = (status: number, body: unknown, headers?: Record<string, string>) => void;
export type Fail = (
  status: number,
  code: 'unauthenticated' | 'sign_in_failed' | 'too_many_sign_in_attempts' | 'bad_request' | 'method_not_allowed',
  message: string,
  headers?: Record<string, string>,
) => void;

/** Who is asking: one of three modes, chosen by configuration. */
export interface AccessControl {
  mode: AuthMode;
  identify(req: http.IncomingMessage): Identity | undefined;
  /** `/api/session`: GET who am I, POST sign in (built-in users), DELETE sign out. */
  handleSession(req: http.IncomingMessage, reply: Reply, fail: Fail): void;
  /** The key for per-user rate limits: the user, or the client address in local mode. */
  rateLimitKey(req: http.IncomingMessage, identity: Identity): string;
}

export const SESSION_COOKIE = 'cl_session';

export interface AccessOptions {
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
      return usersAccess(config, options);
  }
}

function sessionRouteOnlyGet(req: http.IncomingMessage, fail: Fail): boolean {
  if (req.method === 'GET') return true;
  fail(405, 'method_not_allowed', 'Signing in and out is handled elsewhere in this mode.', { Allow: 'GET' });
  return false;
}

function localAccess(config: Extract<AuthConfig, { mode: 'local' }>): AccessControl {
  const identity: Identity = { user: 'local', role: 'compliance' };
  // Without sign-in, only this machine may look: the connection must come from loopback and be meant
  // for a loopback name (a web page whose name was rebound to 127.0.0.1 sends its own Host).
  const identify = (req: http.IncomingMessage) =>
    config.allowUnauthenticated || (isLoopbackHost(req.socket.remoteAddress ?? '') && isLoopbackHost(req.headers.host))
      ? identity
      : undefined;
  return {
    mode: 'local',
    identify,
    handleSession(req, reply, fail) {
      if (!sessionRouteOnlyGet(req, fail)) return;
      if (!identify(req))
        return fail(401, 'unauthenticated', 'With no sign-in configured, only this machine may use Candidate Lookup (through localhost).');
      reply(200, { mode: 'local', ...identity } satisfies SessionInfo);
    },
    rateLimitKey: (req) => `address:${req.socket.remoteAddress ?? 'unknown'}`,
  };
}

function proxyAccess(config: Extract<AuthConfig, { mode: 'proxy' }>): AccessControl {
  const matches = addressMatcher(config.trusted);
  // A connection's address does not change: check it once per connection, not once per request.
  const trustedSockets = new WeakMap<object, boolean>();
  const trusted = (req: http.IncomingMessage) => {
    let known = trustedSockets.get(req.socket);
    if (known === undefined) trustedSockets.set(req.socket, (known = matches(req.socket.remoteAddress)));
    return known;
  };
  const identify = (req: http.IncomingMessage): Identity | undefined => {
    // Headers are believed only from the identity-aware proxy's own addresses.
    if (!trusted(req)) return undefined;
    const user = single(req.headers[config.userHeader])?.trim();
    const role = single(req.headers[config.roleHeader])?.trim().toLowerCase();
    if (!user || user.length > 256 || !role || !(ROLES as readonly string[]).includes(role)) return undefined;
    return { user, role: role as Role };
  };
  return {
    mode: 'proxy',
    identify,
    handleSession(req, reply, fail) {
      if (!sessionRouteOnlyGet(req, fail)) return;
      const identity = identify(req);
      if (!identity) return fail(401, 'unauthenticated', 'The sign-in gateway did not identify you (user and role).');
      reply(200, { mode: 'proxy', ...identity } satisfies SessionInfo);
    },
    rateLimitKey: (_req, identity) => `user:${identity.user}`,
  };
}

const signInSchema = z.object({ username: z.string().max(256), password: z.string().max(1024) });

/**
 * Failed sign-ins, counted per username at one client address and per client address: each failure
 * doubles the wait; ten for one username from one address, or fifty from one address, lock for 15 min.
 * (Per address too, not per username alone: anyone could otherwise lock any colleague out.)
 */
class SignInThrottle {
  private readonly failures = new Map<string, { count: number; last: number }>();
  static readonly WINDOW_MS = 15 * 60_000;
  static lockAfter(key: string): number {
    return key.startsWith('address:') ? 50 : 10;
  }

  constructor(
    private readonly now: () => number,
    private readonly baseDelayMs: number,
  ) {}

  private current(key: string) {
    const entry = this.failures.get(key);
    if (entry && this.now() - entry.last > SignInThrottle.WINDOW_MS) {
      this.failures.delete(key);
      return undefined;
    }
    return entry;
  }

  lockedFor(keys: string[]): number {
    let seconds = 0;
    for (const key of keys) {
      const entry = this.current(key);
      if (entry && entry.count >= SignInThrottle.lockAfter(key)) {
        seconds = Math.max(seconds, Math.ceil((entry.last + SignInThrottle.WINDOW_MS - this.now()) / 1000));
      }
    }
    return seconds;
  }

  /** Records a failure and returns how long to hold the answer back. */
  fail(keys: string[]): number {
    if (this.failures.size > 10_000) {
      for (const key of this.failures.keys()) this.current(key);
    }
    let count = 0;
    for (const key of keys) {
      const entry = this.current(key) ?? { count: 0, last: 0 };
      entry.count += 1;
      entry.last = this.now();
      this.failures.set(key, entry);
      count = Math.max(count, entry.count);
    }
    return Math.min(this.baseDelayMs * 2 ** (count - 1), 8000);
  }

  succeed(key: string): void {
    this.failures.delete(key);
  }
}

function usersAccess(config: Extract<AuthConfig, { mode: 'users' }>, options: AccessOptions): AccessControl {
  const now = options.now ?? Date.now;
  const sessions = new SessionStore({
    maxAgeMs: config.sessionMaxAgeMinutes * 60_000,
    idleMs: config.sessionIdleMinutes * 60_000,
    now,
  });
  const throttle = new SignInThrottle(now, options.signInDelayMs ?? 250);
  // Sign-ins being checked: one at a time per username, a few per address (colleagues behind one NAT
  // sign in together), a few more in all: scrypt is slow on purpose, and parallel guesses must not slip
  // past the count of failures.
  const checking = new Map<string, number>();
  const LIMITS = { user: 1, address: 4, all: 8 };
  const busy = (key: string) => checking.get(key) ?? 0;
  const hold = (keys: string[], delta: number) => {
    for (const key of keys) {
      const count = busy(key) + delta;
      if (count > 0) checking.set(key, count);
      else checking.delete(key);
    }
  };

  // The users file, read again when it changes: a removed user's sessions end, a new role applies at once.
  let users: { mtimeMs: number; checkedAt: number; byName: Map<string, StoredUser> } | undefined;
  const currentUsers = (): Map<string, StoredUser> => {
    const at = now();
    if (users && at - users.checkedAt < 1000) return users.byName;
    let mtimeMs = -1;
    try {
      mtimeMs = statSync(config.usersFile).mtimeMs;
    } catch {
      // A missing file means no users.
    }
    if (!users || users.mtimeMs !== mtimeMs) {
      let list: StoredUser[] = [];
      try {
        list = mtimeMs === -1 ? [] : readUsersFile(config.usersFile).users;
      } catch {
        list = users ? [...users.byName.values()] : []; // a file being rewritten: keep what was known
      }
      users = { mtimeMs, checkedAt: at, byName: new Map(list.map((u) => [u.username.toLowerCase(), u])) };
    }
    users.checkedAt = at;
    return users.byName;
  };

  const identify = (req: http.IncomingMessage): Identity | undefined => {
    const token = readCookie(req, SESSION_COOKIE);
    const session = sessions.get(token);
    if (!session) return undefined;
    const user = currentUsers().get(session.user.toLowerCase());
    if (!user) {
      sessions.delete(token);
      return undefined;
    }
    return { user: user.username, role: user.role };
  };

  const cookie = (req: http.IncomingMessage, token: string, maxAgeSeconds: number) =>
    [
      `${SESSION_COOKIE}=${token}`,
      'Path=/',
      'HttpOnly',
      'SameSite=Strict',
      `Max-Age=${maxAgeSeconds}`,
      ...(isHttps(req) ? ['Secure'] : []),
    ].join('; ');

  async function signIn(req: http.IncomingMessage, reply: Reply, fail: Fail) {
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      return fail(415, 'bad_request', 'Send the sign-in as JSON.');
    }
    if (req.headers['sec-fetch-site'] && !['same-origin', 'none'].includes(String(req.headers['sec-fetch-site']))) {
      return fail(403, 'bad_request', 'Sign-in from another site is not allowed.');
    }
    let body: z.infer<typeof signInSchema>;
    try {
      body = signInSchema.parse(JSON.parse(await readBody(req, 16 * 1024)));
    } catch {
      return fail(400, 'bad_request', 'The sign-in request is not valid.');
    }
    const username = body.username.trim();
    const address = `address:${req.socket.remoteAddress ?? ''}`;
    const keys = [`user:${username.toLowerCase()}|${address}`, address];
    const locked = throttle.lockedFor(keys);
    if (locked > 0) {
      return fail(429, 'too_many_sign_in_attempts', `Too many failed sign-ins. Try again in ${Math.ceil(locked / 60)} min.`, {
        'Retry-After': String(locked),
      });
    }
    const userKey = `user:${username.toLowerCase()}`;
    if (busy(userKey) >= LIMITS.user || busy(address) >= LIMITS.address || busy('all') >= LIMITS.all) {
      return fail(429, 'too_many_sign_in_attempts', 'Another sign-in is being checked. Try again in a moment.', { 'Retry-After': '1' });
    }
    const held = [userKey, address, 'all'];
    hold(held, +1);
    try {
      const user = currentUsers().get(username.toLowerCase());
      const valid = await verifyPassword(body.password, user?.passwordHash ?? (await decoyHash()));
      if (!user || !valid) {
        const delay = throttle.fail(keys);
        await new Promise((resolve) => setTimeout(resolve, delay));
        return fail(401, 'sign_in_failed', 'Wrong username or password.');
      }
      throttle.succeed(keys[0]!);
      sessions.delete(readCookie(req, SESSION_COOKIE));
      const token = sessions.create(user.username, user.role);
      reply(200, { mode: 'users', user: user.username, role: user.role } satisfies SessionInfo, {
        'Set-Cookie': cookie(req, token, config.sessionMaxAgeMinutes * 60),
      });
    } finally {
      hold(held, -1);
    }
  }

  return {
    mode: 'users',
    identify,
    handleSession(req, reply, fail) {
      if (req.method === 'GET') {
        const identity = identify(req);
        return reply(200, { mode: 'users', ...identity } satisfies SessionInfo);
      }
      if (req.method === 'DELETE') {
        sessions.delete(readCookie(req, SESSION_COOKIE));
        return reply(200, { mode: 'users' } satisfies SessionInfo, { 'Set-Cookie': cookie(req, '', 0) });
      }
      if (req.method === 'POST') {
        signIn(req, reply, fail).catch(() => fail(400, 'bad_request', 'The sign-in could not be processed.'));
        return;
      }
      fail(405, 'method_not_allowed', 'Use GET, POST or DELETE.', { Allow: 'GET, POST, DELETE' });
    },
    rateLimitKey: (_req, identity) => `user:${identity.user}`,
  };
}
