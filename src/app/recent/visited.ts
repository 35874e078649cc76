import { useSyncExternalStore } from 'react';

/**
 * The candidates opened in this tab, by environment and id (refId and recordId alike), for the queue to
 * mark their rows "Opened". In memory only, never in storage: a reload or a new tab starts without them,
 * and they go with the recent lookups at sign-in and sign-out.
 */
let opened: ReadonlySet<string> = new Set();
const listeners = new Set<() => void>();
const clearedListeners = new Set<() => void>();

const keyOf = (environment: string, id: string) => `${environment}\u0000${id}`;

/** The candidate with these ids, in this environment (its name), was opened. */
export function markVisited(environment: string, ids: ReadonlyArray<string | null | undefined>): void {
  const keys = ids.filter((id): id is string => Boolean(id)).map((id) => keyOf(environment, id));
  if (keys.every((key) => opened.has(key))) return;
  opened = new Set([...opened, ...keys]);
  for (const listener of listeners) listener();
}

export function clearVisited(): void {
  for (const listener of clearedListeners) listener();
  if (opened.size === 0) return;
  opened = new Set();
  for (const listener of listeners) listener();
}

/** Calls `listener` whenever this tab's memory of opened candidates is cleared (sign-in, sign-out), for what else it remembers of them. */
export function onVisitedCleared(listener: () => void): void {
  clearedListeners.add(listener);
}

/** Whether a candidate with any of these ids was opened in this tab, in this environment. */
export function wasVisited(set: ReadonlySet<string>, environment: string, ids: ReadonlyArray<string | null | undefined>): boolean {
  return ids.some((id) => Boolean(id) && set.has(keyOf(environment, id!)));
}

/** The opened candidates, kept current: read with wasVisited. */
export function useVisited(): ReadonlySet<string> {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => opened,
  );
}
