import { useSyncExternalStore } from 'react';
import { isLookupKind, type LookupKind } from '../../kyc/contract/lookup.ts';
import { clearVisited } from './visited.ts';

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

/** The limits of what a stored entry may hold: anything else in sessionStorage was not written by this app. */
const MAX_LENGTHS = { id: 512, status: 64, environment: 64, at: 40 } as const;

/** An entry as stored, checked by hand: zod is not part of the first load, which shows this list. */
function storedEntry(value: unknown): RecentLookup | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, id, status, environment, at } = value as Record<string, unknown>;
  const fits = (text: unknown, max: number): text is string => typeof text === 'string' && text.length <= max;
  if (typeof kind !== 'string' || !isLookupKind(kind) || !fits(id, MAX_LENGTHS.id) || !fits(status, MAX_LENGTHS.status)) return undefined;
  if (!fits(environment, MAX_LENGTHS.environment) || !fits(at, MAX_LENGTHS.at)) return undefined;
  return { kind, id, status, environment, at };
}

let entries: RecentLookup[] = load();
const listeners = new Set<() => void>();

function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined; // storage disabled by the browser's settings
  }
}

/** The list as sessionStorage holds it (JSON text, or null): none at all when any of it is not the app's. */
export function readStoredLookups(text: string | null): RecentLookup[] {
  let stored: unknown;
  try {
    stored = JSON.parse(text ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(stored)) return [];
  const checked = stored.map(storedEntry);
  return checked.every((entry) => entry !== undefined) ? checked.slice(0, MAX_RECENT) : [];
}

function load(): RecentLookup[] {
  try {
    return readStoredLookups(storage()?.getItem(STORAGE_KEY) ?? null);
  } catch {
    return []; // storage refused the read
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

/**
 * The status a page now shows of a candidate in the list (a live update changed it): its entry says it,
 * in its place and with the time it was looked up, since no new lookup was made.
 */
export function noteRecentStatus(lookup: Omit<RecentLookup, 'at'>): void {
  const { kind, id, status, environment } = lookup;
  const index = entries.findIndex((e) => e.kind === kind && e.id === id && e.environment === environment);
  const entry = entries[index];
  if (!entry || entry.status === status) return;
  publish(entries.with(index, { ...entry, status }));
}

/** Forgets the list, and with it the candidates this tab opened (the queue's "Opened" marks). */
export function clearRecentLookups(): void {
  publish([]);
  clearVisited();
}

const OWNER_KEY = 'candidate-lookup:recent-owner';

/**
 * The list belongs to whoever is signed in. A session can end without a sign-out (it expired, another
 * tab signed out): when someone else is signed in next, the list starts empty.
 */
export function giveRecentLookupsTo(user: string): void {
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
