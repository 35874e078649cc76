import type { ApiEnvironment, ServedEnvironment } from '../lookup/served-environment.ts';
import { createLogger, type Logger } from '../log/log.ts';
import type { Metrics } from '../ops/metrics.ts';
import { indexWatch } from '../ops/queue-index-metrics.ts';
import { createRateLimiter } from '../ops/rate-limit.ts';
import type { ApiSettings } from '../config/settings.ts';
import type { QueueWiring } from './serve-environments.ts';
import { createQueueIndex, indexBound } from '../state/queue-index.ts';
import { createMemoryQueueIndexStore, type QueueIndexStore } from '../state/queue-index-store.ts';
import type { SharedStore } from '../state/store.ts';

/** The queue's part of the API handler's runtime (issue 32): its index's store and its crawlers. */
export interface QueueRuntime {
  environments: ApiEnvironment[];
  logger?: Logger;
  /** The queue index's store (default: in this handler's memory). */
  queueIndex?: QueueIndexStore;
  /**
   * The crawlers: started with the handler (default) or not (`start: false`: tests that do not read the
   * queue, or read it after `crawlNow`), their pace, lease and clock.
   */
  queueCrawl?: NonNullable<QueueWiring['crawl']> & { start?: boolean };
}

/** What the handler started that must stop with it: the queue's crawlers. */
export interface Crawling {
  /** Reads every environment's queue once now, and waits for the lookups it started (tests, the bench). */
  crawlNow(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The queue index every environment shares (bounded per environment), its crawlers' pace
 * (limits.queueIndexLookupsPerSecond) and each user's queue views (limits.queueViewsPerMinute, a bucket
 * of their own in the shared store).
 */
export function queueWiring(
  options: QueueRuntime,
  settings: ApiSettings,
  { metrics, store }: { metrics: Metrics; store: SharedStore },
): QueueWiring {
  const logger = options.logger ?? createLogger(undefined, 'warn');
  const bounds = new Map(options.environments.map((environment) => [environment.info.name, indexBound(environment.queueIndexMax)]));
  const { start: _start, ...crawl } = options.queueCrawl ?? {};
  return {
    index: createQueueIndex(options.queueIndex ?? createMemoryQueueIndexStore(), {
      bound: (environment) => bounds.get(environment) ?? indexBound(undefined),
      watch: indexWatch(metrics, logger),
    }),
    perSecond: settings.limits.queueIndexLookupsPerSecond,
    views: createRateLimiter(store, 'queue-views', settings.limits.queueViewsPerMinute),
    logger,
    crawl,
  };
}

/** The handler with its environments' queue crawlers, started unless told not to, and stopped with it. */
export function withCrawlers<H extends object>(handler: H, served: readonly ServedEnvironment[], start: boolean): H & Crawling {
  const crawlers = served.map(({ queue }) => queue.crawler);
  if (start) for (const crawler of crawlers) crawler.start();
  return Object.assign(handler, {
    crawlNow: async () => {
      for (const crawler of crawlers) await crawler.crawlNow();
    },
    close: async () => {
      await Promise.all(crawlers.map((crawler) => crawler.close()));
    },
  });
}
