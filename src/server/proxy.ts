import type http from 'node:http';
import { API_PREFIX, type ApiMeta } from '../kyc/contract/api.ts';
import { DEFAULT_REPLIES, type ReplyTemplate } from '../kyc/contract/replies.ts';
import { type ApiEnvironment, environmentRoutes, type ServedEnvironment } from './api-environments.ts';
import { environmentTable, lastRoutes, openRoutes } from './api-routes.ts';
import { sandboxRoutes } from './sandbox/simulate-route.ts';
import type { ArchivingFindings } from './archiving/archiving-findings.ts';
import type { AuditLog } from './audit/audit.ts';
import { createRefusalLog, type RefusalLog } from './audit/audit-refusals.ts';
import { createAccessControl } from './auth/access.ts';
import type { AccessControl } from './auth/access-control.ts';
import { ApiFailure } from './http/api-failure.ts';
import { createClientResolver, noteClient } from './http/client.ts';
import { noteSignedIn } from './http/connection-guard.ts';
import { bytesSent, rawPathOf, sendFailure, sendThrown } from './http/http-reply.ts';
import { refusalOf } from './http/request-guard.ts';
import type { BatchClock } from './lookup/batch-runner.ts';
import { type ApiCall, findRoute, type Route, routeLabel } from './http/routes.ts';
import { setSecurityHeaders } from './http/security-headers.ts';
import { deliveryIdsInMemory, type DeliveryIds } from './live/delivery-ids.ts';
import type { LiveHub, Revocation } from './live/live-hub.ts';
import { createWebhookReceiver, isWebhookPath } from './live/webhook-receiver.ts';
import { webhookChecks } from './live/delivery-check.ts';
import { createLogger, type Logger, noteUser, requestIdOf, setRoute, startRequestLog } from './log/log.ts';
import { type Crawling, type QueueHandlerOptions, queueWiring, withCrawlers } from './api-queue.ts';
import { createMetrics, type Metrics } from './ops/metrics.ts';
import { NO_RATE_LIMIT, type RateLimiter } from './ops/rate-limit.ts';
import { serveEnvironments } from './serve-environments.ts';
import type { SharedWaits } from './upstream/service-wait.ts';
import { DEFAULT_MAX_IN_FLIGHT_PER_USER } from './upstream/upstream-slots.ts';
import { DEFAULT_PREVIEW_LOOKUPS } from './answer/picture-preview.ts';
import { createLiveHub } from './live/create-live-hub.ts';
import { createEventStreams, type EventStreamOptions } from './live/event-stream.ts';
import { createPresence, type PresenceOptions } from './live/presence.ts';
import { localPresenceChannel } from './live/presence-message.ts';
import { auditRoutes } from './trail/audit-routes.ts';
import type { AuditStore } from './trail/audit-store.ts';

/**
 * The key-holding proxy: one connect-style handler for `/api/*`, mounted by the Vite plugin in
 * development and by the production server. Setup happens once here; each route is a line of the table.
 */
