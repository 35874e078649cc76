import { createPartsBudget } from './answer/parts-budget.ts';
import type http from 'node:http';
import { API_PREFIX, type ApiMeta } from '../kyc/contract/api.ts';
import { LOOKUP_KINDS, type LookupKind } from '../kyc/contract/lookup.ts';
import { DEFAULT_REPLIES, type ReplyTemplate } from '../kyc/contract/replies.ts';
import {
  type ApiEnvironment,
  metaFor,
  type RefusedAs,
  resolveEnvironment,
  type ServedEnvironment,
  withEnvironment,
} from './api-environments.ts';
import { listApplicants } from './lookup/applicants.ts';
import type { ArchivingFindings } from './archiving/archiving-findings.ts';
import { createArchivingGuard } from './archiving/archiving-guard.ts';
import type { AuditLog } from './audit/audit.ts';
import { listLine, lookupLine, requestLine } from './audit/audit-trail.ts';
import { createRefusalLog, type RefusalLog } from './audit/audit-refusals.ts';
import { createAccessControl } from './auth/access.ts';
import type { AccessControl } from './auth/access-control.ts';
import { type BatchDeps, batchRoute } from './lookup/batch.ts';
import { exportRoute } from './lookup/export-route.ts';
import { ApiFailure } from './http/api-failure.ts';
import { bytesSent, rawPathOf, sendFailure, sendJson, sendThrown } from './http/http-reply.ts';
import { lookup } from './lookup/lookup.ts';
import { readId } from './lookup/lookup-steps.ts';
import { type Logger, noteUser, requestIdOf, SILENT_LOGGER, setRoute, startRequestLog } from './log/log.ts';
import { createMetrics, type Metrics } from './ops/metrics.ts';
import { NO_RATE_LIMIT, type RateLimiter } from './ops/rate-limit.ts';
import { refusalOf } from './http/request-guard.ts';
import { any, type ApiCall, findRoute, get, open, type Route, routeLabel, type SignedInCall } from './http/routes.ts';
import { setSecurityHeaders } from './http/security-headers.ts';
import { createClientResolver, noteClient } from './http/client.ts';
import { createUpstreamClient } from './upstream/upstream-client.ts';
import { createUpstreamSlots, DEFAULT_MAX_IN_FLIGHT_PER_USER } from './upstream/upstream-slots.ts';

/**
 * The key-holding proxy: one connect-style handler for `/api/*`, mounted by the Vite plugin in
 * development and by the production server. Setup happens once here; each route is a line of the table.
 */
export interface ApiHandlerOptions {
  /** Where lookups go; the first is the default, the others are reached under `/api/e/<name>/…`. */
  environments: ApiEnvironment[];
  timeoutMs: number;
  maxResponseBytes: number;
  /** The bytes all answers in parts being built may hold at once (default PARTS_MEMORY_BYTES, parts-budget.ts). */
  partsMemoryBytes?: number;
  /** Support users' reply texts (default: the built-in ones). */
  replyTemplates?: Record<string, ReplyTemplate>;
  /** The candidate page's decision fields and privacy-mask default, passed on in /api/meta. */
  display?: Pick<ApiMeta, 'summaryFields' | 'privacyMaskDefault'>;
  /** Who may look (default: local mode, everyone is a compliance user). */
  access?: AccessControl;
  /** Every lookup is recorded here before anything is answered: required, there is no lookup without its line. */
  audit: AuditLog;
  /** Each user's requests to the service under way at once (default 4; 0: no bound). */
  maxInFlightPerUser?: number;
  /** Refusals over the rate limit, counted per user and interval (default: over `audit`, a minute). */
  refusals?: RefusalLog;
  /** Lookups per minute per user (default: no limit). */
  rateLimiter?: RateLimiter;
  /** Ids per minute per user in batches, a budget of their own (default: no limit). */
  batchBudget?: RateLimiter;
  /** Lookups of one batch under way at once (default 8). */
  batchConcurrency?: number;
  /** Once an environment's key is seen to archive after extract: refuse its full lookups (default), or accept. */
  keyArchivesOnExtract?: 'refuse' | 'accept';
  /** Where that finding is kept, for every instance and the next start (default: in this handler only). */
  archivingFindings?: ArchivingFindings;
  /**
   * The server's log: warnings for the operator, unexpected errors, and a line per API request where no
   * app server writes them (the Vite plugin). Never an id, a key or candidate data (default: none).
   */
  logger?: Logger;
  /** Refuse requests that came through a proxy: local mode without sign-in (default: when `access` is not given). */
  refuseProxied?: boolean;
  /** Counted here (default: a registry of its own that nobody reads). */
  metrics?: Metrics;
  /** Reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (default: none). */
  trustedProxies?: readonly string[];
}

