import type { Applicant } from '../../kyc/contract/applicants.ts';
import { currentStatusDate } from '../../kyc/contract/batch.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import { serviceIdFields } from '../../kyc/contract/service-id.ts';
import { MAX_STATUS_LENGTH } from '../../kyc/contract/status.ts';
import { type IndexEntry, lookupDue, queueKeysOf, type SetName } from './queue-entry.ts';
import type { EntryWrite, IndexBound, IndexSize, QueueIndexStore, StoredEntry } from './queue-index-store.ts';

export type { IndexBound } from './queue-index-store.ts';
import { evict } from './queue-evict.ts';
import { nextTurn } from './next-turn.ts';
import { listedEntry, type RecordFacts, realSince, recordEntry } from './queue-learn.ts';

export { isOlder, listedEntry, type RecordFacts, recordEntry } from './queue-learn.ts';

export { lookupDue, parseQueueKey, type QueueKey, queueKey, queueKeysOf, RECHECK_UNDATED_MS } from './queue-entry.ts';

/**
 * The queue index (issues 23 and 32): per environment, every candidate of the service's list, by status
 * and ordered by the date it entered it, with no personal data (queue-entry.ts). Learnt from the list
 * (the crawler, queue-crawler.ts: statuses, and a whole record's own date), from records the service
 * gave (a status-level lookup's, a webhook delivery's check, a user's lookup: the whole truth, unless
 * what is known is newer), and bounded in entries and bytes: past either bound the least useful entries
 * go, counted in a metric and said in a log line.
 */

/** A status-level record's facts (read at `readAt`, a lookup's): its ids, status, the date it entered it, archive flag and service id (service-id.ts). */
export function factsOfRecord(record: CandidateRecord, readAt?: number): RecordFacts {
  const date = currentStatusDate(record);
  const since = date === undefined ? Number.NaN : Date.parse(date);
  return {
    status: record.status,
    ...(record.recordId ? { recordId: record.recordId } : {}),
    ...(record.refId ? { refId: record.refId } : {}),
    ...(Number.isFinite(since) ? { since } : { dateless: true }),
    ...(readAt === undefined ? {} : { readAt }),
    ...(typeof record.isArchived === 'boolean' ? { isArchived: record.isArchived } : {}),
    ...serviceIdFields(record),
  };
}

/**
 * The defaults of an environment's index (issue 32): room for 600 000 candidates (the 500 000 of a busy
 * service, and room to grow), each allowed 512 bytes on average in the bound in bytes (an entry weighs
 * about 150: queue-entry.ts's weightOf), so that entries of hostile size fill a third of it at most.
 */
/** Records of a page learnt in one turn of the event loop; the next wait for the loop's other work. */
const LEARN_CHUNK = 500;

export const QUEUE_INDEX_MAX = 600_000;
export const QUEUE_INDEX_BYTES_PER_ENTRY = 512;

/** An environment's bound from its `queueIndexMax` (unset: the default). */
export function indexBound(maxEntries: number | undefined): IndexBound {
  const entries = maxEntries ?? QUEUE_INDEX_MAX;
  return { maxEntries: entries, maxBytes: entries * QUEUE_INDEX_BYTES_PER_ENTRY };
}

export interface IndexWatch {
  /** The environment's entries and bytes after a write (the metrics' gauges). */
  size?(environment: string, size: IndexSize): void;
  /** Entries evicted past the bound (a metric and a log line). */
  evicted?(environment: string, count: number, size: IndexSize, bound: IndexBound): void;
}

/** What the index knows of a listed record after learning it: its member, and whether a lookup of its date is due (lookupDue). */
export interface Learnt {
  member: string;
  due: boolean;
}

export interface QueueIndex {
  readonly store: QueueIndexStore;
  /**
   * A page of the service's list: each record's status (and own date), over what was known, unless what
   * is known was entered after `listedAt` (the list is older than it). `position`: the first record's
   * place in the list, the order of those not dated yet.
   */
  learnListed(
    environment: string,
    records: readonly Applicant[],
    at: { listedAt: number; position: number },
  ): Promise<Array<Learnt | undefined>>;
  /** A record's facts: the whole truth, unless what was known is newer (its status's date is later). */
  learnRecord(environment: string, facts: RecordFacts): Promise<void>;
  /** A candidate the service has no more (404 to its lookup): out of every tab. */
  forget(environment: string, keys: readonly string[]): Promise<void>;
  /** The members of a set, in chunks (the crawler's sweep). */
  members(environment: string, set: SetName, offset: number, count: number): Promise<string[]>;
}

/** Tries of one write that keeps meeting another writer's: beyond, it is left to the next source. */
const TRIES = 4;

