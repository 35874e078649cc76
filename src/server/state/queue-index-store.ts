import { aliasesOf, decodeEntry, encodeEntry, type IndexEntry, placementOf, type SetName, weightOf } from './queue-entry.ts';
import { SortedSet } from './sorted-set.ts';

/**
 * The queue index's store (issue 32): per environment, each candidate's entry (queue-entry.ts) under
 * its member key, an alias for its other key, and sorted sets per status group (`z` by the date it
 * entered its status, `u` not dated yet, `x` needing attention), so that a page is a range by rank and
 * a count is a count by score, exact at any size. In memory for one instance; in Redis with REDIS_URL
 * (queue-index-redis.ts), shared by every instance, each write of a chunk one script.
 *
 * Writes are compare-and-set: a write names the entry as it was read, and is refused (a conflict) when
 * another writer changed it meanwhile; the writer reads again and decides again (queue-index.ts). The
 * sets and aliases follow the entry in the same step, so they never disagree with it.
 */

export interface StoredEntry {
  member: string;
  /** As stored: what a write must name to replace it. */
  json: string;
  entry: IndexEntry;
}

export interface EntryWrite {
  member: string;
  /** The entry's JSON as read, '' when there was none: written only if it is still that. */
  expected: string;
  /** The entry to store; undefined removes it. */
  next: IndexEntry | undefined;
}

/** An environment's index at most: candidates, and bytes as weightOf counts them. */
export interface IndexBound {
  maxEntries: number;
  maxBytes: number;
}

export interface IndexSize {
  entries: number;
  /** Bytes as weightOf counts them. */
  bytes: number;
}

/** How many members a set has (`below`: scoring strictly below it). */
export interface CountQuery {
  set: SetName;
  below?: number;
}

/** `count` members of a set from the `offset`th, lowest score first (`reverse`: highest first), of those below `below` when given. */
export interface RangeQuery extends CountQuery {
  offset: number;
  count: number;
  reverse?: boolean;
}

export interface QueueIndexStore {
  readonly kind: 'memory' | 'redis';
  /** The entry each key names (a member, or an alias of one), by key; unknown keys are left out. */
  find(environment: string, keys: readonly string[]): Promise<Map<string, StoredEntry>>;
  /** Each write unless its entry changed since it was read: the members not written, and the size after. */
  apply(environment: string, writes: readonly EntryWrite[]): Promise<{ conflicts: string[]; size: IndexSize }>;
  count(environment: string, queries: readonly CountQuery[]): Promise<number[]>;
  range(environment: string, queries: readonly RangeQuery[]): Promise<string[][]>;
  entries(environment: string, members: readonly string[]): Promise<Array<StoredEntry | undefined>>;
  size(environment: string): Promise<IndexSize>;
  /** The environment's crawl state (queue-crawler.ts), as text fields. */
  readMeta(environment: string): Promise<Record<string, string>>;
  writeMeta(environment: string, fields: Record<string, string>): Promise<void>;
  /** Takes, or keeps, the environment's crawler lease for `holder` for `ttlMs`: true while `holder` has it. */
  lease(environment: string, holder: string, ttlMs: number): Promise<boolean>;
  release(environment: string, holder: string): Promise<void>;
  close(): Promise<void>;
}

/** What a write does to the sets, the aliases and the bytes, from the entry before (as read) and after. */
export interface WriteSteps {
  remove: SetName[];
  add: Array<[SetName, string]>;
  aliasesGone: string[];
  aliasesSet: string[];
  bytes: number;
}

export function writeSteps(member: string, before: IndexEntry | undefined, after: IndexEntry | undefined): WriteSteps {
  const was = before ? placementOf(before) : [];
  const will = after ? placementOf(after) : [];
  const oldAliases = before ? aliasesOf(member, before) : [];
  const newAliases = after ? aliasesOf(member, after) : [];
  return {
    remove: was.map(([set]) => set).filter((set) => !will.some(([other]) => other === set)),
    add: will,
    aliasesGone: oldAliases.filter((alias) => !newAliases.includes(alias)),
    aliasesSet: newAliases,
    bytes: weightOf(member, after) - weightOf(member, before),
  };
}

/** One environment's index in memory: entries, aliases, sets (each made when first written), the crawl state, the lease. */
interface MemoryEnvironment {
  entries: Map<string, string>;
  aliases: Map<string, string>;
  sets: Map<SetName, SortedSet>;
  meta: Map<string, string>;
  bytes: number;
  lease?: { holder: string; until: number };
}

