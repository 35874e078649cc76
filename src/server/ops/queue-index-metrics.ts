import type { Logger } from '../log/log.ts';
import type { IndexWatch } from '../state/queue-index.ts';
import type { Metrics } from './metrics.ts';

/**
 * The queue index's size and evictions, as the operator sees them (issue 31, finding 2): the entries
 * and bytes of each environment's index as gauges, every eviction counted, and a warning line each time
 * the bound is reached, with the sizes and the bound (never an id).
 */
export function indexWatch(metrics: Metrics, logger: Logger): IndexWatch {
  return {
    size(environment, size) {
      metrics.queueIndexEntries.set({ environment }, size.entries);
      metrics.queueIndexBytes.set({ environment }, size.bytes);
    },
    evicted(environment, count, size, bound) {
      metrics.queueIndexEvictions.inc({ environment }, count);
      logger.warn(
        { event: 'queue_index_evicted', environment, evicted: count, entries: size.entries, bytes: size.bytes, ...bound },
        `The queue index of ${environment} reached its bound (${bound.maxEntries} candidates, ${bound.maxBytes} bytes): ${count} entries were evicted, decisions oldest first. Raise queueIndexMax if its queue is that large.`,
      );
    },
  };
}
