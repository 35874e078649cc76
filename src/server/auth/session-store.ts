import { createHash, randomBytes } from 'node:crypto';
import type http from 'node:http';
import { ROLES, type Role } from '../../kyc/contract/api.ts';
import { isHttps, readCookie } from '../http/http-reply.ts';
import type { SharedStore } from '../state/store.ts';
import { RememberedSessions } from './remembered-sessions.ts';

export const SESSION_COOKIE = 'cl_session';
/**
 * Over https the cookie is Secure and named with the `__Host-` prefix: browsers then accept it only
 * from this very host, over https, for the whole site, so a sibling subdomain or a plain-http page on
 * the same name cannot plant or overwrite it.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

function sessionCookieName(req: http.IncomingMessage): string {
  return isHttps(req) ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/** The session token the browser sent, under the name this connection uses. */
export function readSessionCookie(req: http.IncomingMessage): string | undefined {
  return readCookie(req, sessionCookieName(req));
}

/** The session cookie of every mode that signs people in: HttpOnly, SameSite=Strict, Secure and `__Host-` over https. */
export function sessionCookie(req: http.IncomingMessage, token: string, maxAgeSeconds: number): string {
  return [
    `${sessionCookieName(req)}=${token}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${maxAgeSeconds}`,
    ...(isHttps(req) ? ['Secure'] : []),
  ].join('; ');
}

export interface Session {
  user: string;
  role: Role;
  createdAt: number;
  lastSeenAt: number;
  /** What the user signed in with, as a fingerprint (built-in users): a session ends when it changes. */
  credential?: string;
}

export interface SessionOptions {
  maxAgeMs: number;
  idleMs: number;
  now?: () => number;
}

/** A session seen again within this time is not written back: one read per request, not a read and a write. */
const TOUCH_EVERY_MS = 5000;
/** How long this instance remembers whose a session was, for a print while the store cannot be asked (`recall`). */
export const REMEMBER_SESSION_MS = 5 * 60_000;
/** At most this many sessions remembered (a few hundred bytes each), the one seen longest ago going first. */
const REMEMBER_AT_MOST = 10_000;

/**
 * Server-side sessions behind an opaque random token, kept in the shared store so that every instance
 * knows them and a restart keeps them. They end after a maximum age and when idle. The store holds a
 * hash of the token, never the token: a copy of Redis signs nobody in.
 * Every method rejects with `StoreUnavailableError` when the store cannot be asked.
 */
export class SessionStore {
  private readonly remembered: RememberedSessions<Session>;

  constructor(
    private readonly store: SharedStore,
    private readonly options: SessionOptions,
  ) {
    this.remembered = new RememberedSessions({ windowMs: REMEMBER_SESSION_MS, max: REMEMBER_AT_MOST, now: () => this.now() });
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private ttl(session: Session, now: number): number {
    return Math.min(session.createdAt + this.options.maxAgeMs, session.lastSeenAt + this.options.idleMs) - now;
  }

  async create(user: string, role: Role, credential?: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    const session: Session = { user, role, createdAt: now, lastSeenAt: now, ...(credential ? { credential } : {}) };
    await this.store.put(keyOf(token), JSON.stringify(session), this.ttl(session, now));
    return token;
  }

  /** The session of `token`; `touch: false` reads it without marking it seen (it may still idle out). */
  async get(token: string | undefined, touch = true): Promise<Session | undefined> {
    if (!token || token.length > 128) return undefined;
    const key = keyOf(token);
    const session = parseSession(await this.store.get(key));
    const now = this.now();
    if (!session || this.ttl(session, now) <= 0) {
      this.remembered.forget(key);
      if (session) await this.store.delete(key);
      return undefined;
    }
    if (touch && now - session.lastSeenAt >= TOUCH_EVERY_MS) {
      session.lastSeenAt = now;
      await this.store.put(key, JSON.stringify(session), this.ttl(session, now));
    }
    this.remembered.remember(key, session, now + this.ttl(session, now));
    return session;
  }

  /**
   * The session `token` resolved to on this instance within the last few minutes, never asking the store:
   * only for a print while the store cannot be asked (export-route.ts). A token this instance never saw
   * valid, or saw signed out, or whose session has ended since, finds nothing.
   */
  recall(token: string | undefined): Session | undefined {
    return token && token.length <= 128 ? this.remembered.recall(keyOf(token)) : undefined;
  }

  async delete(token: string | undefined): Promise<void> {
    if (!token || token.length > 128) return;
    // Forgotten here first: a sign-out the store cannot take still ends what this instance remembers.
    this.remembered.forget(keyOf(token));
    await this.store.delete(keyOf(token));
  }
}

function keyOf(token: string): string {
  return `session:${createHash('sha256').update(token).digest('base64url')}`;
}

/** What the store holds is checked like any input: a record that is not a session is no session. */
function parseSession(text: string | undefined): Session | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<Session>;
    if (
      typeof value.user === 'string' &&
      (ROLES as readonly unknown[]).includes(value.role) &&
      Number.isFinite(value.createdAt) &&
      Number.isFinite(value.lastSeenAt) &&
      (value.credential === undefined || typeof value.credential === 'string')
    ) {
      return value as Session;
    }
  } catch {
    // not JSON: no session
  }
  return undefined;
}
