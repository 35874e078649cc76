import { APPLICANTS_MAX_LIMIT } from '../../kyc/contract/applicants.ts';
import type { ApiEnvironment, ServedEnvironment } from '../lookup/served-environment.ts';
import { createPartsBudget } from '../answer/parts-budget.ts';
import { instancePreviews } from '../answer/parts-writer.ts';
import type { ArchivingFindings } from '../archiving/archiving-findings.ts';
import type { ApiSettings } from '../config/settings.ts';
import { createArchivingGuard } from '../archiving/archiving-guard.ts';
import type { AuditLog } from '../audit/audit.ts';
import type { RefusalLog } from '../audit/audit-refusals.ts';
import type { AccessControl } from '../auth/access-control.ts';
import type { Metrics } from '../ops/metrics.ts';
import type { RateLimiter } from '../ops/rate-limit.ts';
import { createUpstreamClient } from '../upstream/upstream-client.ts';
import { createUpstreamSlots } from '../upstream/upstream-slots.ts';
import type { Logger } from '../log/log.ts';
import type { LookupDeps } from '../lookup/lookup-steps.ts';
import type { OpenedCandidates } from '../lookup/opened-candidates.ts';
import { presenceRooms, type RoomsOf } from '../lookup/presence-rooms.ts';
import type { ApplicantsQueue } from '../lookup/applicants.ts';
import { fetchListPage, type RequestSize } from '../lookup/crawler-list.ts';
import type { CrawlClock } from '../lookup/crawler-pool.ts';
import { createQueueCrawler, type QueueCrawler } from '../lookup/queue-crawler.ts';
import { QUEUE_INDEX_USER, serverStatusLookup } from '../lookup/queue-lookup.ts';
import { factsOfRecord, type QueueIndex, queueKey } from '../state/queue-index.ts';
import { indexedTriage } from '../lookup/batch-triage.ts';
import type { RecordTriage } from '../answer/record-triage.ts';
import type { SharedWaits } from '../upstream/service-wait.ts';

/**
 * Each environment's lookup dependencies, wired once at start: its own upstream client (keep-alive
 * agent, keys) and archiving guard (each key may or may not archive after extract), and what every
 * environment shares: the user's slots, the parts budget, the limit, the audit log. The settings are
 * passed apart, whole (config/settings.ts): every lookup step reads them as `deps.settings`.
 */
export interface EnvironmentWiring {
  /** Where an archive-after-extract finding is kept (default: in memory). */
  archivingFindings: ArchivingFindings | undefined;
  access: AccessControl;
  rateLimiter: RateLimiter;
  audit: AuditLog;
  refusals: RefusalLog;
  metrics: Metrics;
  /** The queue index every environment shares, its crawlers' rate and the users' queue views. */
  queue: QueueWiring;
  /** The clock of the service's waits, kept by each upstream client (default Date.now; tests give a virtual one). */
  now?: () => number;
  /** Each environment's wait shared with the other instances (with REDIS_URL; default: this process's alone). */
  sharedWaits?: SharedWaits;
  /** The candidates each user opened lately, shared with the other instances with REDIS_URL (opened-candidates.ts). */
  opened: OpenedCandidates;
}

export interface QueueWiring {
  index: QueueIndex;
  /** Requests a second of each environment's crawler (0: no crawler: the index learns from webhooks and lookups only). */
  perSecond: number;
  /** Each user's queue views (a bucket of their own). */
  views: ApplicantsQueue['views'];
  /** Where the crawler's and the lookups' warnings go. */
  logger: Logger;
  /** The crawler's pace between whole reads and lease (default: queue-crawler.ts's), and its clock. */
  crawl?: { intervalMs?: number; leaseMs?: number; clock?: CrawlClock; concurrency?: number };
}

/** The default SLA of an environment's queue (issue 23). */
export const QUEUE_SLA_HOURS = 48;

export function serveEnvironments(
  environments: readonly ApiEnvironment[],
  settings: ApiSettings,
  wiring: EnvironmentWiring,
): ServedEnvironment[] {
  // One bound per user across every environment: they share this server's connections.
  const upstreamSlots = createUpstreamSlots(settings.limits.upstreamInFlightPerUser);
  // One bound for the whole process: every environment's answers share its memory.
  const partsBudget = createPartsBudget(settings.partsMemoryBytes);
  const previews = instancePreviews(settings.limits.previewLookupsAtOnce);
  const rooms = presenceRooms(environments);
  return environments.map((environment) => {
    const deps = environmentDeps(environment, settings, wiring, { upstreamSlots, partsBudget, previews });
    return { environment, deps, queue: queueOf(environment, deps, wiring.queue, rooms.get(environment.info.name)!) };
  });
}