export function createQueueIndex(
  store: QueueIndexStore,
  options: { bound?: (environment: string) => IndexBound; watch?: IndexWatch } = {},
): QueueIndex {
  const { watch = {} } = options;
  /** Decides each candidate's new entry from what is stored (`decide`), writes it, and decides again on a conflict. */
  const write = async <T>(environment: string, items: readonly T[], keysOf: (item: T) => string[], decide: Decide<T>) => {
    let pending = items.map((item, index) => ({ item, index }));
    const members: Array<string | undefined> = [];
    for (let attempt = 0; attempt < TRIES && pending.length > 0; attempt++) {
      const found = await store.find(environment, [...new Set(pending.flatMap(({ item }) => keysOf(item)))]);
      const writes: EntryWrite[] = [];
      const byMember = new Map<string, Array<(typeof pending)[number]>>();
      for (const one of pending) {
        const plan = planWrite(keysOf(one.item), found, (known) => decide(one.item, known));
        members[one.index] = plan.member;
        writes.push(...plan.writes);
        // A conflict on any of its writes (the merged pair's removal too) decides the candidate again.
        for (const { member } of plan.writes) byMember.set(member, [...(byMember.get(member) ?? []), one]);
      }
      if (writes.length === 0) break;
      const { conflicts, size } = await store.apply(environment, writes);
      watch.size?.(environment, size);
      await bounded(environment, size);
      pending = [...new Set([...new Set(conflicts)].flatMap((member) => byMember.get(member) ?? []))];
    }
    return members;
  };
  const bounded = async (environment: string, size: IndexSize) => {
    const bound = options.bound?.(environment);
    if (!bound || (size.entries <= bound.maxEntries && size.bytes <= bound.maxBytes)) return;
    const { evicted, after } = await evict(store, environment, size, bound);
    watch.size?.(environment, after);
    if (evicted > 0) watch.evicted?.(environment, evicted, after, bound);
  };
  const learnChunk = async (environment: string, records: readonly Applicant[], at: { listedAt: number; position: number }) => {
    const items = records.map((record, i) => ({ record, position: at.position + i }));
    const members = await write(
      environment,
      items,
      ({ record }) => (record.status.length > MAX_STATUS_LENGTH ? [] : queueKeysOf(record)),
      ({ record, position }, known) => listedEntry(known, record, at.listedAt, position),
    );
    const after = await store.entries(
      environment,
      members.filter((member): member is string => member !== undefined),
    );
    const due = new Map(after.flatMap((stored) => (stored ? [[stored.member, lookupDue(stored.entry, at.listedAt)] as const] : [])));
    // A row the list dates itself (even doubtfully) is not looked up: a lookup reads the same date.
    const own = (i: number) => records[i]!.since !== undefined;
    return members.map((member, i) => (member === undefined ? undefined : { member, due: due.get(member) === true && !own(i) }));
  };
  return {
    store,
    async learnListed(environment, records, at) {
      // A page at a time would be one turn of the event loop however large: 6,000 records a page from a
      // list that ignores `limit` kept /healthz waiting for seconds. A few hundred a turn, then the others' turn.
      const learnt: Array<Learnt | undefined> = [];
      for (let from = 0; from < records.length; from += LEARN_CHUNK) {
        if (from > 0) await nextTurn();
        const chunk = records.slice(from, from + LEARN_CHUNK);
        learnt.push(...(await learnChunk(environment, chunk, { listedAt: at.listedAt, position: at.position + from })));
      }
      return learnt;
    },
    async learnRecord(environment, facts) {
      if (facts.status.length > MAX_STATUS_LENGTH) return;
      await write(environment, [facts], queueKeysOf, (item, known) => recordEntry(known, item));
    },
    async forget(environment, keys) {
      await write(
        environment,
        [keys],
        (item) => [...item],
        () => null,
      );
    },
    members: async (environment, set, offset, count) => (await store.range(environment, [{ set, offset, count }]))[0] ?? [],
  };
}

/** The entry to write over what is known; undefined: nothing to change; null: remove the candidate. */
type Decide<T> = (item: T, known: IndexEntry | undefined) => IndexEntry | undefined | null;

/**
 * The writes for one candidate from what its keys found: its member (the one already known, else its
 * first key) and entry. When its two ids were known apart (a row listed by refId only, a record by
 * recordId), the two become one: the newer entry (by a date to trust) under the first member, the other removed.
 */
function planWrite(
  keys: string[],
  found: ReadonlyMap<string, StoredEntry>,
  decide: (known: IndexEntry | undefined) => IndexEntry | undefined | null,
): { member: string | undefined; writes: EntryWrite[] } {
  if (keys.length === 0) return { member: undefined, writes: [] };
  const stored = [...new Map(keys.flatMap((key) => (found.has(key) ? [[found.get(key)!.member, found.get(key)!] as const] : []))).values()];
  const [first, ...others] = stored;
  const member = first?.member ?? keys[0]!;
  // The newest by a date to trust: a doubtful one (2999, 1970) is no date here, as in every order.
  const now = Date.now();
  const dated = (entry: IndexEntry) => realSince(entry.since, now) ?? -1;
  const known = stored.reduce<StoredEntry | undefined>(
    (newest, one) => (!newest || dated(one.entry) > dated(newest.entry) ? one : newest),
    undefined,
  );
  const merged = known && others.length > 0 ? { ...first!.entry, ...known.entry, ...idsOf(stored.map((one) => one.entry)) } : known?.entry;
  const next = decide(merged);
  const removals: EntryWrite[] = others.map((other) => ({ member: other.member, expected: other.json, next: undefined }));
  if (next === null) return { member, writes: first ? [...removals, { member, expected: first.json, next: undefined }] : removals };
  if (next === undefined && others.length === 0) return { member, writes: [] };
  return { member, writes: [...removals, { member, expected: first?.json ?? '', next: next ?? merged }] };
}

const idsOf = (entries: readonly IndexEntry[]) => ({
  ...(entries.find((entry) => entry.recordId)?.recordId ? { recordId: entries.find((entry) => entry.recordId)!.recordId } : {}),
  ...(entries.find((entry) => entry.refId)?.refId ? { refId: entries.find((entry) => entry.refId)!.refId } : {}),
});
