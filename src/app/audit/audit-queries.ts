import { queryOptions } from '@tanstack/react-query';
import { AUDIT_PATHS, type AuditFilter, type AuditSearchAnswer, auditSearchAnswerSchema } from '../../kyc/contract/audit-search.ts';
import { type AuditStatus, auditStatusSchema } from '../../kyc/contract/audit-status.ts';
import { downloadName } from '../../kyc/contract/download-name.ts';
import { ApiError } from '../api/api-error.ts';
import { apiRequest, apiResponse } from '../api/api-request.ts';
import { saveBlob } from '../ui/save-blob.ts';

/**
 * The audit page's calls (issue 34). A search is POSTed: the filter (a user, a candidate's id) stays out
 * of the URL, and so out of proxies' logs and the browser's history. Every search is audited on the
 * server, so nothing here asks again by itself: no refetch on focus, no retry, a page kept as long as it
 * is shown.
 *
 * A lead's search is asked each time it is pressed, a filter searched before too: the trail grows while
 * the page is open, and the search itself is an audited action. Each press is a search of its own, by its
 * number in the key (`newSearch`); its pages (Newer, Older) share that number, so going back a page shows
 * the page as that search found it, and Back from a row's candidate finds the same search in memory.
 */

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
  cache: 'no-store',
});

let searches = 0;

/** A new search's number, never one given before in this tab (a number taken back after a refusal is not given again). */
export function newSearch(): number {
  searches += 1;
  return searches;
}

export const auditQueries = {
  all: () => ['audit'] as const,
  search: (filter: AuditFilter, cursor: string | undefined, searched: number) =>
    queryOptions({
      queryKey: [...auditQueries.all(), 'search', searched, filter, cursor ?? ''] as const,
      queryFn: ({ signal }): Promise<AuditSearchAnswer> =>
        apiRequest(AUDIT_PATHS.search, auditSearchAnswerSchema, { ...json({ ...filter, ...(cursor ? { cursor } : {}) }), signal }),
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: 5 * 60_000,
      retry: false,
      refetchOnWindowFocus: false,
    }),
  /** Each instance's files and chains: asked again every 30 s while the page is open (not audited: no candidate in it). */
  status: () =>
    queryOptions({
      queryKey: [...auditQueries.all(), 'status'] as const,
      queryFn: ({ signal }): Promise<AuditStatus> => apiRequest(AUDIT_PATHS.status, auditStatusSchema, { signal, cache: 'no-store' }),
      refetchInterval: 30_000,
      retry: (failureCount, error) => error instanceof ApiError && error.transient && failureCount < 1,
    }),
};

/**
 * The filtered rows as CSV, handed to the browser as a download, named by the reviewer's clock as the
 * batch page names its CSV (downloadName, kyc/contract/download-name.ts). This name is the only one a
 * reviewer sees: the export is reached by this fetch alone (a POST with the app's header, which no link or
 * form can send), and a Blob keeps none of the answer's headers, so the server's `content-disposition`
 * (its own clock, for scripts) never names a file in a browser, even one that ignored `download`.
 */
export async function downloadAuditCsv(filter: AuditFilter): Promise<void> {
  const response = await apiResponse(AUDIT_PATHS.export, json(filter));
  const blob = await response.blob();
  saveBlob(blob, downloadName('audit', new Date()));
}