export interface ApiHandlerOptions extends QueueHandlerOptions {
  /** Where lookups go; the first is the default, the others are reached under `/api/e/<name>/…`. */
  environments: ApiEnvironment[];
  timeoutMs: number;
  /** A browser that reads nothing of an answer in parts is cut off after this (default `timeoutMs`; tests make it short). */
  browserStallMs?: number;
  maxResponseBytes: number;
  /** The bytes all answers in parts being built may hold at once (default PARTS_MEMORY_BYTES, parts-budget.ts). */
  partsMemoryBytes?: number;
  /** Lookups whose pictures are reduced to previews at once (default 4; 0: no previews). */
  previewLookupsAtOnce?: number;
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
  /**
   * The clock of the waits the service asks for (its 429): each environment's upstream client keeps the
   * wait on it, and batches and the queue's filler wait by it (default: real time; tests give one that does not wait).
   */
  pauseClock?: BatchClock;
  /** Each environment's wait shared by every instance (Redis, with REDIS_URL; default: this handler's alone). */
  sharedWaits?: SharedWaits;
  /** Once an environment's key is seen to archive after extract: refuse its full lookups (default), or accept. */
  keyArchivesOnExtract?: 'refuse' | 'accept';
  /** Where that finding is kept, for every instance and the next start (default: in this handler only). */
  archivingFindings?: ArchivingFindings;
  /**
   * The server's log, where no app server started one for the request (the Vite plugin): a line per API
   * request, and under it the request's warnings and unexpected errors, each with its id (log.ts's
   * requestLog). Never an id, a key or candidate data (default: none).
   */
  logger?: Logger;
  /** Refuse requests that came through a proxy: local mode without sign-in (default: when `access` is not given). */
  refuseProxied?: boolean;
  /** Counted here (default: a registry of its own that nobody reads). */
  metrics?: Metrics;
  /** Reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (default: none). */
  trustedProxies?: readonly string[];
  /** Where accepted webhook deliveries meet the event streams (default: one of this handler's own, in memory). */
  hub?: LiveHub;
  /** The event streams' heartbeat, per-user cap and send buffer (default: event-stream.ts's). */
  eventStreams?: EventStreamOptions;
  /** Presence's clock and expiry (default: presence.ts's). */
  presence?: PresenceOptions;
  /** Webhook deliveries accepted, by guid, for 24 h (default: in this handler). */
  deliveryIds?: DeliveryIds;
  /** Webhook deliveries per sending address (default: no limit). */
  webhookRateLimiter?: RateLimiter;
  /** A webhook delivery's body is read within this (default 5 s). */
  webhookBodyTimeoutMs?: number;
  /** The audit trail as the app reads it: the audit page and a candidate's Activity (default: neither route). */
  trail?: AuditStore;
}

export type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next?: () => void) => void;

/** The handler, and what it started that must stop with it: the queue's crawlers (api-queue.ts). */
export type ApiHandler = Middleware & Crawling;

/** Enough to keep a batch of 500 well under 10 s, and gentle on the service. */
const BATCH_CONCURRENCY = 8;

/** What each environment's lookups are wired with: the handler's limits and its shared parts. */
function wiringOf(
  options: ApiHandlerOptions,
  shared: Pick<Parameters<typeof serveEnvironments>[1], 'access' | 'metrics'>,
): Parameters<typeof serveEnvironments>[1] {
  return {
    refusals: options.refusals ?? createRefusalLog(options.audit),
    timeoutMs: options.timeoutMs,
    browserStallMs: options.browserStallMs,
    maxResponseBytes: options.maxResponseBytes,
    partsMemoryBytes: options.partsMemoryBytes,
    previewLookupsAtOnce: options.previewLookupsAtOnce ?? DEFAULT_PREVIEW_LOOKUPS,
    maxInFlightPerUser: options.maxInFlightPerUser ?? DEFAULT_MAX_IN_FLIGHT_PER_USER,
    keyArchivesOnExtract: options.keyArchivesOnExtract,
    archivingFindings: options.archivingFindings,
    rateLimiter: options.rateLimiter ?? NO_RATE_LIMIT,
    audit: options.audit,
    ...(options.pauseClock ? { now: options.pauseClock.now } : {}),
    ...(options.sharedWaits ? { sharedWaits: options.sharedWaits } : {}),
    queue: queueWiring(options, shared.metrics),
    ...shared,
  };
}

/** What every environment's routes share: the batch's budget and pace, the reply texts, the display defaults. */
function tableOptions(options: ApiHandlerOptions, access: AccessControl): Parameters<typeof environmentTable>[0] {
  return {
    batch: {
      budget: options.batchBudget ?? NO_RATE_LIMIT,
      access,
      concurrency: options.batchConcurrency ?? BATCH_CONCURRENCY,
      ...(options.pauseClock ? { clock: options.pauseClock } : {}),
    },
    replyTemplates: options.replyTemplates ?? DEFAULT_REPLIES,
    display: options.display,
    ...(options.trail ? { trail: options.trail } : {}),
  };
}

