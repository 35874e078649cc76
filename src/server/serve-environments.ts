import type { ApiEnvironment, ServedEnvironment } from './api-environments.ts';
import { createPartsBudget } from './answer/parts-budget.ts';
import type { ArchivingFindings } from './archiving/archiving-findings.ts';
import { createArchivingGuard } from './archiving/archiving-guard.ts';
import type { AuditLog } from './audit/audit.ts';
import type { RefusalLog } from './audit/audit-refusals.ts';
import type { AccessControl } from './auth/access-control.ts';
import type { Metrics } from './ops/metrics.ts';
import type { RateLimiter } from './ops/rate-limit.ts';
import { createUpstreamClient } from './upstream/upstream-client.ts';
import { createUpstreamSlots } from './upstream/upstream-slots.ts';

/**
 * Each environment's lookup dependencies, wired once at start: its own upstream client (keep-alive
 * agent, keys) and archiving guard (each key may or may not archive after extract), and what every
 * environment shares: the user's slots, the parts budget, the limit, the audit log.
 */
export interface EnvironmentWiring {
  timeoutMs: number;
  /** A browser that reads nothing of an answer in parts is cut off after this (default `timeoutMs`). */
  browserStallMs?: number;
  maxResponseBytes: number;
  /** The bytes all answers in parts being built may hold at once (parts-budget.ts). */
  partsMemoryBytes: number | undefined;
  /** Each user's requests to the service under way at once (0: no bound). */
  maxInFlightPerUser: number;
  keyArchivesOnExtract: 'refuse' | 'accept' | undefined;
  archivingFindings: ArchivingFindings | undefined;
  access: AccessControl;
  rateLimiter: RateLimiter;
  audit: AuditLog;
  refusals: RefusalLog;
  metrics: Metrics;
}

export function serveEnvironments(environments: readonly ApiEnvironment[], wiring: EnvironmentWiring): ServedEnvironment[] {
  const { timeoutMs, maxResponseBytes } = wiring;
  // One bound per user across every environment: they share this server's connections.
  const upstreamSlots = createUpstreamSlots(wiring.maxInFlightPerUser);
  // One bound for the whole process: every environment's answers share its memory.
  const partsBudget = createPartsBudget(wiring.partsMemoryBytes);
  return environments.map((environment) => ({
    environment,
    deps: {
      environment: environment.info.name,
      upstream: createUpstreamClient(environment.target, { timeoutMs, maxResponseBytes }),
      hasStatusKey: Boolean(environment.target.statusApiKey),
      ...(environment.supportFields ? { supportFields: environment.supportFields } : {}),
      access: wiring.access,
      rateLimiter: wiring.rateLimiter,
      audit: wiring.audit,
      refusals: wiring.refusals,
      upstreamSlots,
      timeoutMs,
      ...(wiring.browserStallMs === undefined ? {} : { browserStallMs: wiring.browserStallMs }),
      maxResponseBytes,
      partsBudget,
      // Per environment: each has its own key, which may or may not archive after extract.
      archiving: createArchivingGuard({
        accept: (environment.archiveOnExtract ?? wiring.keyArchivesOnExtract) === 'accept',
        environment: environment.info,
        apiKey: environment.target.apiKey,
        findings: wiring.archivingFindings,
        maxResponseBytes,
      }),
      metrics: wiring.metrics,
    },
  }));
}
