import { createHmac, randomBytes } from 'node:crypto';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import type { Audit } from '../audit/audit-trail.ts';
import { ApiFailure } from '../http/api-failure.ts';
import type { Logger } from '../log/log.ts';
import type { SharedStore } from '../state/store.ts';
import { expiringKeys } from '../state/expiring-keys.ts';

/**
 * The candidates each user has opened lately, per environment: a hand-off (a copy, a print: `POST
 * /api/export`) is accepted only for a candidate its user was answered a lookup of, so that the audit
 * trail never shows someone copying the summary of a candidate they never opened, and nobody signed in
 * can plant a hand-off line about any id they like. A candidate is "opened" once a lookup's 200 line is
 * written (full or status level, in parts or plain, a batch's row too), under the kind and id the lookup
 * asked by, which are the kind and id the candidate page then names in its export.
 *
 * Kept in the shared store with REDIS_URL (every instance knows what a user opened on another), in this
 * process otherwise. The key is the environment and a keyed hash of the user, kind and id: it holds neither
 * a name nor an id in the clear, and the value is nothing but "1": no candidate data is stored.
 */
export interface OpenedCandidates {
  /** `user` was answered a lookup of this candidate: remembered for the time kept from now. Rejects when the store cannot be asked. */
  open(environment: string, user: string, kind: LookupKind, id: string): Promise<void>;
  /** Whether `user` opened this candidate within the time kept. Rejects (StoreUnavailableError) when the store cannot be asked. */
  wasOpened(environment: string, user: string, kind: LookupKind, id: string): Promise<boolean>;
  /** Forgets it: the answer began but turned out to be another candidate's record. */
  forget(environment: string, user: string, kind: LookupKind, id: string): Promise<void>;
}

/** At most this many opened candidates in one process's memory (about 20 MB): past it, the oldest go first. */
export const MAX_OPENED_IN_MEMORY = 100_000;

/**
 * The refusal of a copy of a candidate not opened lately. Only a copy meets it (a print is recorded,
 * marked), and the page that meets it shows the candidate: what went stale is its lookup, and a Refresh
 * (a new lookup) is what lets the copy through; "look this candidate up" read as nonsense beside them.
 */
export const NOT_LOOKED_UP = new ApiFailure(
  'not_looked_up',
  "This page's lookup is too old to record a copy: press Refresh, then copy again.",
);

/** The same refusal of a document file's save (`what: "file"`), in the words of a download. */
export const NOT_LOOKED_UP_FILE = new ApiFailure(
  'not_looked_up',
  "This page's lookup is too old to record the file's download: press Refresh, then download it again.",
);

/**
 * What an environment's hashes are keyed with in the shared store: a secret derived from its full API key,
 * which every instance serving that environment holds and nobody who can only read Redis (an operator, a
 * backup) does. A plain SHA-256 of the user, kind and id let them test "did ana open user-7781?" by
 * hashing guesses: the very who-looked-at-whom question the audit trail is kept from them for.
 */
export type OpenedSecrets = ReadonlyMap<string, Buffer>;

/** The secrets of these environments: each an HMAC of a fixed label with its full key, a secret of its own from which the key cannot be worked back. */
export function openedSecrets(environments: readonly { info: { name: string }; target: { apiKey: string } }[]): OpenedSecrets {
  return new Map(
    environments.map(({ info, target }) => [info.name, createHmac('sha256', target.apiKey).update('candidate-lookup:opened').digest()]),
  );
}

/** The environment in the clear (an operator may clear one), the rest HMAC'd as a JSON array: no two lists of parts give one text. */
function keyOf(secret: Buffer, environment: string, user: string, kind: LookupKind, id: string): string {
  return `opened:${environment}:${createHmac('sha256', secret)
    .update(JSON.stringify([user, kind, id]))
    .digest('hex')}`;
}

/** The key of a candidate in an environment of `secrets`; one of no environment served is a mistake in the wiring. */
function keyIn(secrets: OpenedSecrets, ...candidate: [string, string, LookupKind, string]): string {
  const secret = secrets.get(candidate[0]);
  if (!secret) throw new Error(`No secret for the opened candidates of the environment "${candidate[0]}".`);
  return keyOf(secret, ...candidate);
}

/** In the shared store (Redis): one SET with its expiry per lookup, one GET per export. */
export function openedIn(store: SharedStore, ttlMs: number, secrets: OpenedSecrets): OpenedCandidates {
  return {
    open: async (...candidate) => store.put(keyIn(secrets, ...candidate), '1', ttlMs),
    wasOpened: async (...candidate) => (await store.get(keyIn(secrets, ...candidate))) !== undefined,
    forget: async (...candidate) => store.delete(keyIn(secrets, ...candidate)),
  };
}

/**
 * In this process, at most `max`. Every entry is kept as long, so the map's insertion order is the order
 * they expire in (an entry opened again moves to the end), and the oldest is the first to go. Apart from
 * the memory store's records: tens of thousands of these would make its every put sweep them all. Keyed
 * with a secret of this process's own: no other instance reads them.
 */
export function openedInMemory(ttlMs: number, options: { now?: () => number; max?: number } = {}): OpenedCandidates {
  // Read at each call, not taken once: a test that moves the clock ahead (vi's fake Date) moves it here too.
  const now = options.now ?? (() => Date.now());
  const max = options.max ?? MAX_OPENED_IN_MEMORY;
  const kept = expiringKeys(max, now);
  const secret = randomBytes(32);
  return {
    async open(...candidate) {
      kept.set(keyOf(secret, ...candidate), ttlMs);
      kept.forgetExpired();
    },
    async wasOpened(...candidate) {
      return kept.live(keyOf(secret, ...candidate));
    },
    async forget(...candidate) {
      kept.delete(keyOf(secret, ...candidate));
    },
  };
}

/** Where the server keeps them: Redis when the shared store is Redis (keyed by each environment's API key), this process otherwise. */
export function openedCandidatesFor(
  store: SharedStore,
  ttlMs: number,
  environments: Parameters<typeof openedSecrets>[0],
): OpenedCandidates {
  return store.kind === 'redis' ? openedIn(store, ttlMs, openedSecrets(environments)) : openedInMemory(ttlMs);
}

/** Who opened what, for one lookup: its environment, user, kind and id. */
export interface OpenedBy {
  opened: OpenedCandidates;
  environment: string;
  user: string;
  kind: LookupKind;
  id: string;
  log: Logger;
}

/**
 * A lookup's audit that also records the candidate opened: once its 200 line is written (before the
 * answer leaves, so that a copy right after it finds it on any instance), and forgotten again when the
 * answer is cut as another candidate's.
 */
export function auditOpening(audit: Audit, by: OpenedBy): Audit {
  return async (status, code, options) => {
    const written = await audit(status, code, options);
    if (written && status === 200 && !options?.cut) await markOpened(by, 'open');
    // Only an answer that began (its 200 line written) and was then found to be another's had opened anything.
    else if (code === 'other_candidate' && options?.cut) await markOpened(by, 'forget');
    return written;
  };
}

/**
 * Tells the store a lookup (or a batch's row) opened its candidate, or forgets it. A store that cannot
 * be told costs the lookup nothing, only a warning: its copies are then refused, and its prints marked
 * as not looked up, until it is looked up again.
 */
export async function markOpened(by: OpenedBy, change: 'open' | 'forget'): Promise<void> {
  const { environment, user, kind, id } = by;
  try {
    await by.opened[change](environment, user, kind, id);
  } catch (error) {
    by.log.warn(`The candidate this lookup opened could not be recorded, so its export will be refused: ${(error as Error).message}`);
  }
}
