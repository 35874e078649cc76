import { needsAttention } from '../../kyc/contract/certificate-triage.ts';
import { dateDoubt, PLACEHOLDER_BEFORE } from '../../kyc/contract/date-doubt.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { groupOf, type QueueGroup } from '../../kyc/contract/queue-order.ts';

export { groupOf, NEWEST_FIRST_GROUPS, QUEUE_GROUPS, type QueueGroup } from '../../kyc/contract/queue-order.ts';

/**
 * One candidate as the queue index holds it (issue 32): its ids, its status and the date it entered
 * that status, the archive flag, and what a compliance user's lookup showed of it for triage (the
 * certificates' outcome, whether it has pictures). Never a name, an attribute or a picture: nothing
 * personal. Stored as compact JSON (`encodeEntry`), a few hundred bytes at most.
 */
export interface IndexEntry {
  recordId?: string;
  refId?: string;
  status: string;
  /** When it entered `status` (ms since 1970); undefined: not known yet (the older list has no dates). */
  since?: number;
  /** Where the service listed it when its date was not known: the order of the rows without a date. */
  position?: number;
  /** Looked up, and the service's record holds no date of its status: "no date in the service's record", not "not known yet". */
  dateless?: true;
  /**
   * When a lookup last read its record and found no date to trust (none, a placeholder, one in the
   * future; ms): the crawler does not look it up again before a day has passed (queue-index.ts).
   */
  checkedAt?: number;
  isArchived?: boolean;
  blockPassID?: string;
  /** The spec's name for it, where the service sends that (service-id.ts). */
  serviceID?: string;
  /** Fields of the service's list record that could not be read: what was expected (never a value). */
  unreadable?: Record<string, string>;
  /** The worst certificate outcome a compliance user's lookup showed (`clear`, `consider`, `potential_match`…). */
  certificate?: string;
  /** Whether that lookup's record held pictures. */
  pictures?: boolean;
  /** When the index learnt those two (ms since 1970): a batch's row says "as of" it. Absent: learnt before it was kept. */
  triageAt?: number;
}

/**
 * A candidate's key: `recordId:<id>` or `refId:<id>`, the kind said, since the current documentation's
 * list records have no recordId and one id may be either. The index holds each candidate under one key
 * (its member) and points its other key there (an alias), so that a later source that gives only one of
 * its ids finds it.
 */
export type QueueKey = `${LookupKind}:${string}`;

export const queueKey = (kind: LookupKind, id: string): QueueKey => `${kind}:${id}`;

/** A record's keys, its recordId's first (the service's own id); none without an id. */
export function queueKeysOf(ids: { recordId?: string | null | undefined; refId?: string | null | undefined }): QueueKey[] {
  return [...(ids.recordId ? [queueKey('recordId', ids.recordId)] : []), ...(ids.refId ? [queueKey('refId', ids.refId)] : [])];
}

/** The kind and id of a key (undefined: not a key). */
export function parseQueueKey(key: string): { kind: LookupKind; id: string } | undefined {
  const colon = key.indexOf(':');
  const kind = key.slice(0, colon);
  if (colon < 1 || (kind !== 'recordId' && kind !== 'refId')) return undefined;
  return { kind, id: key.slice(colon + 1) };
}

/**
 * The sorted sets of a group: `z` dated (score: the date), `u` not dated yet (score: the list position),
 * `x` needing attention, and `n` (counted, never listed: its members are in `u` too) those of `u` whose
 * record has no date to order by (none, or a placeholder): not a date still to come.
 */
export type SetName = `${'z' | 'u' | 'x' | 'n'}:${QueueGroup}`;
/** The score of an entry needing attention whose date is not known: after every date. */
export const UNDATED_SCORE = 8_640_000_000_000_000;

/**
 * The date an entry is ordered by: its since, unless that is a placeholder (date-doubt.ts: before 2000,
 * `1970-01-01`), which orders nothing and counts toward no SLA. Not read against the clock, so that an
 * entry's place never moves by itself (the sets are rewritten from it).
 */
const orderingSince = (entry: IndexEntry) => (entry.since !== undefined && entry.since >= PLACEHOLDER_BEFORE ? entry.since : undefined);

/** Where an entry is: the sets holding its member, with their scores (as text: exact in Redis and in Lua). */
export function placementOf(entry: IndexEntry): Array<[SetName, string]> {
  const group = groupOf(entry.status);
  const since = orderingSince(entry);
  const sets: Array<[SetName, string]> = [
    since === undefined ? [`u:${group}`, String(entry.position ?? 0)] : [`z:${group}`, String(since)],
  ];
  if (needsAttention(entry.certificate)) sets.push([`x:${group}`, String(since ?? UNDATED_SCORE)]);
  if (since === undefined && (entry.dateless || entry.since !== undefined)) sets.push([`n:${group}`, String(entry.position ?? 0)]);
  return sets;
}

