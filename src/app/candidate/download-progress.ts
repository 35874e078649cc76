import { useSyncExternalStore } from 'react';
import type { DownloadProgress } from '../api/fetch-candidate.ts';

/** Bytes received of each response still downloading, keyed by query, for the loading indicator. */
const progress = new Map<string, DownloadProgress>();
const listeners = new Set<() => void>();

export function setDownloadProgress(key: string, value: DownloadProgress | undefined): void {
  if (value) progress.set(key, value);
  else progress.delete(key);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useDownloadProgress(key: string): DownloadProgress | undefined {
  return useSyncExternalStore(subscribe, () => progress.get(key));
}
