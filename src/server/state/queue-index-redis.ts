import { Redis } from 'ioredis';
import { decodeEntry, encodeEntry } from './queue-entry.ts';
import {
  type CountQuery,
  type EntryWrite,
  type IndexSize,
  type QueueIndexStore,
  type RangeQuery,
  type StoredEntry,
  writeSteps,
} from './queue-index-store.ts';
import { StoreUnavailableError } from './store.ts';

/**
 * The queue index in Redis (issue 32), shared by every instance. Per environment, under
 * `<prefix>q3:{<environment>}:` (one hash slot, should the Redis be a cluster): `e`, a hash member ->
 * entry; `a`, a hash alias key -> member; `z:<group>`, `u:<group>`, `x:<group>`, `n:<group>`, sorted sets; `m`, a hash
 * of the bytes counted and the crawl's state; `lease`, the crawler's lease. Sorted sets are what Sidekiq
 * and BullMQ keep their queues in: a page is ZRANGE by rank, a count ZCOUNT by score, each O(log n).
 *
 * Every command is bounded: writes go in chunks of WRITE_CHUNK entries, one script each (its compare and
 * set, sets, aliases and bytes at once); reads of many ids in chunks of READ_CHUNK. No command ever
 * carries 100 000 arguments (HSET with every field overflowed the stack: issue 32).
 */

const WRITE_CHUNK = 500;
const READ_CHUNK = 1000;

/**
 * One chunk of writes: each applied only if its entry is still the one read (`o`), else named in the
 * conflicts. The steps (`r` sets left, `z` sets joined with their scores, `ag` aliases gone, `as` aliases
 * set, `b` bytes) were worked out from that entry (queue-index-store.ts's writeSteps), so they hold.
 */
const APPLY = `
local p = KEYS[1]
local writes = cjson.decode(ARGV[1])
local conflicts = {}
for _, w in ipairs(writes) do
  local current = redis.call('HGET', p .. 'e', w.m) or ''
  if current ~= w.o then
    conflicts[#conflicts + 1] = w.m
  else
    for _, s in ipairs(w.r) do redis.call('ZREM', p .. s, w.m) end
    for _, a in ipairs(w.ag) do
      if redis.call('HGET', p .. 'a', a) == w.m then redis.call('HDEL', p .. 'a', a) end
    end
    if w.n == '' then redis.call('HDEL', p .. 'e', w.m) else redis.call('HSET', p .. 'e', w.m, w.n) end
    for _, z in ipairs(w.z) do redis.call('ZADD', p .. z[1], z[2], w.m) end
    for _, a in ipairs(w.as) do redis.call('HSET', p .. 'a', a, w.m) end
    if w.b ~= 0 then redis.call('HINCRBY', p .. 'm', 'bytes', w.b) end
  end
end
return {conflicts, redis.call('HLEN', p .. 'e'), tonumber(redis.call('HGET', p .. 'm', 'bytes') or '0')}
`;

/** The lease: taken when free, kept (its expiry pushed back) by its holder, refused to anyone else. */
const LEASE = `
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
`;

type Scripts = Redis & {
  queueApply(prefix: string, writes: string): Promise<[string[], number, number]>;
  queueLease(key: string, holder: string, ttlMs: number): Promise<number>;
  queueRelease(key: string, holder: string): Promise<number>;
};

/**
 * Chunks in flight at once: enough to keep the connection busy, few enough that none waits behind the
 * others past the command timeout, nor holds Redis from other clients for long.
 */
const WINDOW = 4;

/** `send` of each item, WINDOW at a time, the answers in the items' order. */
async function windowed<T, R>(items: readonly T[], send: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += WINDOW) out.push(...(await Promise.all(items.slice(i, i + WINDOW).map(send))));
  return out;
}

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

export function createRedisQueueIndexStore(url: string, keyPrefix = 'candidate-lookup:'): QueueIndexStore {
  const redis = new Redis(url, {
    enableOfflineQueue: true,
    maxRetriesPerRequest: 0,
    commandTimeout: 2000,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 100, 2000),
  }) as Scripts;
  // ioredis reports every failed attempt; the shared store's watch says when Redis is down.
  redis.on('error', () => {});
  redis.defineCommand('queueApply', { numberOfKeys: 1, lua: APPLY });
  redis.defineCommand('queueLease', { numberOfKeys: 1, lua: LEASE });
  redis.defineCommand('queueRelease', { numberOfKeys: 1, lua: RELEASE });
  const at = { redis, prefix: (environment: string) => `${keyPrefix}q3:{${environment}}:` };
  const { prefix } = at;
  const size = async (environment: string): Promise<IndexSize> => {
    const p = prefix(environment);
    const [entries, bytes] = await call(Promise.all([redis.hlen(`${p}e`), redis.hget(`${p}m`, 'bytes')]));
    return { entries, bytes: Number(bytes ?? 0) };
  };
  return {
    kind: 'redis',
    ...reads(at),
    async apply(environment, writes) {
      // A few at once on the one connection, so run in their order: a pair's removal before its write.
      const replies = await windowed(chunks(writes, WRITE_CHUNK), (chunk) =>
        call(redis.queueApply(prefix(environment), JSON.stringify(chunk.map(scriptWrite)))),
      );
      const last = replies.at(-1);
      return {
        conflicts: replies.flatMap(([refused]) => refused),
        size: last ? { entries: last[1], bytes: last[2] } : await size(environment),
      };
    },
    size,
    readMeta: (environment) => call(redis.hgetall(`${prefix(environment)}m`)),
    async writeMeta(environment, fields) {
      if (Object.keys(fields).length > 0) await call(redis.hset(`${prefix(environment)}m`, fields));
    },
    lease: async (environment, holder, ttlMs) =>
      (await call(redis.queueLease(`${prefix(environment)}lease`, holder, Math.max(1, Math.ceil(ttlMs))))) === 1,
    async release(environment, holder) {
      await call(redis.queueRelease(`${prefix(environment)}lease`, holder));
    },
    async close() {
      redis.disconnect();
    },
  };
}