export type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next?: () => void) => void;

/** Enough to keep a batch of 500 well under 10 s, and gentle on the service. */
const BATCH_CONCURRENCY = 8;

/** What every environment's routes share: one sign-in, one set of counters, one refusal log. */
type Shared = { access: AccessControl; metrics: Metrics; refusals: RefusalLog };

export function createApiHandler(options: ApiHandlerOptions): Middleware {
  const shared: Shared = {
    access: options.access ?? createAccessControl({ mode: 'local', allowUnauthenticated: false }),
    metrics: options.metrics ?? createMetrics(),
    refusals: options.refusals ?? createRefusalLog(options.audit),
  };
  const { access } = shared;
  const refuseProxied = options.refuseProxied ?? options.access === undefined;
  const resolveClient = createClientResolver(options.trustedProxies ?? []);
  const routes = routeTable(options, serveEnvironments(options, shared), shared);

  return (req, res, next) => {
    // Before anything else, also for the static files served after this handler: who is asking, and how.
    noteClient(req, resolveClient);
    const path = rawPathOf(req);
    if (path !== API_PREFIX && !path.startsWith(`${API_PREFIX}/`)) {
      if (next) return next();
      return sendFailure(res, new ApiFailure('no_such_route', 'Not found.'));
    }
    setSecurityHeaders(req, res);
    requestIdOf(res);
    const started = performance.now();
    const found = findRoute(routes, path);
    setRoute(res, found ? routeLabel(found.route) : 'unknown');
    if (options.logger) startRequestLog(req, res, options.logger, () => bytesSent(res));
    const refused = refusalOf(req, { refuseProxied, navigation: found?.route.navigation === true });
    if (refused) return sendFailure(res, refused);
    const call: ApiCall = { req, res, params: found?.params ?? {}, started };
    const route = found?.route;
    settle(res, () => (route && !route.signedIn ? route.handle(call) : signedIn(route, call)));
  };

  /** Everything else needs a known user, and nothing reaches the upstream without one. */
  async function signedIn(route: Route | undefined, call: ApiCall): Promise<void> {
    const identity = await access.identify(call.req);
    if (!identity) throw new ApiFailure('unauthenticated', 'Sign in to look candidates up.');
    noteUser(call.res, identity.user);
    if (!route) throw new ApiFailure('no_such_route', `There is no API route ${API_PREFIX}/… of that name.`);
    if (route.signedIn) await route.handle({ ...call, identity });
  }
}

/** Each environment with what its lookups need, set up once. */
function serveEnvironments(options: ApiHandlerOptions, { access, metrics, refusals }: Shared): ServedEnvironment[] {
  const rateLimiter = options.rateLimiter ?? NO_RATE_LIMIT;
  const logger = options.logger ?? SILENT_LOGGER;
  const warn = (line: string) => logger.warn(line);
  // One bound per user across every environment: they share this server's connections.
  const upstreamSlots = createUpstreamSlots(options.maxInFlightPerUser ?? DEFAULT_MAX_IN_FLIGHT_PER_USER);
  // One bound for the whole process: every environment's answers share its memory.
  const partsBudget = createPartsBudget(options.partsMemoryBytes);
  return options.environments.map((environment) => ({
    environment,
    deps: {
      environment: environment.info.name,
      upstream: createUpstreamClient(environment.target, options),
      hasStatusKey: Boolean(environment.target.statusApiKey),
      access,
      rateLimiter,
      audit: options.audit,
      refusals,
      upstreamSlots,
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
      partsBudget,
      warn,
      // Per environment: each has its own key, which may or may not archive after extract.
      archiving: createArchivingGuard({
        accept: (environment.archiveOnExtract ?? options.keyArchivesOnExtract) === 'accept',
        warn,
        environment: environment.info,
        apiKey: environment.target.apiKey,
        findings: options.archivingFindings,
        maxResponseBytes: options.maxResponseBytes,
      }),
      metrics,
    },
  }));
}

/** Every route but the session's exists twice: for the default environment, and under /e/<name>. */
function inEnvironment(pattern: string, make: (pattern: string) => Route): Route[] {
  return [make(`${API_PREFIX}${pattern}`), make(`${API_PREFIX}/e/:env${pattern}`)];
}