/**
 * A row whose record a lookup read with no date to trust (none, a placeholder, one in the future) is
 * looked up again after this long, not on every crawl (a lookup costs a request against the service's
 * rate limit that every reviewer shares); sooner when its status changes (the list's, a webhook's).
 */
export const RECHECK_UNDATED_MS = 24 * 3_600_000;

/** Whether the crawler is to look a listed row up at `at` for its date: none to trust known, and none looked for within a day. */
export function lookupDue(entry: IndexEntry, at: number): boolean {
  if (entry.since !== undefined && dateDoubt(entry.since, at) === undefined) return false;
  return entry.checkedAt === undefined || at - entry.checkedAt >= RECHECK_UNDATED_MS;
}

/** The keys of an entry other than its member: where aliases point from. */
export const aliasesOf = (member: string, entry: IndexEntry): string[] => queueKeysOf(entry).filter((key) => key !== member);

/**
 * What an entry costs, in bytes of text as stored: its JSON and member, the member again in each set,
 * and each alias with the member it points to. The index's bound in bytes counts this (Redis's own
 * overhead per field comes on top: docs/deploying.md gives the measured total per 1 000 candidates).
 */
export function weightOf(member: string, entry: IndexEntry | undefined): number {
  if (!entry) return 0;
  const memberBytes = Buffer.byteLength(member);
  const aliases = aliasesOf(member, entry).reduce((sum, alias) => sum + Buffer.byteLength(alias) + memberBytes, 0);
  return Buffer.byteLength(encodeEntry(entry)) + memberBytes * (1 + placementOf(entry).length) + aliases;
}

/** Compact JSON: one-letter fields, absent ones left out. */
export function encodeEntry(entry: IndexEntry): string {
  return JSON.stringify({
    s: entry.status,
    t: entry.since,
    p: entry.position,
    n: entry.dateless ? 1 : undefined,
    l: entry.checkedAt,
    r: entry.recordId,
    f: entry.refId,
    a: entry.isArchived === undefined ? undefined : entry.isArchived ? 1 : 0,
    b: entry.blockPassID,
    v: entry.serviceID,
    u: entry.unreadable,
    c: entry.certificate,
    g: entry.pictures === undefined ? undefined : entry.pictures ? 1 : 0,
    k: entry.triageAt,
  });
}

const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** An entry read back; one written by hand or by another version is read only if it has the entry's shape. */
export function decodeEntry(json: string): IndexEntry | undefined {
  let value: Record<string, unknown>;
  try {
    const parsed = JSON.parse(json) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
    value = parsed as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const status = text(value.s);
  if (!status) return undefined;
  const unreadable =
    value.u && typeof value.u === 'object' && !Array.isArray(value.u)
      ? Object.fromEntries(Object.entries(value.u).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
      : undefined;
  const entry: IndexEntry = {
    status,
    ...(isFiniteNumber(value.t) ? { since: value.t } : {}),
    ...(isFiniteNumber(value.p) ? { position: value.p } : {}),
    ...(value.n === 1 ? { dateless: true as const } : {}),
    ...(isFiniteNumber(value.l) ? { checkedAt: value.l } : {}),
    ...(text(value.r) ? { recordId: text(value.r)! } : {}),
    ...(text(value.f) ? { refId: text(value.f)! } : {}),
    ...(value.a === 0 || value.a === 1 ? { isArchived: value.a === 1 } : {}),
    ...(text(value.b) ? { blockPassID: text(value.b)! } : {}),
    ...(text(value.v) ? { serviceID: text(value.v)! } : {}),
    ...(unreadable && Object.keys(unreadable).length > 0 ? { unreadable } : {}),
    ...(text(value.c) ? { certificate: text(value.c)! } : {}),
    ...(value.g === 0 || value.g === 1 ? { pictures: value.g === 1 } : {}),
    ...(isFiniteNumber(value.k) ? { triageAt: value.k } : {}),
  };
  return queueKeysOf(entry).length > 0 ? entry : undefined;
}

/**
 * Redis's order of members with equal scores: their bytes (UTF-8), compared as memcmp does. JavaScript
 * compares UTF-16 code units, which differs only where a surrogate meets a unit of U+E000 to U+FFFF.
 */
export function compareMembers(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}