/** An environment's queue: the shared index, a crawler of its own asking its service, its SLA, its rows' presence rooms. */
function queueOf(environment: ApiEnvironment, deps: LookupDeps, wiring: QueueWiring, rooms: RoomsOf): ApplicantsQueue {
  const slaHours = environment.queueSlaHours ?? QUEUE_SLA_HOURS;
  const crawler = wiring.perSecond > 0 ? crawlerOf(environment, deps, wiring) : NO_CRAWLER;
  return { index: wiring.index, slaHours: slaHours > 0 ? slaHours : undefined, views: wiring.views, crawler, rooms };
}

const NO_CRAWLER: QueueCrawler = { start: () => {}, crawlNow: async () => {}, close: async () => {} };

function crawlerOf(environment: ApiEnvironment, deps: LookupDeps, wiring: QueueWiring): QueueCrawler {
  const { crawl = {} } = wiring;
  // The records one request of the list asks for, as this environment's answers have shown fits.
  const size: RequestSize = { limit: APPLICANTS_MAX_LIMIT };
  const listDeps = { ...deps, log: wiring.logger };
  return createQueueCrawler({
    environment: environment.info.name,
    index: wiring.index,
    fetchPage: (filter, skip, signal) => fetchListPage(listDeps, filter, skip, signal, size),
    // Never the first full request of a key: one that archives after extract would delete what it looks up.
    lookup: serverStatusLookup(deps, wiring.logger, QUEUE_INDEX_USER, { fullKeyOnceSafe: true }),
    perSecond: wiring.perSecond,
    // The service's waits (its 429s) hold the crawler too: no page during the list's, no lookup during the lookups'.
    pausedUntil: deps.upstream.pausedUntil,
    logger: wiring.logger,
    ...crawl,
  });
}

function environmentDeps(
  environment: ApiEnvironment,
  settings: ApiSettings,
  wiring: EnvironmentWiring,
  { upstreamSlots, partsBudget, previews }: Pick<LookupDeps, 'upstreamSlots' | 'partsBudget' | 'previews'>,
): LookupDeps {
  const { upstreamTimeoutMs: timeoutMs, upstreamAnswerTimeoutMs: answerTimeoutMs, maxResponseBytes } = settings.limits;
  const shared = wiring.sharedWaits;
  return {
    settings,
    environment: environment.info.name,
    upstream: createUpstreamClient(
      environment.target,
      { timeoutMs, answerTimeoutMs, maxResponseBytes },
      wiring.now,
      shared && ((operation) => shared.of(environment.info.name, operation)),
    ),
    hasStatusKey: Boolean(environment.target.statusApiKey),
    ...(environment.supportFields ? { supportFields: environment.supportFields } : {}),
    access: wiring.access,
    rateLimiter: wiring.rateLimiter,
    audit: wiring.audit,
    refusals: wiring.refusals,
    upstreamSlots,
    partsBudget,
    previews,
    // Per environment: each has its own key, which may or may not archive after extract.
    archiving: createArchivingGuard({
      accept: (environment.archiveOnExtract ?? settings.keyArchivesOnExtract) === 'accept',
      environment: environment.info,
      apiKey: environment.target.apiKey,
      findings: wiring.archivingFindings,
      maxResponseBytes,
    }),
    metrics: wiring.metrics,
    opened: wiring.opened,
    // A user's lookup tells the index what the service's record says (no request of its own).
    learn: (record, triage) => {
      wiring.queue.index
        .learnRecord(environment.info.name, { ...factsOfRecord(record, Date.now()), ...triage, ...triageTime(triage) })
        .catch((error: Error) => wiring.queue.logger.warn(`The queue index could not learn a lookup's record: ${error.message}`));
    },
    // The index's own pairing of the two ids, from the service's list and records: never a guess.
    listedRecordId: async (refId) => {
      const key = queueKey('refId', refId);
      const entry = (await wiring.queue.index.store.find(environment.info.name, [key])).get(key)?.entry;
      return entry?.refId === refId ? entry.recordId : undefined;
    },
    indexedTriage: (ids) => indexedTriage(wiring.queue.index.store, environment.info.name, ids),
  };
}

/** When a lookup's triage was learnt, kept with it (a batch's row says "as of" it); none when it showed neither field. */
function triageTime(triage: RecordTriage | undefined): { triageAt?: number } {
  return triage && (triage.certificate !== undefined || triage.pictures !== undefined) ? { triageAt: Date.now() } : {};
}
