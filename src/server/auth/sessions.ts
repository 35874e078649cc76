import { randomBytes } from 'node:crypto';
import type { Role } from '../../kyc/contract/api.ts';

export interface Session {
  user: string;
  role: Role;
  createdAt: number;
  lastSeenAt: number;
}

/** Server-side sessions behind an opaque random token; they expire after a maximum age and when idle. */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly options: { maxAgeMs: number; idleMs: number; now?: () => number }) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  create(user: string, role: Role): string {
    this.prune();
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    this.sessions.set(token, { user, role, createdAt: now, lastSeenAt: now });
    return token;
  }

  get(token: string | undefined): Session | undefined {
    if (!token) return undefined;
    const session = this.sessions.get(token);
    if (!session) return undefined;
    const now = this.now();
    if (now - session.createdAt > this.options.maxAgeMs || now - session.lastSeenAt > this.options.idleMs) {
      this.sessions.delete(token);
      return undefined;
    }
    session.lastSeenAt = now;
    return session;
  }

  delete(token: string | undefined): void {
    if (token) this.sessions.delete(token);
  }

  get size(): number {
    return this.sessions.size;
  }

  private prune(): void {
    const now = this.now();
    for (const [token, session] of this.sessions) {
      if (now - session.createdAt > this.options.maxAgeMs || now - session.lastSeenAt > this.options.idleMs) {
        this.sessions.delete(token);
      }
    }
  }
}