export function createApiHandler(options: ApiHandlerOptions): ApiHandler {
  const access = options.access ?? createAccessControl({ mode: 'local', allowUnauthenticated: false });
  const metrics = options.metrics ?? createMetrics();
  // What the environments are wired with, read from the options at once, before anything is built of them.
  const settings = tableOptions(options, access);
  const wiring = wiringOf(options, { access, metrics });
  const served = serveEnvironments(options.environments, wiring);
  const table = environmentTable(settings);
  const hub = options.hub ?? createLiveHub();
  const names = options.environments.map((environment) => environment.info.name);
  const presence = createPresence(hub.presence ?? localPresenceChannel(), names, options.presence);
  const events = createEventStreams(hub, access, metrics, options.eventStreams, presence);
  const revoke = revocationsTo(hub, options.logger);
  const stopWatching = access.onUsersChanged?.((users) => revoke({ kind: 'users', users: [...users] }));
  options.eventStreams?.stop?.addEventListener(
    'abort',
    () => {
      stopWatching?.();
      presence.close();
    },
    { once: true },
  );
  const simulate = options.environments.find((environment) => environment.simulate)?.simulate;
  const routes = [
    ...openRoutes({ access, metrics, onSignOut: () => revoke({ kind: 'sign-out' }) }),
    events.route,
    presence.route,
    ...sandboxRoutes(simulate),
    ...(options.trail ? auditRoutes({ store: options.trail, audit: options.audit }) : []),
    ...environmentRoutes(served, table),
    ...lastRoutes(),
  ];
  const refuseProxied = options.refuseProxied ?? options.access === undefined;
  const resolveClient = createClientResolver(options.trustedProxies ?? []);
  const receiveWebhook = webhookReceiverOf(options, { hub, refusals: wiring.refusals, metrics, queue: wiring.queue, served });

  const handler: Middleware = (req, res, next) => {
    // Before anything else, also for the static files served after this handler: who is asking, and how.
    noteClient(req, resolveClient);
    const path = rawPathOf(req);
    if (isWebhookPath(path)) return receiveWebhook(req, res, path);
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
    const route = found?.route;
    const refused = refusalOf(req, {
      refuseProxied,
      navigation: route?.navigation === true,
      eventStream: route?.signedIn && route.eventStream,
    });
    if (refused) return sendFailure(res, refused);
    const call: ApiCall = { req, res, params: found?.params ?? {}, started };
    settle(res, () => (route && !route.signedIn ? route.handle(call) : signedIn(route, call)));
  };
  return withCrawlers(handler, served, options.queueCrawl?.start !== false);

  /** Everything else needs a known user, and nothing reaches the upstream without one. */
  async function signedIn(route: Route | undefined, call: ApiCall): Promise<void> {
    const identity = await access.identify(call.req);
    if (!identity) throw new ApiFailure('unauthenticated', 'Sign in to look candidates up.');
    // Someone known: this connection no longer counts against the caps on anonymous ones.
    noteSignedIn(call.req);
    noteUser(call.res, identity.user);
    if (!route) throw new ApiFailure('no_such_route', `There is no API route ${API_PREFIX}/… of that name.`);
    if (route.signedIn) await route.handle({ ...call, identity });
  }
}

/** The webhook receiver (issue 22), beside the API: the service's deliveries, each passed on to the hub. */
function webhookReceiverOf(
  options: ApiHandlerOptions,
  shared: {
    hub: LiveHub;
    refusals: RefusalLog;
    metrics: Metrics;
    queue: ReturnType<typeof wiringOf>['queue'];
    served: readonly ServedEnvironment[];
  },
): ReturnType<typeof createWebhookReceiver> {
  return createWebhookReceiver({
    environments: options.environments,
    hub: shared.hub,
    deliveryIds: options.deliveryIds ?? deliveryIdsInMemory(),
    rateLimiter: options.webhookRateLimiter ?? NO_RATE_LIMIT,
    ...(options.webhookBodyTimeoutMs === undefined ? {} : { bodyTimeoutMs: options.webhookBodyTimeoutMs }),
    audit: options.audit,
    refusals: shared.refusals,
    metrics: shared.metrics,
    queueIndex: shared.queue.index,
    checkStatus: webhookChecks(shared.served, options.logger ?? createLogger(undefined, 'warn')),
    ...(options.logger ? { logger: options.logger } : {}),
  });
}

/**
 * Sessions that ended, told to the event streams of every instance (live-hub.ts). This instance's
 * close at once, whatever Redis does; when Redis cannot be reached, the others find out by themselves.
 */
function revocationsTo(hub: LiveHub, logger: Logger | undefined): (revocation: Revocation) => void {
  return (revocation) =>
    void hub.revoke(revocation).catch(() => {
      const what = revocation.kind === 'users' ? 'users changed in the users file' : 'a sign-out';
      logger?.warn(
        `Live updates: the other instances could not be told of ${what} (Redis unreachable); they close those streams at their own next look.`,
      );
    });
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
