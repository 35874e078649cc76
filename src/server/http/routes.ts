import type http from 'node:http';
import type { Identity } from './identity.ts';
import { methodNotAllowed } from './http-reply.ts';

/**
 * The API's route table: a pattern per route, matched on the raw (still percent-encoded) path, first
 * match wins. `:name` is one non-empty segment; `:name*` is the rest of the path, slashes included, so
 * that the route itself can refuse an id that is not one segment (and audit the refusal).
 */

export interface ApiCall {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  params: Record<string, string>;
  /** `performance.now()` when the request arrived. */
  started: number;
  /** Its JSON body must arrive within this once read (request-body.ts; limits.apiBodyTimeoutMs). */
  bodyTimeoutMs?: number;
}

export interface SignedInCall extends ApiCall {
  identity: Identity;
  /** The identity is the one this instance last knew for the session: the shared store could not be asked (`remembered`). */
  identityFromCache?: true;
}

export type Route =
  | {
      pattern: string;
      signedIn: true;
      navigation?: false;
      /** The live updates' stream: a browser's EventSource cannot send the app's header (request-guard.ts). */
      eventStream?: boolean;
      /**
       * While the shared store cannot be asked, takes the identity this instance last knew for the session
       * (auth/access-control.ts identifyCall), the call marked `identityFromCache`: the export, for a print.
       */
      remembered?: boolean;
      handle: (call: SignedInCall) => void | Promise<void>;
    }
  | { pattern: string; signedIn: false; navigation?: boolean; handle: (call: ApiCall) => void | Promise<void> };

/** A read-only route for signed-in users: any method but GET is answered 405. */
export function get(pattern: string, handle: (call: SignedInCall) => void | Promise<void>): Extract<Route, { signedIn: true }> {
  return {
    pattern,
    signedIn: true,
    handle: (call) => {
      if (call.req.method !== 'GET')
        throw methodNotAllowed('GET', `${call.req.method} is not allowed here: this API route only reads (GET).`);
      return handle(call);
    },
  };
}

/** A route for signed-in users that answers every method itself. */
export function any(pattern: string, handle: (call: SignedInCall) => void | Promise<void>): Extract<Route, { signedIn: true }> {
  return { pattern, signedIn: true, handle };
}

/** A route open to everyone, signed in or not, that answers every method itself. */
export function open(pattern: string, handle: (call: ApiCall) => void | Promise<void>): Route {
  return { pattern, signedIn: false, handle };
}

/**
 * A route open to everyone that the browser reaches by top-level navigation (a sign-in provider's
 * redirect back), so it cannot carry the app's request header and may come from another site. It must
 * never answer with candidate data. Every other route answers the app's own pages only (request-guard.ts).
 */
export function navigation(pattern: string, handle: (call: ApiCall) => void | Promise<void>): Route {
  return { pattern, signedIn: false, navigation: true, handle };
}

/** The pattern as the request log shows it: no ids, only the route's shape. */
export function routeLabel(route: Route): string {
  return route.pattern.replace(/\*$/, '');
}

export function findRoute(routes: readonly Route[], path: string): { route: Route; params: Record<string, string> } | undefined {
  for (const route of routes) {
    const params = matchPattern(route.pattern, path);
    if (params) return { route, params };
  }
  return undefined;
}

function matchPattern(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  const params: Record<string, string> = {};
  for (const [index, part] of want.entries()) {
    if (part.startsWith(':') && part.endsWith('*')) {
      if (got.length <= index) return undefined;
      params[part.slice(1, -1)] = got.slice(index).join('/');
      return params;
    }
    const segment = got[index];
    if (segment === undefined) return undefined;
    if (part.startsWith(':')) {
      if (segment === '') return undefined;
      params[part.slice(1)] = segment;
    } else if (part !== segment) return undefined;
  }
  return got.length === want.length ? params : undefined;
}
