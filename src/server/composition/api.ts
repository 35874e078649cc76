import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { type ArchivingFindings, findingsInDirectory, findingsInStore } from '../archiving/archiving-findings.ts';
import { createAccessControl } from '../auth/access.ts';
import type { AccessControl, AccessOptions } from '../auth/access-control.ts';
import { auditFileProblem, createAuditLog } from '../audit/audit.ts';
import { type AuditClaim, claimAuditFile } from '../audit/audit-claim.ts';
import { createRefusalLog } from '../audit/audit-refusals.ts';
import { type Config, ConfigError } from '../config/config.ts';
import { readUsersFile } from '../auth/users-file.ts';
import { type AuditVolume, auditLogCheck, auditVolume, type ReadinessCheck, sharedStoreCheck, upstreamHostCheck } from '../ops/health.ts';
import { createLogger, type Logger } from '../log/log.ts';
import type { SignInRefusalEvent } from '../auth/access-control.ts';
import { createMetrics, type Metrics, observeAuditLog } from '../ops/metrics.ts';
import { type ApiRuntime, createApiHandler, type Middleware } from './api-handler.ts';
import { settingsOf } from '../config/settings.ts';
import { deliveryIdsFor } from '../live/delivery-ids.ts';
import type { LiveHub } from '../live/live-hub.ts';
import { createRedisStore, describeRedisUrl } from '../state/redis-store.ts';
import { createMemoryQueueIndexStore } from '../state/queue-index-store.ts';
import { createRedisQueueIndexStore } from '../state/queue-index-redis.ts';
import { createMemoryStore, type SharedStore } from '../state/store.ts';
import { createRedisWaits } from '../upstream/service-wait-redis.ts';
import type { ResolvedUpstream } from './resolve-upstream.ts';
import { createLiveHub } from '../live/create-live-hub.ts';
import { createMemoryIntake } from '../live/delivery-intake.ts';
import { createRedisIntake, type RedisIntakeOptions } from '../live/delivery-intake-redis.ts';
import { createAuditStore, notifyingAuditLog } from '../trail/audit-store.ts';
import { describeDatabaseUrl } from '../state/postgres.ts';
import type { EventStreamOptions } from '../live/event-stream.ts';

export interface ConfiguredApi {
  handler: Middleware;
  /** What /readyz asks: the audit log takes lines, each environment's service host resolves, Redis answers. */
  checks: ReadinessCheck[];
  /** Sessions, sign-in failures and rate limits: in memory, or in Redis with REDIS_URL. */
  store: SharedStore;
  /** The audit log's filesystem, asked by /readyz and the free-space watch one question at a time. */
  auditVolume: AuditVolume;
  /** Live updates: the webhook receiver publishes here, the event streams subscribe (in Redis with REDIS_URL). */
  hub: LiveHub;
  /** Ends every event stream: called when the server stops, before it waits for requests to finish. */
  endStreams(): void;
  close(): Promise<void>;
}

/**
 * The API handler as configured: the same for the production server and the Vite plugin. `access`
 * tunes sign-in beyond the configuration (tests shorten the wait after a failed sign-in).
 */
