import type { ApiEnvironment, ServedEnvironment } from './api-environments.ts';
import { createLogger, type Logger } from './log/log.ts';
import type { Metrics } from './ops/metrics.ts';
import { indexWatch } from './ops/queue-index-metrics.ts';
import { NO_RATE_LIMIT, type RateLimiter } from './ops/rate-limit.ts';
import type { QueueWiring } from './serve-environments.ts';
import { createQueueIndex, indexBound } from './state/queue-index.ts';
import { createMemoryQueueIndexStore, type QueueIndexStore } from './state/queue-index-store.ts';

/** The queue's options of the API handler (issue 32): its index's store, its crawlers' pace, the users' views. */
export interface QueueHandlerOptions {
  environments: ApiEnvironment[];
  logger?: Logger;
  /** The queue index's store (default: in this handler's memory). */
  queueIndex?: QueueIndexStore;
  /** Requests a second of each environment's crawler, list pages and lookups together (default 5; 0: no crawler). */
  queueRate?: number;
  /**
   * The crawlers: started with the handler (default) or not (`start: false`: tests that do not read the
   * queue, or read it after `crawlNow`), their pace, lease and clock.
   */
  queueCrawl?: NonNullable<QueueWiring['crawl']> & { start?: boolean };
  /** Each user's queue views, a bucket of their own (default: no limit). */
  queueViews?: RateLimiter;
}

/** What the handler started that must stop with it: the queue's crawlers. */
export interface Crawling {
  /** Reads every environment's queue once now, and waits for the lookups it started (tests, the bench). */
  crawlNow(): Promise<void>;
  close(): Promise<void>;
}

/** The crawler's pace where the handler is given none: 5 requests a second per environment. */
const DEFAULT_QUEUE_RATE = 5;

/** The queue index every environment shares (bounded per environment), its crawlers' pace, the users' views. */
export function queueWiring(options: QueueHandlerOptions, metrics: Metrics): QueueWiring {
  const logger = options.logger ?? createLogger(undefined, 'warn');
  const bounds = new Map(options.environments.map((environment) => [environment.info.name, indexBound(environment.queueIndexMax)]));
  const { start: _start, ...crawl } = options.queueCrawl ?? {};
  return {
    index: createQueueIndex(options.queueIndex ?? createMemoryQueueIndexStore(), {
      bound: (environment) => bounds.get(environment) ?? indexBound(undefined),
      watch: indexWatch(metrics, logger),
    }),
    perSecond: options.queueRate ?? DEFAULT_QUEUE_RATE,
    views: options.queueViews ?? NO_RATE_LIMIT,
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
