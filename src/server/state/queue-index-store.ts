import { Redis } from 'ioredis';
import { StoreUnavailableError } from './store.ts';

/**
 * What the queue index knows of one candidate: its status and status dates, never personal data
 * (`<status>Date` fields only, ISO 8601 strings, as the service gives them).
 */
export interface QueueFacts {
  status: string;
  dates: Record<string, string>;
}

/**
 * The queue index's store: per environment, a candidate's key (`recordId:<id>` or `refId:<id>`,
 * queue-index.ts) -> facts. In memory for one process, in a Redis hash per environment with REDIS_URL, so
 * that every instance orders the queue alike and a date one instance looked up is known to all.
 */
export interface QueueIndexStore {
  readonly kind: 'memory' | 'redis';
  /** The facts known of these ids (an id not known is left out). */
  read(environment: string, ids: readonly string[]): Promise<Map<string, QueueFacts>>;
  write(environment: string, facts: ReadonlyMap<string, QueueFacts>): Promise<void>;
  close(): Promise<void>;
}

/** Far beyond any queue it orders (queueIndexMax is at most 100 000): the oldest entries go first past it. */
const MEMORY_MAX_ENTRIES = 200_000;

export function createMemoryQueueIndexStore(maxEntries = MEMORY_MAX_ENTRIES): QueueIndexStore {
  const environments = new Map<string, Map<string, QueueFacts>>();
  const of = (environment: string) => {
    const entries = environments.get(environment) ?? new Map<string, QueueFacts>();
    environments.set(environment, entries);
    return entries;
  };
  return {
    kind: 'memory',
    async read(environment, ids) {
      const entries = of(environment);
      const found = new Map<string, QueueFacts>();
      for (const id of ids) {
        const facts = entries.get(id);
        if (facts) found.set(id, facts);
      }
      return found;
    },
    async write(environment, facts) {
      const entries = of(environment);
      for (const [id, value] of facts) {
        // Written again, an entry moves to the end: the first ones of the Map are the least recently learnt.
        entries.delete(id);
        entries.set(id, value);
      }
      for (const id of entries.keys()) {
        if (entries.size <= maxEntries) break;
        entries.delete(id);
      }
    },
    async close() {
      environments.clear();
    },
  };
}

/** How long an environment's hash stays after its last write: a queue nobody opens for a month is forgotten. */
const REDIS_TTL_SECONDS = 30 * 24 * 60 * 60;

/**
 * The index in Redis: one hash per environment (`<prefix>queue-index:v2:<environment>`), a field per key
 * holding the facts as JSON. Its own connection, failing fast like the shared store's. `v2`: the hash of
 * before (`queue-index:<environment>`, fields by bare recordId) is never read again, and expires a month
 * after its last write; its dates are learnt anew.
 */
export function createRedisQueueIndexStore(url: string, keyPrefix = 'candidate-lookup:'): QueueIndexStore {
  const redis = new Redis(url, {
    enableOfflineQueue: true,
    maxRetriesPerRequest: 0,
    commandTimeout: 2000,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 100, 2000),
  });
  // ioredis reports every failed attempt; the shared store's watch says when Redis is down.
  redis.on('error', () => {});
  const key = (environment: string) => `${keyPrefix}queue-index:v2:${environment}`;
  const unavailable = (error: unknown): never => {
    throw new StoreUnavailableError(error);
  };
  return {
    kind: 'redis',
    async read(environment, ids) {
      const found = new Map<string, QueueFacts>();
      if (ids.length === 0) return found;
      const values = await redis.hmget(key(environment), ...ids).catch(unavailable);
      values.forEach((value, index) => {
        const facts = value === null ? undefined : parseFacts(value);
        if (facts) found.set(ids[index]!, facts);
      });
      return found;
    },
    async write(environment, facts) {
      if (facts.size === 0) return;
      const fields = [...facts].flatMap(([id, value]) => [id, JSON.stringify(value)]);
      await redis
        .multi()
        .hset(key(environment), ...fields)
        .expire(key(environment), REDIS_TTL_SECONDS)
        .exec()
        .catch(unavailable);
    },
    async close() {
      redis.disconnect();
    },
  };
}

/** A field written by another version, or by hand: read only if it has the facts' shape. */
function parseFacts(text: string): QueueFacts | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    if (!value || typeof value !== 'object') return undefined;
    const { status, dates } = value as Record<string, unknown>;
    if (typeof status !== 'string' || !dates || typeof dates !== 'object') return undefined;
    const kept = Object.entries(dates).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
    return { status, dates: Object.fromEntries(kept) };
  } catch {
    return undefined;
  }
}