/** A page of the applicants list, a batch or an export refused for its environment: audited as what it was. */
const REFUSED_AS: Record<'applicants' | 'batch' | 'export', RefusedAs> = {
  applicants: { what: 'request', limit: 'applicants', line: (env, call) => listLine(env, call, undefined) },
  batch: { what: 'batch', limit: 'batch', line: (env, call) => requestLine(env, call, 'batch') },
  export: { what: 'export', limit: 'export', line: (env, call) => requestLine(env, call, 'export') },
};

/** The route table: each line a path and what answers it. */
function routeTable(options: ApiHandlerOptions, served: ServedEnvironment[], { access, metrics }: Shared): Route[] {
  const batch: BatchDeps = {
    budget: options.batchBudget ?? NO_RATE_LIMIT,
    access,
    concurrency: options.batchConcurrency ?? BATCH_CONCURRENCY,
  };
  return [
    open(`${API_PREFIX}/session`, (call) => sessionRoute(access, metrics, call)),
    ...(access.routes ?? []),
    ...inEnvironment('/meta', (pattern) => get(pattern, (call) => metaRoute(options, served, call))),
    ...LOOKUP_KINDS.flatMap((kind) => [
      ...inEnvironment(`/candidates/${kind}/:id*`, (pattern) => get(pattern, lookupRoute(served, kind, false))),
      ...inEnvironment(`/status/${kind}/:id*`, (pattern) => get(pattern, lookupRoute(served, kind, true))),
    ]),
    ...inEnvironment('/applicants', (pattern) =>
      get(
        pattern,
        withEnvironment(served, (env, call) => listApplicants(env.deps, call), REFUSED_AS.applicants),
      ),
    ),
    ...inEnvironment('/batch', (pattern) =>
      any(
        pattern,
        withEnvironment(served, (env, call) => batchRoute(env.deps, batch, call), REFUSED_AS.batch),
      ),
    ),
    ...inEnvironment('/export', (pattern) =>
      any(
        pattern,
        withEnvironment(served, (env, call) => exportRoute(env, call), REFUSED_AS.export),
      ),
    ),
    ...inEnvironment('/candidates/:rest*', (pattern) =>
      any(pattern, () => {
        throw new ApiFailure('no_such_route', 'Look candidates up at /api/candidates/refId/<id> or /api/candidates/recordId/<id>.');
      }),
    ),
  ];
}

/** One lookup in the request's environment; refused for its environment, it is audited as the lookup it was. */
function lookupRoute(served: readonly ServedEnvironment[], kind: LookupKind, statusOnly: boolean) {
  return withEnvironment(served, (env, call) => lookup(env.deps, { ...call, kind, encodedId: call.params.id!, statusOnly }), {
    what: 'lookup',
    limit: 'lookup',
    line: (env, call) => lookupLine(env, call, kind, readId(call.params.id!).auditId),
  });
}

/** `/api/meta` in any environment, even one the user may not use: the answer says which ones they may. */
async function metaRoute(options: ApiHandlerOptions, served: readonly ServedEnvironment[], call: SignedInCall): Promise<void> {
  const resolved = resolveEnvironment(served, call.params.env, { ...call.identity, environments: undefined });
  if (!resolved.ok) return void sendFailure(call.res, resolved.failure);
  const meta = await metaFor(served, resolved.served, call.identity, options.replyTemplates ?? DEFAULT_REPLIES, options.display);
  sendJson(call.res, 200, JSON.stringify(meta));
}

function sessionRoute(access: AccessControl, metrics: Metrics, { req, res }: ApiCall): void | Promise<void> {
  return access.handleSession(
    req,
    (status, body, headers) => sendJson(res, status, JSON.stringify(body), headers),
    (failure) => {
      // Counted from the answer, whichever sign-in mode and store decided it.
      if (failure.code === 'sign_in_failed') metrics.signInFailures.inc();
      if (failure.code === 'too_many_sign_in_attempts') metrics.signInLocked.inc();
      sendFailure(res, failure);
    },
  );
}

/**
 * The one place a route's throw is answered (sendThrown): an ApiFailure as itself, anything else logged
 * and answered 500. A route that fails costs its own request only, never the process.
 */
function settle(res: http.ServerResponse, handle: () => void | Promise<void>): void {
  try {
    handle()?.catch((error: unknown) => sendThrown(res, error));
  } catch (error) {
    sendThrown(res, error);
  }
}