const unavailable = (error: unknown): never => {
  throw new StoreUnavailableError(error);
};
const call = <T>(command: Promise<T>): Promise<T> => command.catch(unavailable);

async function results(pending: ReturnType<ReturnType<Redis['pipeline']>['exec']>): Promise<unknown[]> {
  const replies = (await call(pending)) ?? [];
  return replies.map(([error, value]) => {
    if (error) unavailable(error);
    return value;
  });
}

const stored = (member: string, json: string | null | undefined): StoredEntry | undefined => {
  const entry = json ? decodeEntry(json) : undefined;
  return entry && json ? { member, json, entry } : undefined;
};

/** The reads of a view and of a write: entries by key (through aliases), counts and ranges of sets, each a pipeline or chunked HMGET. */
function reads({ redis, prefix }: { redis: Redis; prefix: (environment: string) => string }) {
  // A few chunks at once: ioredis pipelines them on its one connection.
  const hmget = async (key: string, fields: readonly string[]): Promise<Array<string | null>> =>
    (await windowed(chunks(fields, READ_CHUNK), (chunk) => call(redis.hmget(key, ...chunk)))).flat();
  return {
    async find(environment: string, keys: readonly string[]) {
      const p = prefix(environment);
      const [direct, aliased] = await Promise.all([hmget(`${p}e`, keys), hmget(`${p}a`, keys)]);
      const viaAlias = [...new Set(aliased.filter((member): member is string => member !== null))];
      const aliasEntries = new Map(viaAlias.map((member, i) => [member, i]));
      const aliasJson = viaAlias.length > 0 ? await hmget(`${p}e`, viaAlias) : [];
      const found = new Map<string, StoredEntry>();
      keys.forEach((key, i) => {
        const member = direct[i] ? key : aliased[i];
        const json = direct[i] ?? (member ? aliasJson[aliasEntries.get(member)!] : undefined);
        const entry = member ? stored(member, json) : undefined;
        if (entry) found.set(key, entry);
      });
      return found;
    },
    async count(environment: string, queries: readonly CountQuery[]) {
      const p = prefix(environment);
      const pipeline = redis.pipeline();
      for (const { set, below } of queries) {
        if (below === undefined) pipeline.zcard(p + set);
        else pipeline.zcount(p + set, '-inf', `(${below}`);
      }
      return (await results(pipeline.exec())).map(Number);
    },
    async range(environment: string, queries: readonly RangeQuery[]) {
      const p = prefix(environment);
      const pipeline = redis.pipeline();
      for (const { set, below, offset, count, reverse } of queries) {
        const key = p + set;
        if (below === undefined) {
          const [start, stop] = [String(offset), String(offset + count - 1)];
          if (reverse) pipeline.zrevrange(key, start, stop);
          else pipeline.zrange(key, start, stop);
        } else if (reverse) pipeline.zrevrangebyscore(key, `(${below}`, '-inf', 'LIMIT', offset, count);
        else pipeline.zrangebyscore(key, '-inf', `(${below}`, 'LIMIT', offset, count);
      }
      return (await results(pipeline.exec())) as string[][];
    },
    async entries(environment: string, members: readonly string[]) {
      const values = await hmget(`${prefix(environment)}e`, members);
      return members.map((member, i) => stored(member, values[i]));
    },
  };
}

/** A write as the script takes it: the steps worked out here from the entry as read. */
function scriptWrite(write: EntryWrite) {
  const before = write.expected ? decodeEntry(write.expected) : undefined;
  const steps = writeSteps(write.member, before, write.next);
  return {
    m: write.member,
    o: write.expected,
    n: write.next ? encodeEntry(write.next) : '',
    r: steps.remove,
    z: steps.add,
    ag: steps.aliasesGone,
    as: steps.aliasesSet,
    b: steps.bytes,
  };
}