export function createApiFromConfig(
  config: Config,
  upstream: ResolvedUpstream,
  options: {
    metrics?: Metrics;
    /**
     * The server's one log: warnings, unexpected errors, and a line per API request where no app server
     * writes them (default: stdout at warn level, for a caller that gave none).
     */
    logger?: Logger;
    access?: Omit<AccessOptions, 'store'>;
    /** Live updates' hub (default: from the configuration, through Redis with REDIS_URL); closed with the API. */
    hub?: LiveHub;
    eventStreams?: EventStreamOptions;
    /** The queue's crawlers (default: started; tests of something else keep them off). */
    queueCrawl?: ApiRuntime['queueCrawl'];
    /** Tests' timings: the webhook queue's in Redis (a dead instance's deliveries taken sooner), the live hub's clock (its replay's age). */
    webhookIntake?: RedisIntakeOptions;
    liveNow?: () => number;
  } = {},
): ConfiguredApi {
  checkUserEnvironments(config);
  if (config.defaultStateDir) mkdirSync(config.defaultStateDir, { recursive: true, mode: 0o700 });
  checkAuditLog(config.auditLog);
  const logger = options.logger ?? createLogger(undefined, 'warn');
  const claim = claimAuditLog(config.auditLog, logger);
  const store = createStoreFromConfig(config, logger);
  const metrics = options.metrics ?? createMetrics();
  const onSignInRefused = reportSignInRefusal(metrics, logger);
  const access = createAccessControl(config.auth, { ...options.access, store, onSignInRefused });
  warmUpSignIn(access, logger);
  const trail = trailFromConfig(config, logger);
  const audit = notifyingAuditLog(observeAuditLog(createAuditLog(config.auditLog), metrics), trail);
  // Counted refusals are written when their minute ends, and at the latest when the server stops.
  const refusals = createRefusalLog(audit);
  const hub = options.hub ?? createHubFromConfig(config, logger, options.liveNow);
  const queue = { ...queueFromConfig(config), ...(options.queueCrawl && { queueCrawl: options.queueCrawl }) };
  const streamsStop = new AbortController();
  const sharedWaits = sharedWaitsFromConfig(config, logger);
  const handler = createApiHandler(settingsOf(config), {
    environments: upstream.environments,
    access,
    audit,
    refusals,
    store,
    archivingFindings: archivingFindingsOf(config, store),
    metrics,
    logger,
    hub,
    eventStreams: { ...options.eventStreams, stop: streamsStop.signal },
    ...webhooksFromConfig(config, store, options.webhookIntake),
    ...queue,
    trail,
    ...(sharedWaits && { sharedWaits }),
  });
  const volume = auditVolume(audit);
  const checks = [
    auditLogCheck(config.auditLog, config.auditMinFreeBytes, audit, volume),
    ...upstream.environments.map((environment, index) =>
      upstreamHostCheck(environment.target.baseUrl, index === 0 ? 'upstreamHost' : `upstreamHost:${environment.info.name}`),
    ),
    ...(config.redisUrl ? [sharedStoreCheck(store)] : []),
  ];
  return {
    handler,
    checks,
    store,
    auditVolume: volume,
    hub,
    endStreams: () => streamsStop.abort(),
    // The counted refusals first, then every line still queued, before the file is closed.
    close: async () => {
      // The crawlers first: nothing more is asked of the service, nor written, once the log closes.
      await handler.close();
      await refusals.flush();
      await audit.close();
      await Promise.all([claim?.release(), store.close(), queue.queueIndex.close(), hub.close(), trail.close(), sharedWaits?.close()]);
    },
  };
}

/** What sign-in can check early (the OpenID provider's metadata) is checked at start; a failure is said, and each sign-in tries again. */
function warmUpSignIn(access: AccessControl, logger: Logger): void {
  access
    .warmUp?.()
    .catch((error: Error) =>
      logger.warn(`Sign-in: the OpenID provider could not be asked yet (${error.message}); each sign-in tries again.`),
    );
}

/** The audit trail as the app reads it: the table follows each line written (with DATABASE_URL), or the files are read. */
function trailFromConfig(config: Config, logger: Logger) {
  const { auditLog: file, auditInstance: instance, databaseUrl, auditRetentionDays: retentionDays } = config;
  return createAuditStore({ file, instance, databaseUrl, retentionDays, logger });
}

/**
 * The queue index: in Redis with REDIS_URL, shared by the instances, or in memory. Its crawlers' pace
 * and each user's queue views are settings (limits.queueIndexLookupsPerSecond, limits.queueViewsPerMinute).
 */
export function queueFromConfig(config: Pick<Config, 'redisUrl'>) {
  return { queueIndex: config.redisUrl ? createRedisQueueIndexStore(config.redisUrl) : createMemoryQueueIndexStore() };
}

/** A refused OpenID Connect sign-in: counted, and one warning with why and who (never a token or a code). */
function reportSignInRefusal(metrics: Metrics, logger: Logger) {
  return ({ reason, detail, user, subject }: SignInRefusalEvent) => {
    metrics.oidcSignInRefusals.inc({ reason });
    const who = user ?? subject;
    const text = `OpenID Connect sign-in refused (${reason})${who ? ` for ${who}` : ''}: ${detail}`;
    logger.warn({ event: 'oidc_sign_in_refused', reason, ...(user ? { user } : {}), ...(subject ? { subject } : {}), detail }, text);
  };
}

/**
 * The webhook deliveries already taken (delivery-ids.ts), and the queue of those accepted: with Redis it
 * outlives this process, and every instance takes from it (delivery-intake-redis.ts).
 */
function webhooksFromConfig(config: Config, store: SharedStore, options: RedisIntakeOptions | undefined) {
  return {
    deliveryIds: deliveryIdsFor(store),
    webhookIntake: config.redisUrl ? createRedisIntake(config.redisUrl, options) : createMemoryIntake(),
  };
}

/**
 * Live updates through Redis pub/sub with REDIS_URL, so that a delivery to one instance reaches the pages
 * of all, and the replay for reconnecting pages is in Redis, shared by all.
 */
function createHubFromConfig(config: Config, logger: Logger, now?: () => number): LiveHub {
  return createLiveHub({
    redisUrl: config.redisUrl,
    ...(now ? { now } : {}),
    onBadMessage: (detail) => logger.warn(`Live updates: ${detail}; it was ignored.`),
  });
}

