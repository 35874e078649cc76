import type { ApiEnvironment, ServedEnvironment } from './api-environments.ts';
import { createPartsBudget } from './answer/parts-budget.ts';
import { instancePreviews } from './answer/parts-writer.ts';
import type { ArchivingFindings } from './archiving/archiving-findings.ts';
import { createArchivingGuard } from './archiving/archiving-guard.ts';
import type { AuditLog } from './audit/audit.ts';
import type { RefusalLog } from './audit/audit-refusals.ts';
import type { AccessControl } from './auth/access-control.ts';
import type { Metrics } from './ops/metrics.ts';
import type { RateLimiter } from './ops/rate-limit.ts';
import { createUpstreamClient } from './upstream/upstream-client.ts';
import { createUpstreamSlots } from './upstream/upstream-slots.ts';
import type { Logger } from './log/log.ts';
import type { LookupDeps } from './lookup/lookup-steps.ts';
import { createQueueFiller } from './lookup/queue-filler.ts';
import type { QueueIndex } from './state/queue-index.ts';
import { queueLookup } from './lookup/queue-lookup.ts';
import type { ApplicantsQueue } from './lookup/queue-page.ts';
import type { Counter } from './state/store.ts';

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
  /** Lookups whose pictures are reduced to previews at once (0: no previews). */
  previewLookupsAtOnce: number;
  /** Each user's requests to the service under way at once (0: no bound). */
  maxInFlightPerUser: number;
  keyArchivesOnExtract: 'refuse' | 'accept' | undefined;
  archivingFindings: ArchivingFindings | undefined;
  access: AccessControl;
  rateLimiter: RateLimiter;
  audit: AuditLog;
  refusals: RefusalLog;
  metrics: Metrics;
  /** The queue index every environment shares, and the bound on its lookups (none: the service's order, no dates). */
  queue?: QueueWiring;
  /** The clock of the service's waits, kept by each upstream client (default Date.now; tests give a virtual one). */
  now?: () => number;
}

export interface QueueWiring {
  index: QueueIndex;
  /** One point per lookup, keyed by environment (undefined: no lookups, the list and webhooks only). */
  counter: Counter | undefined;
  /** Where a lookup's warnings go (an archiving finding). */
  logger: Logger;
  /** How often the filler runs while dates are wanted (default 1000 ms; tests make it short). */
  intervalMs?: number;
}

/** The defaults of an environment's queue (issue 23): a tab of up to 1000 ordered by age, an SLA of 48 hours. */
export const QUEUE_INDEX_MAX = 1000;
export const QUEUE_SLA_HOURS = 48;

export function serveEnvironments(environments: readonly ApiEnvironment[], wiring: EnvironmentWiring): ServedEnvironment[] {
  // One bound per user across every environment: they share this server's connections.
  const upstreamSlots = createUpstreamSlots(wiring.maxInFlightPerUser);
  // One bound for the whole process: every environment's answers share its memory.
  const partsBudget = createPartsBudget(wiring.partsMemoryBytes);
  const previews = instancePreviews(wiring.previewLookupsAtOnce);
  return environments.map((environment) => {
    const deps = environmentDeps(environment, wiring, upstreamSlots, { partsBudget, previews });
    return { environment, deps, ...(wiring.queue ? { queue: queueOf(environment, deps, wiring.queue) } : {}) };
  });
}

/** An environment's queue: the shared index, a filler of its own asking its service, its own bound and SLA. */
function queueOf(environment: ApiEnvironment, deps: LookupDeps, wiring: QueueWiring): ApplicantsQueue {
  const indexMax = environment.queueIndexMax ?? QUEUE_INDEX_MAX;
  const slaHours = environment.queueSlaHours ?? QUEUE_SLA_HOURS;
  const filler = createQueueFiller({
    environment: environment.info.name,
    index: wiring.index,
    lookup: queueLookup(deps, wiring.logger),
    counter: wiring.counter,
    maxPending: Math.max(indexMax, 1),
    // The service's wait (its 429) holds the filler too: no round asks it before the wait ends.
    servicePaused: () => deps.upstream.waiting() !== undefined,
    ...(wiring.intervalMs === undefined ? {} : { intervalMs: wiring.intervalMs }),
    onError: (error) => wiring.logger.warn(`The queue index could not be filled: ${(error as Error).message}`),
  });
  return { index: wiring.index, filler, indexMax, slaHours: slaHours > 0 ? slaHours : undefined };
}

function environmentDeps(
  environment: ApiEnvironment,
  wiring: EnvironmentWiring,
  upstreamSlots: LookupDeps['upstreamSlots'],
  { partsBudget, previews }: Pick<LookupDeps, 'partsBudget' | 'previews'>,
): LookupDeps {
  const { timeoutMs, maxResponseBytes } = wiring;
  return {
    environment: environment.info.name,
    upstream: createUpstreamClient(environment.target, { timeoutMs, maxResponseBytes }, wiring.now),
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
    previews,
    // Per environment: each has its own key, which may or may not archive after extract.
    archiving: createArchivingGuard({
      accept: (environment.archiveOnExtract ?? wiring.keyArchivesOnExtract) === 'accept',
      environment: environment.info,
      apiKey: environment.target.apiKey,
      findings: wiring.archivingFindings,
      maxResponseBytes,
    }),
    metrics: wiring.metrics,
  };
}
