import type http from 'node:http';
import { API_PREFIX } from '../../kyc/contract/api.ts';
import { environmentRoutes } from './api-environments.ts';
import type { ApiEnvironment, ServedEnvironment } from '../lookup/served-environment.ts';
import { environmentTable, lastRoutes, openRoutes } from './api-routes.ts';
import { sandboxRoutes } from '../sandbox/simulate-route.ts';
import type { ArchivingFindings } from '../archiving/archiving-findings.ts';
import type { AuditLog } from '../audit/audit.ts';
import { createRefusalLog, type RefusalLog } from '../audit/audit-refusals.ts';
import { createAccessControl } from '../auth/access.ts';
import { type AccessControl, identifyCall } from '../auth/access-control.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { createClientResolver, noteClient } from '../http/client.ts';
import { bytesSent, rawPathOf, sendFailure, sendThrown } from '../http/http-reply.ts';
import { refusalOf } from '../http/request-guard.ts';
import type { BatchClock } from '../lookup/batch-runner.ts';
import { openedCandidatesFor } from '../lookup/opened-candidates.ts';
import { type ApiCall, findRoute, type Route, routeLabel, type SignedInCall } from '../http/routes.ts';
import { setSecurityHeaders } from '../http/security-headers.ts';
import { deliveryIdsInMemory, type DeliveryIds } from '../live/delivery-ids.ts';
import type { LiveHub } from '../live/live-hub.ts';
import { revocationsTo } from '../live/revocations.ts';
import { createWebhookReceiver, isWebhookPath } from '../live/webhook-receiver.ts';
import { webhookChecks } from '../live/delivery-check.ts';
import { closingIntake, createMemoryIntake, type DeliveryIntake } from '../live/delivery-intake.ts';
import { deliveryProcessor, type ProcessingDeps, reportDropped } from '../live/delivery-processing.ts';
import { createLogger, type Logger, noteUser, requestIdOf, setRoute, startRequestLog } from '../log/log.ts';
import { type Crawling, type QueueRuntime, queueWiring, withCrawlers } from './api-queue.ts';
import { createMetrics, type Metrics } from '../ops/metrics.ts';
import { createRateLimiter } from '../ops/rate-limit.ts';
import { capOpenRequests } from '../ops/open-requests.ts';
import { type EnvironmentWiring, serveEnvironments } from './serve-environments.ts';
import type { ApiSettings } from '../config/settings.ts';
import { createMemoryStore, type SharedStore } from '../state/store.ts';
import { createLiveHub } from '../live/create-live-hub.ts';
import { createEventStreams, type EventStreamOptions } from '../live/event-stream.ts';
import { createPresence, PRESENCE_ANNOUNCEMENTS_PER_MINUTE, type PresenceOptions } from '../live/presence.ts';
import { localPresenceChannel } from '../live/presence-message.ts';
import { sameCandidateIn } from '../trail/same-candidate.ts';
import { activityOf, trailRoutes } from './trail-wiring.ts';
import type { AuditStore } from '../trail/audit-store.ts';
import type { SharedWaits } from '../upstream/service-wait.ts';

/**
 * The key-holding proxy: one connect-style handler for `/api/*`, mounted by the Vite plugin in
 * development and by the production server. Setup happens once here; each route is a line of the table.
 * It is set with its settings (config/settings.ts: data, every field resolved) and given its runtime:
 * the services it uses, each built by the caller or, where a test has no use for one, in this handler.
 */
export interface ApiRuntime extends QueueRuntime {
  /** Where lookups go; the first is the default, the others are reached under `/api/e/<name>/…`. */
  environments: ApiEnvironment[];
  /** Every lookup is recorded here before anything is answered: required, there is no lookup without its line. */
  audit: AuditLog;
  /** Who may look (default: local mode, everyone is a compliance user). */
  access?: AccessControl;
  /** The rate limits' counters, each limit a bucket of its own (default: in this handler's memory). */
  store?: SharedStore;
  /** Refusals over the rate limit, counted per user and interval (default: over `audit`, a minute). */
  refusals?: RefusalLog;
  /**
   * The clock of the waits the service asks for (its 429): each environment's upstream client keeps the
   * wait on it, and batches and the queue's filler wait by it (default: real time; tests give one that does not wait).
   */
  pauseClock?: BatchClock;
  /** Each environment's wait shared by every instance (Redis, with REDIS_URL; default: this handler's alone). */
  sharedWaits?: SharedWaits;
  /** Where an archive-after-extract finding is kept, for every instance and the next start (default: in this handler only). */
  archivingFindings?: ArchivingFindings;
  /**
   * The server's log, where no app server started one for the request (the Vite plugin): a line per API
   * request, and under it the request's warnings and unexpected errors, each with its id (log.ts's
   * requestLog). Never an id, a key or candidate data (default: none).
   */
  logger?: Logger;
  /** Counted here (default: a registry of its own that nobody reads). */
  metrics?: Metrics;
  /** Where accepted webhook deliveries meet the event streams (default: one of this handler's own, in memory). */
  hub?: LiveHub;
  /** The event streams' heartbeat, per-user cap and send buffer (default: event-stream.ts's). */
  eventStreams?: EventStreamOptions;
  /** Presence's clock, expiry, rounds and announcement limit (default: presence.ts's). */
  presence?: PresenceOptions;
  /** Webhook deliveries accepted, by guid, for 24 h (default: in this handler). */
  deliveryIds?: DeliveryIds;
  /** Where accepted deliveries wait to be processed (default: a queue in this handler); closed with it. */
  webhookIntake?: DeliveryIntake;
  /** The waits before each new try of a delivery's check that failed for a passing reason (default: delivery-processing.ts's). */
  webhookRetryDelaysMs?: ProcessingDeps['retryDelaysMs'];
  /** The audit trail as the app reads it: the audit page and a candidate's Activity (default: neither route). */
  trail?: AuditStore;
}

