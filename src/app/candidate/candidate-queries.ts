import { type QueryClient, QueryObserver, queryOptions } from '@tanstack/react-query';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import { setDownloadProgress } from './download-progress.ts';
import { ApiError } from '../api/api-error.ts';
import { fetchCandidate } from '../api/fetch-candidate.ts';

export const candidateQueries = {
  all: () => ['candidate'] as const,
  /** `environment`: as named in the URL; undefined for the default one. */
  lookup: (kind: LookupKind, id: string, environment?: string) =>
    queryOptions({
      queryKey: [...candidateQueries.all(), environment ?? null, kind, id] as const,
      queryFn: async ({ signal, queryKey, client }) => {
        const progressKey = JSON.stringify(queryKey);
        // The whole record in the place of its status level, shown first (an answer in parts), while a page shows it.
        const onRecord = (record: CandidateRecord) => {
          if (client.getQueryCache().find({ queryKey, exact: true })) client.setQueryData(queryKey, record);
        };
        try {
          return await fetchCandidate(kind, id, { signal, environment, onProgress: (p) => setDownloadProgress(progressKey, p), onRecord });
        } finally {
          setDownloadProgress(progressKey, undefined);
        }
      },
      // Personal data: dropped from memory as soon as no page shows it.
      gcTime: 0,
      // Each answer's pictures travel beside its record (picture-parts.ts): a refetched record that looks
      // the same must still replace the old one, or its pictures would download for nobody.
      structuralSharing: false,
      staleTime: 60_000,
      // Only a broken connection is worth one silent retry; every answer from the server is final.
      retry: (failureCount, error) => error instanceof ApiError && error.transient && failureCount < 1,
    }),
};

export function progressKeyOf(kind: LookupKind, id: string, environment?: string): string {
  return JSON.stringify(candidateQueries.lookup(kind, id, environment).queryKey);
}

/** Long enough for the page to take over a lookup started for it; a page that never comes lets it go then. */
const HANDOVER_MS = 10_000;

/**
 * Starts a lookup from the search box, before the page it leads to has rendered (its fetch would start
 * only once the page had rendered and subscribed). Watched here until the page's own query observer takes
 * it over: with `gcTime: 0` an answer nobody watched would be dropped, and fetched a second time.
 */
export function startLookup(queryClient: QueryClient, kind: LookupKind, id: string, environment?: string): void {
  const observer = new QueryObserver(queryClient, candidateQueries.lookup(kind, id, environment));
  const { queryHash } = observer.getCurrentQuery();
  let release = () => {};
  const stopWatching = queryClient.getQueryCache().subscribe((event) => {
    // After a task: a page mounted twice in a row (React's Strict Mode) is watching by then.
    if (event.type === 'observerAdded' && event.observer !== observer && event.query.queryHash === queryHash) setTimeout(release, 0);
  });
  const timer = setTimeout(() => release(), HANDOVER_MS);
  const unsubscribe = observer.subscribe(() => {});
  release = () => {
    clearTimeout(timer);
    stopWatching();
    unsubscribe();
  };
}
