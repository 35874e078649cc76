import { useSyncExternalStore } from 'react';
import { z } from '../../kyc/contract/zod.ts';
import { LOOKUP_KINDS, type LookupKind } from '../../kyc/contract/lookup.ts';

/**
 * The last lookups of this tab: kind, id, status, environment and when. Never a name or identity data.
 * Kept in memory and in sessionStorage (so a reload keeps them, closing the tab forgets them), and
 * cleared at sign-in and sign-out so that the next person at the desk does not see them.
 */
export interface RecentLookup {
  kind: LookupKind;
  id: string;
  status: string;
  environment: string;
  /** ISO time of the lookup. */
  at: string;
}

export const MAX_RECENT = 20;
const STORAGE_KEY = 'candidate-lookup:recent';

const storedSchema = z.array(
  z.object({
    kind: z.enum(LOOKUP_KINDS),
    id: z.string().check(z.maxLength(512)),
    status: z.string().check(z.maxLength(64)),
    environment: z.string().check(z.maxLength(64)),
    at: z.string().check(z.maxLength(40)),
  }),
);

let entries: RecentLookup[] = load();
const listeners = new Set<() => void>();

function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined; // storage disabled by the browser's settings
  }
}

function load(): RecentLookup[] {
  try {
    const parsed = storedSchema.safeParse(JSON.parse(storage()?.getItem(STORAGE_KEY) ?? '[]'));
    return parsed.success ? parsed.data.slice(0, MAX_RECENT) : [];
  } catch {
    return [];
  }
}

function publish(next: RecentLookup[]): void {
  entries = next;
  try {
    if (next.length === 0) storage()?.removeItem(STORAGE_KEY);
    else storage()?.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Full or disabled storage: the list lives in memory for this page only.
  }
  for (const listener of listeners) listener();
}

/** Puts a lookup first; the same id in the same environment is listed once. */
export function rememberLookup(lookup: RecentLookup): void {
  const { kind, id, status, environment, at } = lookup;
  const others = entries.filter((e) => !(e.kind === kind && e.id === id && e.environment === environment));
  publish([{ kind, id, status, environment, at }, ...others].slice(0, MAX_RECENT));
}

export function clearRecentLookups(): void {
  publish([]);
}

const OWNER_KEY = 'candidate-lookup:recent-owner';

/**
 * The list belongs to whoever is signed in. A session can end without a sign-out (it expired, another
 * tab signed out): when someone else is signed in next, the list starts empty.
 */
export function keepRecentLookupsFor(user: string): void {
  try {
    const owner = storage()?.getItem(OWNER_KEY);
    if (owner !== null && owner !== undefined && owner !== user) clearRecentLookups();
    storage()?.setItem(OWNER_KEY, user);
  } catch {
    // Without storage the list lives in this page's memory only, and goes with it.
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useRecentLookups(): RecentLookup[] {
  return useSyncExternalStore(
    subscribe,
    () => entries,
    () => entries,
  );
}
