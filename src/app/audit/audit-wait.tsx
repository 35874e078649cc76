import { type UseQueryResult, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { AuditFilter, AuditSearchAnswer } from '../../kyc/contract/audit-search.ts';
import { ApiError } from '../api/api-error.ts';
import { ServerWait, useWaiting } from '../candidate/retry-wait.tsx';
import { Card } from '../ui/card.tsx';
import { auditQueries } from './audit-queries.ts';

/**
 * A lead's searches and exports of the trail take from one limit (limits.auditSearchesPerMinute): past
 * it the server refuses either with how long to wait. The page says so once, whichever was refused,
 * counting that wait down, and holds Search, Download CSV, Newer and Older until it ends: pressed before,
 * they would only be refused again.
 */

/** A refusal by this server's limit that says when to ask again; anything else is no wait. */
export function waitOf(error: unknown): ApiError | undefined {
  return error instanceof ApiError && error.code === 'rate_limited' && error.retryAt !== undefined ? error : undefined;
}

/**
 * The one notice of the wait: the server's sentence, its "Try again in 46 s." counted down (ServerWait),
 * and whether the rows below are the last search answered, kept rather than taken away.
 */
export function WaitNotice({ id, wait, kept }: { id: string; wait: ApiError; kept: boolean }) {
  return (
    <Card id={id} tone="warning" role="alert" className="text-sm">
      <ServerWait error={wait} over="The wait is over: Search, Download CSV, Newer and Older can be used again." />
      {kept && ' The results below are those of the last search answered.'}
    </Card>
  );
}

/**
 * Searches and exports past the lead's limit (above): the wait of the latest refusal, said in one
 * notice and counted down, and nothing asked while it runs. A refused search goes back to the filter and
 * page last answered, so that their rows stay shown under the notice instead of being taken away.
 */
export function useSearchWait(
  search: UseQueryResult<AuditSearchAnswer>,
  shown: { filter: AuditFilter; cursors: string[]; setFilter: (filter: AuditFilter) => void; setCursors: (cursors: string[]) => void },
) {
  const queryClient = useQueryClient();
  const waitId = useId();
  const [wait, setWait] = useState<ApiError>();
  const waiting = useWaiting(wait?.retryAt);
  const { filter, cursors, setFilter, setCursors } = shown;
  const answered = useRef<{ filter: AuditFilter; cursors: string[] }>(undefined);
  useEffect(() => {
    if (search.data) answered.current = { filter, cursors };
  }, [search.data, filter, cursors]);
  const refused = waitOf(search.error);
  useEffect(() => {
    if (!refused) return;
    setWait(refused);
    if (answered.current) {
      setFilter(answered.current.filter);
      setCursors(answered.current.cursors);
    }
  }, [refused, setFilter, setCursors]);
  const searchFor = (next: AuditFilter) => {
    if (waiting) return;
    setWait(undefined);
    setFilter(next);
    setCursors([]);
    // The same search refused with nothing answered before it is still the page's: asked again, it is fetched again.
    const key = auditQueries.search(next, undefined).queryKey;
    void queryClient.refetchQueries({ queryKey: key, exact: true, predicate: (query) => waitOf(query.state.error) !== undefined });
  };
  return { wait, setWait, waiting, waitId, searchFor };
}
