import { createHash } from 'node:crypto';
import type http from 'node:http';
import { z } from 'zod';
import type { SessionInfo } from '../../kyc/contract/api.ts';
import type { AuthConfig } from '../config/sign-in.ts';
import { clientOf } from '../http/client.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { methodNotAllowed } from '../http/http-reply.ts';
import { type BodyCall, ClientGoneError, readJsonBody } from '../http/request-body.ts';
import { StoreUnavailableError, type SharedStore } from '../state/store.ts';
import type { AccessControl, AccessOptions, Fail, IdentifyOptions, Reply } from './access-control.ts';
import type { Identity } from '../http/identity.ts';
import { decoyHash, verifyPassword } from './passwords.ts';
import { readSessionCookie, type Session, SessionStore, sessionCookie } from './session-store.ts';
import { createSignInFailures } from './sign-in-failures.ts';
import { SignInGuard } from './sign-in-guard.ts';
import { followUsersFile, type StoredUser } from './users-file.ts';

/**
 * Built-in users: a users file, a sign-in form, and server-side sessions behind an HttpOnly cookie.
 * Sessions and failed sign-ins live in the shared store: with Redis, on every instance and across restarts.
 */

const signInSchema = z.object({ username: z.string().max(256), password: z.string().max(1024) });

type UsersConfig = Extract<AuthConfig, { mode: 'users' }>;

export function usersAccess(config: UsersConfig, store: SharedStore, options: AccessOptions): AccessControl {
  const now = options.now ?? Date.now;
  const sessions = new SessionStore(store, {
    maxAgeMs: config.sessionMaxAgeMinutes * 60_000,
    idleMs: config.sessionIdleMinutes * 60_000,
    now,
  });
  const guard = new SignInGuard({ failures: createSignInFailures(store), baseDelayMs: options.signInDelayMs ?? 250 });
  const changes = new Set<(users: ReadonlySet<string>) => void>();
  const follower = followUsersFile(config.usersFile, now, (users) => {
    for (const listener of changes) listener(users);
  });
  const currentUsers = follower.current;
  let watch: NodeJS.Timeout | undefined;

  const identify = async (req: http.IncomingMessage, options?: IdentifyOptions): Promise<Identity | undefined> => {
    const token = readSessionCookie(req);
    const session = await sessions.get(token, options?.touch);
    if (!session) return undefined;
    const identity = identityOf(currentUsers(), session);
    // A removed user, or a new password (`npm run user:add` again): the session ends.
    if (!identity) await sessions.delete(token);
    return identity;
  };

  async function signIn(call: BodyCall, reply: Reply, fail: Fail): Promise<void> {
    const { req } = call;
    const body = await readSignIn(call, fail);
    if (!body) return;
    const username = body.username.trim();
    const attempt = await guard.attempt(username, clientOf(req).address, async () => {
      const user = currentUsers().get(username.toLowerCase());
      // An unknown user costs the same scrypt check as a wrong password: the answer says nothing of who exists.
      const valid = await verifyPassword(body.password, user?.passwordHash ?? (await decoyHash()));
      return user && valid ? user : undefined;
    });
    if (!attempt.ok) return refuseSignIn(attempt, fail);
    const user = attempt.value;
    // A new session, never one the browser brought along (session fixation).
    await sessions.delete(readSessionCookie(req));
    const token = await sessions.create(user.username, user.role, credentialOf(user));
    reply(200, { mode: 'users', user: user.username, role: user.role } satisfies SessionInfo, {
      'Set-Cookie': sessionCookie(req, token, config.sessionMaxAgeMinutes * 60),
    });
  }

  return {
    mode: 'users',
    identify,
    // The users file is this instance's own: a user removed or given a new password is not remembered.
    remembered: (req) => identityOf(currentUsers(), sessions.recall(readSessionCookie(req))),
    async handleSession(req, reply, fail, res) {
      if (req.method === 'GET') return reply(200, { mode: 'users', ...(await identify(req)) } satisfies SessionInfo);
      if (req.method === 'DELETE') {
        await sessions.delete(readSessionCookie(req));
        return reply(200, { mode: 'users' } satisfies SessionInfo, { 'Set-Cookie': sessionCookie(req, '', 0) });
      }
      if (req.method === 'POST') {
        return signIn({ req, res }, reply, fail).catch((error: unknown) => {
          if (error instanceof StoreUnavailableError || error instanceof ClientGoneError) throw error;
          fail(new ApiFailure('bad_request', 'The sign-in could not be processed.'));
        });
      }
      fail(methodNotAllowed('GET, POST, DELETE', 'Use GET, POST or DELETE.'));
    },
    rateLimitKey: (_req, identity) => `user:${identity.user}`,
    onUsersChanged(listener) {
      changes.add(listener);
      // Not only when a request asks: an open stream makes none, and must still end within a second.
      watch ??= setInterval(follower.refresh, WATCH_MS).unref();
      return () => {
        changes.delete(listener);
        if (changes.size > 0) return;
        clearInterval(watch);
        watch = undefined;
      };
    },
  };
}

/** How often the users file is looked at while anyone listens for its changes: a removed user's streams end within a second. */
const WATCH_MS = 500;

/** The sign-in body, from this site and as JSON; undefined (with the refusal sent) otherwise. */
async function readSignIn(call: BodyCall, fail: Fail): Promise<z.infer<typeof signInSchema> | undefined> {
  const { req } = call;
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    fail(new ApiFailure('unsupported_media_type', 'Send the sign-in as JSON.'));
    return undefined;
  }
  if (req.headers['sec-fetch-site'] && !['same-origin', 'none'].includes(String(req.headers['sec-fetch-site']))) {
    fail(new ApiFailure('not_from_app', 'Sign-in from another site is not allowed.'));
    return undefined;
  }
  try {
    return await readJsonBody(call, 16 * 1024, signInSchema, 'sign-in', { shape: 'The sign-in request is not valid.' });
  } catch (error) {
    if (!(error instanceof ApiFailure)) throw error;
    fail(error);
    return undefined;
  }
}

function refuseSignIn(attempt: Exclude<Awaited<ReturnType<SignInGuard['attempt']>>, { ok: true }>, fail: Fail): void {
  if (attempt.reason === 'failed') fail(new ApiFailure('sign_in_failed', 'Wrong username or password.'));
  else if (attempt.reason === 'busy') {
    fail(
      new ApiFailure('too_many_sign_in_attempts', 'Too many sign-ins are waiting to be checked. Try again in a moment.', {
        retryAfterSeconds: 1,
      }),
    );
  } else {
    const minutes = Math.ceil(attempt.retryAfterSeconds / 60);
    const { retryAfterSeconds } = attempt;
    fail(new ApiFailure('too_many_sign_in_attempts', `Too many failed sign-ins. Try again in ${minutes} min.`, { retryAfterSeconds }));
  }
}

/** The session's user as the users file has them now; undefined when removed or given a new password. */
function identityOf(users: ReadonlyMap<string, StoredUser>, session: Session | undefined): Identity | undefined {
  const user = session && users.get(session.user.toLowerCase());
  if (!user || session?.credential !== credentialOf(user)) return undefined;
  return { user: user.username, role: user.role, ...(user.environments ? { environments: user.environments } : {}) };
}

/**
 * Which password a session was opened with: a hash of the stored hash (never the hash itself, which the
 * shared store would then hold). A new password, even the same one set again, has a new salt.
 */
function credentialOf(user: StoredUser): string {
  return createHash('sha256').update(user.passwordHash).digest('base64url');
}
