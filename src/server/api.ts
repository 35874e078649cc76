import { createAccessControl } from './auth/access.ts';
import { createAuditLog } from './audit.ts';
import { type Config, ConfigError } from './config.ts';
import { readUsersFile } from './auth/users-file.ts';
import { auditLogCheck, type ReadinessCheck, upstreamHostCheck } from './health.ts';
import type { RequestRecord } from './log.ts';
import { createMetrics, type Metrics, observeAuditLog } from './metrics.ts';
import { createApiHandler, type Middleware } from './proxy.ts';
import { RateLimiter } from './rate-limit.ts';
import type { ResolvedUpstream } from './upstream.ts';

export interface ConfiguredApi {
  handler: Middleware;
  /** What /readyz asks: the audit log takes lines, each environment's service host resolves. */
  checks: ReadinessCheck[];
}

/** The API handler as configured: the same for the production server and the Vite plugin. */
export function createApiFromConfig(
  config: Config,
  upstream: ResolvedUpstream,
  options: { metrics?: Metrics; log?: (record: RequestRecord) => void; warn?: (line: string) => void } = {},
): ConfiguredApi {
  checkUserEnvironments(config);
  const metrics = options.metrics ?? createMetrics();
  const audit = observeAuditLog(createAuditLog(config.auditLog), metrics);
  const handler = createApiHandler({
    environments: upstream.environments,
    timeoutMs: config.timeoutMs,
    maxResponseBytes: config.maxResponseBytes,
    replyTemplates: config.replyTemplates,
    access: createAccessControl(config.auth),
    audit,
    rateLimiter: new RateLimiter(config.rateLimitPerMinute),
    batchBudget: new RateLimiter(config.rateLimitBatchPerMinute),
    keyArchivesOnExtract: config.keyArchivesOnExtract,
    refuseProxied: config.auth.mode === 'local' && !config.auth.allowUnauthenticated,
    metrics,
    ...(options.log ? { log: options.log } : {}),
    ...(options.warn ? { warn: options.warn } : {}),
  });
  const checks = [
    auditLogCheck(config.auditLog, config.auditMinFreeBytes, () => audit.lastWriteFailed()),
    ...upstream.environments.map((environment, index) =>
      upstreamHostCheck(environment.target.baseUrl, index === 0 ? 'upstreamHost' : `upstreamHost:${environment.info.name}`),
    ),
    // With shared state in Redis (REDIS_URL), its check joins here: sharedStoreCheck(store).
  ];
  return { handler, checks };
}

export function describeAccess(config: Config): string {
  switch (config.auth.mode) {
    case 'local':
      return config.auth.allowUnauthenticated
        ? 'Sign-in: none (ALLOW_UNAUTHENTICATED=1): whoever reaches this server reads candidates.'
        : 'Sign-in: none (local mode, loopback only).';
    case 'users':
      return `Sign-in: built-in users from ${config.auth.usersFile}.`;
    case 'proxy':
      return `Sign-in: identity-aware proxy (headers ${config.auth.userHeader} and ${config.auth.roleHeader}, trusted from ${config.auth.trusted.join(', ')}).`;
  }
}

/** A user limited to an environment that does not exist is a mistake to name at start, not a silent lockout. */
function checkUserEnvironments(config: Config): void {
  if (config.auth.mode !== 'users') return;
  const names = new Set(config.environments.map((environment) => environment.name));
  for (const user of readUsersFile(config.auth.usersFile).users) {
    const unknown = (user.environments ?? []).filter((name) => !names.has(name));
    if (unknown.length > 0) {
      throw new ConfigError(
        `AUTH_USERS_FILE: user "${user.username}" may use environment ${unknown.map((n) => `"${n}"`).join(', ')}, which this server does not have (it has ${[...names].join(', ')}).`,
      );
    }
  }
}
