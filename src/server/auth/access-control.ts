import type http from 'node:http';
import type { AuthMode, SignInRefusal } from '../../kyc/contract/api.ts';
import type { ApiFailure } from '../http/api-failure.ts';
import type { Route } from '../http/routes.ts';
import type { SharedStore } from '../state/store.ts';
import type { Identity } from '../http/identity.ts';

/**
 * What every sign-in mode offers the proxy. Apart from `access.ts`, which picks a mode: the modes
 * implement this and the proxy uses it, so neither has to import the other's file.
 */

export interface IdentifyOptions {
  touch?: boolean;
}

export type Reply = (status: number, body: unknown, headers?: Record<string, string>) => void;
/** The session route's refusal, sent as every API error is (sendFailure), and counted by its code. */
export type Fail = (failure: ApiFailure) => void;

/**
 * Who is asking: one of four modes, chosen by configuration. The modes with sessions keep them in the
 * shared store, so `identify` and `handleSession` reject with StoreUnavailableError while it is down.
 */
export interface AccessControl {
  mode: AuthMode;
  /**
   * `touch: false` asks without counting as activity (a live update stream's re-check): the session still
   * ends when its user is idle, however long a page stays open (default: a request is activity).
   */
  identify(req: http.IncomingMessage, options?: IdentifyOptions): Promise<Identity | undefined>;
  /**
   * `/api/session`: GET who am I, POST sign in (built-in users), DELETE sign out. `res` is the answer's, for
   * reading a sign-in's body (a body over its limit closes the connection after its refusal); `reply` and `fail` answer.
   */
  handleSession(req: http.IncomingMessage, reply: Reply, fail: Fail, res: http.ServerResponse): void | Promise<void>;
  /** The key for per-user rate limits: the user, or the client address in local mode. */
  rateLimitKey(req: http.IncomingMessage, identity: Identity): string;
  /** Routes of the mode's own, open to everyone (OpenID Connect: the start of a sign-in and the callback). */
  routes?: readonly Route[];
  /**
   * Built-in users: calls `listener` with the (lower-case) names of the users removed from the users file
   * or given another password, role or environments, as soon as this instance reads the change (a request
   * may read it first; else a look twice a second while anyone listens). Their sessions have ended, and so
   * must their live update streams. Returns the function that stops listening.
   */
  onUsersChanged?(listener: (users: ReadonlySet<string>) => void): () => void;
  /** Checks at start what can be checked early (the OpenID provider's metadata); rejects with the problem. */
  warmUp?(): Promise<void>;
}

export interface AccessOptions {
  /** Sessions and failed sign-ins (default: in this process). */
  store?: SharedStore;
  now?: () => number;
  /** The wait after a first failed sign-in; it doubles with each further failure (default 250 ms). */
  signInDelayMs?: number;
  /** An OpenID Connect sign-in gave no session (for the log and the metrics). */
  onSignInRefused?(refusal: SignInRefusalEvent): void;
}

/** Why a sign-in at the provider was refused: never a token, a code, a state or a secret. */
export interface SignInRefusalEvent {
  reason: SignInRefusal;
  /** What failed, in a line (openid-client's error: the issuer, audience or time check, the state, the grant). */
  detail: string;
  /** The user's name (email, else username at the provider) and subject, when the provider's answer was verified. */
  user?: string;
  subject?: string;
}

/** Whether this user may use the environment `name`: every one when their account names none. */
export function mayUse(identity: Identity, name: string): boolean {
  return identity.environments === undefined || identity.environments.includes(name);
}
