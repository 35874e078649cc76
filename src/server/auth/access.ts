import type http from 'node:http';
import { z } from 'zod';
import { ROLES, type AuthMode, type Role, type SessionInfo } from '../../kyc/api.ts';
import type { AuthConfig } from '../config.ts';
import { addressMatcher } from './cidr.ts';
import { decoyHash, verifyPassword } from './passwords.ts';
import { SessionStore } from './sessions.ts';
import { readUsersFile } from './users-file.ts';

export interface Identity {
  user: string;
  role: Role;
}

export type Reply = (status: number, body: unknown, headers?: Record<string, string>) => void;
export type Fail = (status: number, code: 'unauthenticated' | 'sign_in_failed' | 'too_many_sign_in_attempts' | 'bad_request' | 'method_not_allowed', message: string, headers?: Record<string, string>) => void;

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
      return localAccess();
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

function localAccess(): AccessControl {
  const identity: Identity = { user: 'local', role: 'compliance' };
  return {
    mode: 'local',
    identify: () => identity,
    handleSession(req, reply, fail) {
      if (!sessionRouteOnlyGet(req, fail)) return;
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

/** Failed sign-ins per username and per client address: each failure doubles the wait, ten lock for 15 min. */
class SignInThrottle {
  private readonly failures = new Map<string, { count: number; last: number }>();
  static readonly LOCK_AFTER = 10;
  static readonly WINDOW_MS = 15 * 60_000;

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
      if (entry && entry.count >= SignInThrottle.LOCK_AFTER) {
        seconds = Math.max(seconds, Math.ceil((entry.last + SignInThrottle.WINDOW_MS - this.now()) / 1000));
      }
    }
    return seconds;
  }

  /** Records a failure and returns how long to hold the answer back. */
  fail(keys: string[]): number {
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
  const identify = (req: http.IncomingMessage): Identity | undefined => {
    const session = sessions.get(readCookie(req, SESSION_COOKIE));
    return session && { user: session.user, role: session.role };
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
    const keys = [`user:${username.toLowerCase()}`, `address:${req.socket.remoteAddress ?? ''}`];
    const locked = throttle.lockedFor(keys);
    if (locked > 0) {
      return fail(429, 'too_many_sign_in_attempts', `Too many failed sign-ins. Try again in ${Math.ceil(locked / 60)} min.`, {
        'Retry-After': String(locked),
      });
    }
    // Read on every sign-in, so users added with `npm run user:add` can sign in without a restart.
    const user = readUsersFile(config.usersFile).users.find((u) => u.username.toLowerCase() === username.toLowerCase());
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

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function isHttps(req: http.IncomingMessage): boolean {
  return Boolean((req.socket as { encrypted?: boolean }).encrypted) || single(req.headers['x-forwarded-proto']) === 'https';
}

export function readCookie(req: http.IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=') || undefined;
  }
  return undefined;
}

function readBody(req: http.IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Error('body too large'));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