export type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next?: () => void) => void;

/** The handler, and what it started that must stop with it: the queue's crawlers (api-queue.ts). */
export type ApiHandler = Middleware & Crawling;

/** What the handler's parts share: who may look, the counters, the rate limits' store. */
interface Shared {
  access: AccessControl;
  metrics: Metrics;
  store: SharedStore;
}

/** What each environment's lookups are wired with: the handler's services and its shared parts. */
function wiringOf(settings: ApiSettings, runtime: ApiRuntime, shared: Shared): EnvironmentWiring {
  return {
    access: shared.access,
    metrics: shared.metrics,
    refusals: runtime.refusals ?? createRefusalLog(runtime.audit),
    archivingFindings: runtime.archivingFindings,
    rateLimiter: createRateLimiter(shared.store, 'lookups', settings.limits.lookupsPerMinute),
    audit: runtime.audit,
    ...(runtime.pauseClock ? { now: runtime.pauseClock.now } : {}),
    queue: queueWiring(runtime, settings, shared),
    ...(runtime.sharedWaits ? { sharedWaits: runtime.sharedWaits } : {}),
    opened: openedCandidatesFor(shared.store, settings.limits.exportAfterLookupMinutes * 60_000, runtime.environments),
  };
}

/** What every environment's routes share: the batch's budget and pace, the reply texts, the display defaults. */
function tableOptions(settings: ApiSettings, runtime: ApiRuntime, shared: Shared): Parameters<typeof environmentTable>[0] {
  return {
    batch: {
      budget: createRateLimiter(shared.store, 'batch-ids', settings.limits.batchIdsPerMinute),
      refunds: createRateLimiter(shared.store, 'batch-refunds', settings.limits.batchIdsPerMinute > 0 ? 1 : 0),
      access: shared.access,
      concurrency: settings.batchConcurrency,
      ...(runtime.pauseClock ? { clock: runtime.pauseClock } : {}),
    },
    replyTemplates: settings.replyTemplates,
    display: settings.display,
    ...(runtime.trail ? { trail: activityOf(settings, runtime.trail, shared) } : {}),
  };
}

/** The shared parts, each the runtime's or, where it gives none, this handler's own. */
function sharedOf(runtime: ApiRuntime): Shared {
  return {
    access: runtime.access ?? createAccessControl({ mode: 'local', allowUnauthenticated: false }),
    metrics: runtime.metrics ?? createMetrics(),
    store: runtime.store ?? createMemoryStore(),
  };
}

/**
 * Each environment served, with its lookups' dependencies, and what they were wired with: built once, at
 * start. The settings go to every environment's LookupDeps whole, never copied field by field.
 */
export function wireEnvironments(settings: ApiSettings, runtime: ApiRuntime, shared: Shared = sharedOf(runtime)) {
  const wiring = wiringOf(settings, runtime, shared);
  return { wiring, served: serveEnvironments(runtime.environments, settings, wiring) };
}

/** Presence, shared through the hub; each user's announcements limited in the shared store. */
function presenceOf(hub: LiveHub, runtime: ApiRuntime, { access, metrics, store }: Shared) {
  const limiter = createRateLimiter(store, 'presence', runtime.presence?.announcementsPerMinute ?? PRESENCE_ANNOUNCEMENTS_PER_MINUTE);
  const keyOf = (call: SignedInCall) => access.rateLimitKey(call.req, call.identity);
  return createPresence(hub.presence ?? localPresenceChannel(), runtime.environments, runtime.presence, { limiter, keyOf, metrics });
}

