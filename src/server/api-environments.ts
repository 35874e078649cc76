import { API_PREFIX, type ApiMeta, decodeEnvironmentName, type EnvironmentInfo, type SampleCandidate } from '../kyc/contract/api.ts';
import type { LookupKind } from '../kyc/contract/lookup.ts';
import type { ReplyTemplate } from '../kyc/contract/replies.ts';
import type { RefusedEntry } from './audit/audit-refusals.ts';
import { auditTrail, type Outcome, refuse } from './audit/audit-trail.ts';
import type { Identity } from './http/identity.ts';
import { ApiFailure } from './http/api-failure.ts';
import { type LookupDeps, takeToken } from './lookup/lookup-steps.ts';
import type { ApplicantsQueue } from './lookup/applicants.ts';
import type { Limit } from './ops/metrics.ts';
import { any, get, type Route, type SignedInCall } from './http/routes.ts';
import type { UpstreamTarget } from './upstream/upstream-client.ts';

/** An environment as the API handler serves it: what the browser may know, and where lookups go. */
export interface ApiEnvironment {
  info: EnvironmentInfo;
  target: UpstreamTarget;
  /** The sandbox's sample candidates, offered as examples. */
  samples?: SampleCandidate[];
  /** Its own decision fields, reply texts and archive-after-extract policy (unset: the handler's). */
  summaryFields?: string[];
  replyTemplates?: Record<string, ReplyTemplate>;
  archiveOnExtract?: 'refuse' | 'accept';
  /** The custom fields its support users may see beside the status (none: status level only). */
  supportFields?: readonly string[];
  /** The embedded sandbox's decision, for the simulate buttons (sandbox mode only). */
  simulate?: (kind: LookupKind, id: string, status: string) => boolean;
  /** Its queue: the index's room in candidates (its bound in bytes follows), and its SLA in hours (unset: the defaults). */
  queueIndexMax?: number;
  queueSlaHours?: number;
  /** The shared secret the service signs its webhooks with (issue 22); without it, no receiver. Server memory only. */
  webhookSecret?: string;
}

/** An environment ready to serve: its lookups' dependencies built once. */
export interface ServedEnvironment {
  environment: ApiEnvironment;
  deps: LookupDeps;
  /** Its queue: the index, its crawler and settings. */
  queue: ApplicantsQueue;
}

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
    return environmentPatterns(route.pattern).map((pattern) => (route.method === 'GET' ? get(pattern, handle) : any(pattern, handle)));
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
    const limited = await takeToken(deps, call.req, call.identity, refusedAs.limit);
    const audit = auditTrail(deps, call.res, refusedAs.what, refusedAs.line(resolved.name, call));
    await refuse(call.res, audit, limited ?? resolved.failure, { counted: limited !== undefined });
  };
}

/** Whether this user may use the environment `name`: every one when their account names none. */
export function mayUse(identity: Identity, name: string): boolean {
  return identity.environments === undefined || identity.environments.includes(name);
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

/**
 * `/api/meta`: the environment asked for, whether this user may use it, and the ones they may. Of an
 * environment this user may not use, only its name (in the URL already): not its label, client id,
 * dashboard or key state.
 */
export async function metaFor(
  served: readonly ServedEnvironment[],
  current: ServedEnvironment,
  identity: Identity,
  replyTemplates: Record<string, ReplyTemplate>,
  display?: Pick<ApiMeta, 'summaryFields' | 'privacyMaskDefault'>,
): Promise<ApiMeta> {
  const allowed = mayUse(identity, current.environment.info.name);
  const { info, samples } = current.environment;
  const archivingKey = allowed ? await current.deps.archiving.state() : undefined;
  return {
    upstream: info.upstream,
    ...(allowed && samples ? { samples: identity.role === 'support' ? samples.map(withoutName) : samples } : {}),
    environment: allowed ? withLive(current.environment) : { name: info.name, label: info.name, upstream: info.upstream, live: false },
    allowed,
    environments: served.filter((s) => mayUse(identity, s.environment.info.name)).map((s) => withLive(s.environment)),
    replyTemplates: current.environment.replyTemplates ?? replyTemplates,
    ...(archivingKey
      ? { archivingKey: { ...archivingKey, ...(current.deps.hasStatusKey ? {} : { supportUsesFullKey: true as const }) } }
      : {}),
    ...display,
    ...(current.environment.summaryFields ? { summaryFields: current.environment.summaryFields } : {}),
    ...(allowed && current.environment.supportFields ? { supportFields: [...current.environment.supportFields] } : {}),
    live: allowed && Boolean(current.environment.webhookSecret),
  };
}

/** An environment as the browser knows it, with whether its pages update live (it has a webhook receiver). */
function withLive(environment: ApiEnvironment): EnvironmentInfo {
  return { ...environment.info, live: Boolean(environment.webhookSecret) };
}

/** Support users see status level only, so not a sample candidate's name either. */
function withoutName({ name: _name, ...sample }: SampleCandidate): SampleCandidate {
  return sample;
}
