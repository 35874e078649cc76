import { createAccessControl } from './auth/access.ts';
import { createAuditLog } from './audit.ts';
import type { Config } from './config.ts';
import { createApiHandler, type Middleware } from './proxy.ts';
import { RateLimiter } from './rate-limit.ts';
import type { ResolvedUpstream } from './upstream.ts';

/** The API handler as configured: the same for the production server and the Vite plugin. */
export function createApiFromConfig(config: Config, upstream: ResolvedUpstream, log: (line: string) => void): Middleware {
  return createApiHandler({
    upstream: upstream.target,
    timeoutMs: config.timeoutMs,
    maxResponseBytes: config.maxResponseBytes,
    meta: upstream.meta,
    access: createAccessControl(config.auth),
    audit: createAuditLog(config.auditLog),
    rateLimiter: new RateLimiter(config.rateLimitPerMinute),
    log,
  });
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