export function createApiHandler(settings: ApiSettings, runtime: ApiRuntime): ApiHandler {
  const shared = sharedOf(runtime);
  const { access, metrics } = shared;
  const { wiring, served } = wireEnvironments(settings, runtime, shared);
  const table = environmentTable(tableOptions(settings, runtime, shared));
  const hub = runtime.hub ?? createLiveHub();
  const names = runtime.environments.map((environment) => environment.info.name);
  const presence = presenceOf(hub, runtime, shared);
  const events = createEventStreams(hub, access, metrics, runtime.eventStreams, presence);
  const revoke = revocationsTo(hub, runtime.logger);
  const stopWatching = access.onUsersChanged?.((users) => revoke({ kind: 'users', users: [...users] }));
  runtime.eventStreams?.stop?.addEventListener(
    'abort',
    () => {
      stopWatching?.();
      presence.close();
    },
    { once: true },
  );
  const simulate = runtime.environments.find((environment) => environment.simulate)?.simulate;
  const routes = [
    ...openRoutes({ access, metrics, onSignOut: () => revoke({ kind: 'sign-out' }) }),
    events.route,
    presence.route,
    ...sandboxRoutes(simulate),
    ...(runtime.trail ? trailRoutes(settings, runtime.trail, runtime.audit, shared, sameCandidateIn(wiring.queue.index.store, names)) : []),
    ...environmentRoutes(served, table),
    ...lastRoutes(),
  ];
  const { refuseProxied, limits } = settings;
  const resolveClient = createClientResolver(settings.trustedProxies);
  const openRequests = capOpenRequests(limits.openRequestsPerUser, (call) => access.rateLimitKey(call.req, call.identity), metrics);
  const webhook = webhookReceiverOf(settings, runtime, { ...shared, hub, refusals: wiring.refusals, queue: wiring.queue, served });

  const handler: Middleware = (req, res, next) => {
    // Before anything else, also for the static files served after this handler: who is asking, and how.
    noteClient(req, resolveClient);
    const path = rawPathOf(req);
    if (isWebhookPath(path)) return webhook.receive(req, res, path);
    if (path !== API_PREFIX && !path.startsWith(`${API_PREFIX}/`)) {
      if (next) return next();
      return sendFailure(res, new ApiFailure('no_such_route', 'Not found.'));
    }
    setSecurityHeaders(req, res);
    requestIdOf(res);
    const started = performance.now();
    const found = findRoute(routes, path);
    setRoute(res, found ? routeLabel(found.route) : 'unknown');
    if (runtime.logger) startRequestLog(req, res, runtime.logger, () => bytesSent(res));
    const route = found?.route;
    const refused = refusalOf(req, {
      refuseProxied,
      navigation: route?.navigation === true,
      eventStream: route?.signedIn && route.eventStream,
    });
    if (refused) return sendFailure(res, refused);
    const call: ApiCall = { req, res, params: found?.params ?? {}, started, bodyTimeoutMs: limits.apiBodyTimeoutMs };
    settle(res, () => (route && !route.signedIn ? route.handle(call) : signedIn(route, call)));
  };
  return closingIntake(withCrawlers(handler, served, runtime.queueCrawl?.start !== false), webhook.intake);

  /** Everything else needs a known user, and nothing reaches the upstream without one. */
  async function signedIn(route: Route | undefined, call: ApiCall): Promise<void> {
    const { identity, identityFromCache } = await identifyCall(access, route, call.req);
    if (!identity) throw new ApiFailure('unauthenticated', 'Sign in to look candidates up.');
    noteUser(call.res, identity.user);
    // Someone known: the connection leaves the caps on anonymous ones for this user's cap on open requests.
    openRequests.admit({ ...call, identity });
    if (!route) throw new ApiFailure('no_such_route', `There is no API route ${API_PREFIX}/… of that name.`);
    if (route.signedIn) await route.handle({ ...call, identity, ...(identityFromCache ? { identityFromCache } : {}) });
  }
}

/**
 * The webhook receiver (issue 22), beside the API: the service's deliveries, each queued (issue 32),
 * then confirmed and passed on to the hub by the queue's consumer, which starts here.
 */
function webhookReceiverOf(
  settings: ApiSettings,
  runtime: ApiRuntime,
  shared: Shared & { hub: LiveHub; refusals: RefusalLog; queue: EnvironmentWiring['queue']; served: readonly ServedEnvironment[] },
): { receive: ReturnType<typeof createWebhookReceiver>; intake: DeliveryIntake } {
  const intake = runtime.webhookIntake ?? createMemoryIntake();
  const logger = runtime.logger ?? createLogger(undefined, 'warn');
  const processing: ProcessingDeps = {
    hub: shared.hub,
    queueIndex: shared.queue.index,
    checkStatus: webhookChecks(shared.served, logger),
    metrics: shared.metrics,
    logger,
    ...(runtime.webhookRetryDelaysMs ? { retryDelaysMs: runtime.webhookRetryDelaysMs } : {}),
  };
  intake.start(deliveryProcessor(processing), reportDropped(shared.metrics, logger));
  const receive = createWebhookReceiver({
    environments: runtime.environments,
    intake,
    deliveryIds: runtime.deliveryIds ?? deliveryIdsInMemory(),
    rateLimiter: createRateLimiter(shared.store, 'webhooks', settings.limits.webhookDeliveriesPerMinute),
    bodyTimeoutMs: settings.limits.webhookBodyTimeoutMs,
    audit: runtime.audit,
    refusals: shared.refusals,
    metrics: shared.metrics,
    ...(runtime.logger ? { logger: runtime.logger } : {}),
  });
  return { receive, intake };
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
