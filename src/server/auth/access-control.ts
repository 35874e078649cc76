import type http from 'node:http';
import type { AuthMode, SignInRefusal } from '../../kyc/contract/api.ts';
import type { ApiFailure } from '../http/api-failure.ts';
import type { Route } from '../http/routes.ts';
import { type SharedStore, StoreUnavailableError } from '../state/store.ts';
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
   * The modes with sessions: who the request's session cookie last resolved to on this instance, within a
   * few minutes and before the session's end, without asking the shared store (session-store.ts `recall`),
   * checked again against what this instance knows (the users file). Only for a route that takes it while
   * the store cannot be asked (identifyCall): a print.
   */
  remembered?(req: http.IncomingMessage): Identity | undefined;
  /**
   * `/api/session`: GET who am I, POST sign in (built-in users), DELETE sign out. `res` is the answer's, for
   * reading a sign-in's body (a body over its limit closes the connection after its refusal); `reply` and `fail` answer.
   */
  handleSession(req: http.IncomingMessage, reply: Reply, fail: Fail, res: http.ServerResponse): void | Promise<void>;
  /** The key for per-user rate limits: the user, or the client address in local mode (an IPv6 address: its /64). */
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

/**
 * Who is asking a route: the mode's answer; or, when the shared store cannot be asked and the route takes it
 * (`remembered`: the export, for a print), the identity this instance last knew for the session, the call
 * then marked `identityFromCache`. Any other route, or a session this instance does not remember, is
 * refused as before (StoreUnavailableError: 503 store_unavailable).
 */
export async function identifyCall(
  access: AccessControl,
  route: Route | undefined,
  req: http.IncomingMessage,
): Promise<{ identity: Identity | undefined; identityFromCache?: true }> {
  try {
    return { identity: await access.identify(req) };
  } catch (error) {
    const takes = error instanceof StoreUnavailableError && route?.signedIn === true && route.remembered === true;
    const identity = takes ? access.remembered?.(req) : undefined;
    if (!identity) throw error;
    return { identity, identityFromCache: true };
  }
}

/** Whether this user may use the environment `name`: every one when their account names none. */
export function mayUse(identity: Identity, name: string): boolean {
  return identity.environments === undefined || identity.environments.includes(name);
}