/** One instance, in this process's memory: the same structure and rules as in Redis. */
export function createMemoryQueueIndexStore(options: { now?: () => number } = {}): QueueIndexStore {
  const now = options.now ?? Date.now;
  const environments = new Map<string, MemoryEnvironment>();
  const of = (environment: string): MemoryEnvironment => {
    let found = environments.get(environment);
    if (!found) {
      found = { entries: new Map(), aliases: new Map(), sets: new Map(), meta: new Map(), bytes: 0 };
      environments.set(environment, found);
    }
    return found;
  };
  return {
    kind: 'memory',
    ...memoryReads(of),
    apply: async (environment, writes) => applyInMemory(of(environment), writes),
    size: async (environment) => sizeOf(of(environment)),
    readMeta: async (environment) => Object.fromEntries(of(environment).meta),
    async writeMeta(environment, fields) {
      const bucket = of(environment);
      for (const [field, value] of Object.entries(fields)) bucket.meta.set(field, value);
    },
    async lease(environment, holder, ttlMs) {
      const bucket = of(environment);
      const at = now();
      if (bucket.lease && bucket.lease.until > at && bucket.lease.holder !== holder) return false;
      bucket.lease = { holder, until: at + ttlMs };
      return true;
    },
    async release(environment, holder) {
      const bucket = of(environment);
      if (bucket.lease?.holder === holder) bucket.lease = undefined;
    },
    async close() {
      environments.clear();
    },
  };
}

const sizeOf = (bucket: MemoryEnvironment): IndexSize => ({ entries: bucket.entries.size, bytes: bucket.bytes });

const storedOf = (member: string, json: string | undefined): StoredEntry | undefined => {
  const entry = json === undefined ? undefined : decodeEntry(json);
  return entry && json !== undefined ? { member, json, entry } : undefined;
};

function setOf(bucket: MemoryEnvironment, name: SetName): SortedSet {
  const found = bucket.sets.get(name) ?? new SortedSet();
  bucket.sets.set(name, found);
  return found;
}

/** The writes, each compared and set, its sets, aliases and bytes with it, as the Redis script does them. */
function applyInMemory(bucket: MemoryEnvironment, writes: readonly EntryWrite[]) {
  const conflicts: string[] = [];
  for (const write of writes) {
    const current = bucket.entries.get(write.member) ?? '';
    if (current !== write.expected) {
      conflicts.push(write.member);
      continue;
    }
    const steps = writeSteps(write.member, current ? decodeEntry(current) : undefined, write.next);
    for (const name of steps.remove) setOf(bucket, name).delete(write.member);
    for (const alias of steps.aliasesGone) if (bucket.aliases.get(alias) === write.member) bucket.aliases.delete(alias);
    if (write.next) bucket.entries.set(write.member, encodeEntry(write.next));
    else bucket.entries.delete(write.member);
    for (const [name, score] of steps.add) setOf(bucket, name).add(write.member, Number(score));
    for (const alias of steps.aliasesSet) bucket.aliases.set(alias, write.member);
    bucket.bytes += steps.bytes;
  }
  return { conflicts, size: sizeOf(bucket) };
}

function memoryReads(of: (environment: string) => MemoryEnvironment): Pick<QueueIndexStore, 'find' | 'count' | 'range' | 'entries'> {
  return {
    async find(environment, keys) {
      const bucket = of(environment);
      const found = new Map<string, StoredEntry>();
      for (const key of keys) {
        const member = bucket.entries.has(key) ? key : bucket.aliases.get(key);
        const entry = member === undefined ? undefined : storedOf(member, bucket.entries.get(member));
        if (entry) found.set(key, entry);
      }
      return found;
    },
    async count(environment, queries) {
      const bucket = of(environment);
      return queries.map(({ set, below }) => {
        const found = bucket.sets.get(set);
        if (!found) return 0;
        return below === undefined ? found.size : found.countBelow(below);
      });
    },
    async range(environment, queries) {
      const bucket = of(environment);
      return queries.map(({ set, offset, count, reverse, below }) => {
        const found = bucket.sets.get(set);
        if (!found) return [];
        return below === undefined ? found.range(offset, count, reverse) : found.rangeBelow(below, offset, count, reverse);
      });
    },
    async entries(environment, members) {
      const bucket = of(environment);
      return members.map((member) => storedOf(member, bucket.entries.get(member)));
    },
  };
}
