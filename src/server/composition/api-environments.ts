import { API_PREFIX, decodeEnvironmentName } from '../../kyc/contract/api.ts';
import type { RefusedEntry } from '../audit/audit-refusals.ts';
import { auditTrail, type Outcome, refuse } from '../audit/audit-trail.ts';
import { mayUse } from '../auth/access-control.ts';
import type { Identity } from '../http/identity.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { takeToken } from '../lookup/lookup-steps.ts';
import type { ServedEnvironment } from '../lookup/served-environment.ts';
import type { Limit } from '../ops/metrics.ts';
import { any, get, type Route, type SignedInCall } from '../http/routes.ts';

type Resolved = { ok: true; served: ServedEnvironment } | { ok: false; failure: ApiFailure; name: string };

/** Longest environment name repeated in a refusal's message (the name came from the URL; its audit line cuts it shorter). */
const MAX_NAME = 64;

/**
 * The environment of a request: `/api/e/<name>/…`, or the first one for the unprefixed form. Unknown
 * names are 404; an environment the user's account is not allowed is 403.
 */
function resolveEnvironment(served: readonly ServedEnvironment[], encodedName: string | undefined, identity: Identity): Resolved {
  if (encodedName === undefined) return allow(served[0]!, identity);
  const name = decodeEnvironmentName(encodedName);
  const found = served.find((s) => s.environment.info.name === name);
  if (!found) {
    return {
      ok: false,
      name,
      failure: new ApiFailure('no_such_environment', `This server has no environment named "${name.slice(0, MAX_NAME)}".`),
    };
  }
  return allow(found, identity);
}

/** How a route's request refused for its environment is audited: its name in a 503, and its line. */
export interface RefusedAs {
  what: string;
  /** Counted under this limit when over the user's limit. */
  limit: Limit;
  line: (env: string, call: SignedInCall) => (outcome: Outcome) => RefusedEntry;
}

/**
 * A route of every environment (api-routes.ts): answered at `/api<pattern>` for the default one and at
 * `/api/e/<name><pattern>`, with the environment the request is in.
 */
export interface EnvironmentRoute {
  pattern: string;
  /** GET only (any other method is answered 405), or every method, answered by the route itself. */
  method: 'GET' | 'any';
  /**
   * How a request refused for its environment is audited. Without it the route answers in any
   * environment, even one the user may not use (`/api/meta`, which says which ones they may).
   */
  refusedAs?: RefusedAs;
  /** Takes the identity this instance last knew for the session while the shared store cannot be asked (routes.ts). */
  remembered?: true;
  /** `current`: the request's environment as served (its name, in an audit line, is `env`); `served`: all of them. */
  handle(current: ServedEnvironment, call: SignedInCall, served: readonly ServedEnvironment[]): void | Promise<void>;
}

/** The two paths of a route of every environment: the default one's, and any one's by name. */
export function environmentPatterns(pattern: string): [string, string] {
  return [`${API_PREFIX}${pattern}`, `${API_PREFIX}/e/:env${pattern}`];
}

/** The routes of every environment, bound to the environments served: each answered in the request's. */
export function environmentRoutes(served: readonly ServedEnvironment[], table: readonly EnvironmentRoute[]): Route[] {
  return table.flatMap((route) => {
    const handle = inEnvironment(served, route);
    return environmentPatterns(route.pattern).map((pattern): Route => {
      const made = route.method === 'GET' ? get(pattern, handle) : any(pattern, handle);
      return route.remembered ? { ...made, remembered: true } : made;
    });
  });
}

/**
 * A route answered in the request's environment. A request for one that does not exist or is not
 * allowed is refused and audited as the route says, whatever the route: it costs a token of the user's
 * limit like any lookup, and over the limit it is counted, not written.
 */
function inEnvironment(served: readonly ServedEnvironment[], route: EnvironmentRoute): (call: SignedInCall) => Promise<void> {
  const { refusedAs } = route;
  return async (call) => {
    const identity = refusedAs ? call.identity : { ...call.identity, environments: undefined };
    const resolved = resolveEnvironment(served, call.params.env, identity);
    if (resolved.ok) return route.handle(resolved.served, call, served);
    if (!refusedAs) throw resolved.failure;
    // Every environment shares the rate limit, the audit log and the refusal log: the first one's will do.
    const deps = served[0]!.deps;
    // An identity from this instance's memory comes only while the shared store cannot be asked: no token then.
    const limited = call.identityFromCache ? undefined : await takeToken(deps, call.req, call.identity, refusedAs.limit);
    const audit = auditTrail(deps, call.res, refusedAs.what, refusedAs.line(resolved.name, call));
    await refuse(call.res, audit, limited ?? resolved.failure, { counted: limited !== undefined });
  };
}

function allow(served: ServedEnvironment, identity: Identity): Resolved {
  const { name } = served.environment.info;
  if (mayUse(identity, name)) return { ok: true, served };
  // By the name its URLs carry, not its label: nothing about an environment this user may not use.
  return {
    ok: false,
    name,
    failure: new ApiFailure('environment_forbidden', `Your account may not use the environment "${name}".`),
  };
}