/** With REDIS_URL, the service's wait (its 429) told to one instance holds on every instance (upstream/service-wait-redis.ts). */
function sharedWaitsFromConfig(config: Config, logger: Logger) {
  if (!config.redisUrl) return undefined;
  return createRedisWaits(config.redisUrl, { onBadMessage: (detail) => logger.warn(`The KYC service's wait: ${detail}; it was ignored.`) });
}

function createStoreFromConfig(config: Config, logger: Logger): SharedStore {
  if (!config.redisUrl) return createMemoryStore();
  const where = describeRedisUrl(config.redisUrl);
  return createRedisStore(config.redisUrl, {
    onStateChange: (state, detail) =>
      logger.warn(
        state === 'down'
          ? `Redis at ${where} is unreachable (${detail}): sign-in and lookups answer 503 store_unavailable until it is back.`
          : `Redis at ${where} is reachable again: sign-in and lookups resume.`,
      ),
  });
}

/**
 * A key seen to archive after extract is remembered for every instance (in Redis), or across restarts
 * without Redis (a file per finding in the audit log's directory, which the server must be able to write).
 */
function archivingFindingsOf(config: Config, store: SharedStore): ArchivingFindings {
  if (config.redisUrl) return findingsInStore(store, (name) => `Redis (key "${name}" under the prefix candidate-lookup:)`);
  return findingsInDirectory(path.dirname(path.resolve(config.auditLog)));
}

export function describeSharedState(config: Config): string {
  return config.redisUrl
    ? `Shared state: sessions, sign-in locks and rate limits in Redis at ${describeRedisUrl(config.redisUrl)}.`
    : 'Shared state: in this process (sessions end at restart; set REDIS_URL to share them between instances).';
}

/** Where the server writes what it keeps: said at start, so that nobody has to guess (and the default is a directory of its own). */
export function describeState(config: Config): string {
  const audit = path.resolve(config.auditLog);
  const findings = config.redisUrl ? '' : ', archive-after-extract findings beside it';
  const table = config.databaseUrl
    ? ` Audit table: PostgreSQL at ${describeDatabaseUrl(config.databaseUrl)}, this instance as "${config.auditInstance}", ${config.auditRetentionDays} days.`
    : '';
  return config.defaultStateDir
    ? `State: audit log ${audit}${findings} (AUDIT_LOG not set: the default directory ${path.resolve(config.defaultStateDir)}, made if missing).${table}`
    : `State: audit log ${audit}${findings}.${table}`;
}

export function describeAccess(config: Config): string {
  switch (config.auth.mode) {
    case 'local':
      return config.auth.allowUnauthenticated
        ? 'Sign-in: none (signIn.allowUnauthenticated): whoever reaches this server reads candidates.'
        : 'Sign-in: none (local mode, loopback only).';
    case 'users':
      return `Sign-in: built-in users from ${config.auth.usersFile}.`;
    case 'proxy':
      return `Sign-in: identity-aware proxy (headers ${config.auth.userHeader} and ${config.auth.roleHeader}, trusted from ${config.auth.trusted.join(', ')}).`;
    case 'oidc':
      return `Sign-in: OpenID Connect at ${config.auth.oidc.issuer} (role from the ${config.auth.oidc.roleClaim} claim).`;
  }
}

/** An audit log that cannot be written would refuse every lookup: better said once, at start. */
function checkAuditLog(file: string): void {
  const problem = auditFileProblem(file);
  if (problem === undefined) return;
  throw new ConfigError(
    `AUDIT_LOG=${file} cannot be written (${problem}): every lookup would be refused.\n` +
      '  Point AUDIT_LOG at a file this server may create and append to.',
  );
}

/**
 * One writer per audit file (audit-claim.ts): a second instance on the same AUDIT_LOG refuses to start.
 * A pipe or a terminal has no chain to break, and cannot have a claim file beside it (/dev).
 */
function claimAuditLog(file: string, logger: Logger): AuditClaim | undefined {
  if (!statSync(file).isFile()) return undefined;
  const claim = claimAuditFile(file, (message) => logger.error(message));
  if ('refused' in claim) throw new ConfigError(claim.refused);
  if ('unclaimed' in claim) {
    logger.warn({ event: 'audit_unclaimed' }, claim.unclaimed);
    return undefined;
  }
  return claim;
}

/** A user limited to an environment that does not exist is a mistake to name at start, not a silent lockout. */
function checkUserEnvironments(config: Config): void {
  if (config.auth.mode !== 'users') return;
  const names = new Set(config.environments.map((environment) => environment.name));
  for (const user of readUsersFile(config.auth.usersFile).users) {
    const unknown = (user.environments ?? []).filter((name) => !names.has(name));
    if (unknown.length > 0) {
      throw new ConfigError(
        `signIn.usersFile: user "${user.username}" may use environment ${unknown.map((n) => `"${n}"`).join(', ')}, which this server does not have (it has ${[...names].join(', ')}).`,
      );
    }
  }
}
