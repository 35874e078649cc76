import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { AuditFilter, AuditSearchAnswer } from '../../kyc/contract/audit-search.ts';
import { ApiError } from '../api/api-error.ts';
import { ServerWait, useWaiting } from '../candidate/retry-wait.tsx';
import { Card } from '../ui/card.tsx';
import { newSearch } from './audit-queries.ts';

/**
 * A lead's searches and exports of the trail take from one limit (limits.auditSearchesPerMinute): past
 * it the server refuses either with how long to wait. The page says so once, whichever was refused,
 * counting that wait down, and holds Search, Download CSV, Newer and Older until it ends: pressed before,
 * they would only be refused again. An export refused as a third under way at once (a `rate_limited` with
 * a `reason`) is no wait of this limit: it holds Download CSV alone (audit-export.tsx).
 */

/** A refusal by the lead's searches' limit (a `rate_limited` with no `reason`) that says when to ask again; anything else is no wait. */
export function waitOf(error: unknown): ApiError | undefined {
  if (!(error instanceof ApiError) || error.code !== 'rate_limited' || error.reason !== undefined) return undefined;
  return error.retryAt === undefined ? undefined : error;
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
 * notice and counted down, and nothing asked while it runs. A refused search goes back to the search and
 * page last answered, so that their rows stay shown under the notice instead of being taken away.
 * Otherwise each search pressed is a new one (its number, audit-queries.ts), asked of the server.
 */
export function useSearchWait(
  search: UseQueryResult<AuditSearchAnswer>,
  shown: {
    filter: AuditFilter;
    cursors: string[];
    searched: number;
    setFilter: (filter: AuditFilter) => void;
    setCursors: (cursors: string[]) => void;
    setSearched: (searched: number) => void;
  },
) {
  const waitId = useId();
  const [wait, setWait] = useState<ApiError>();
  const waiting = useWaiting(wait?.retryAt);
  const { filter, cursors, searched, setFilter, setCursors, setSearched } = shown;
  const answered = useRef<{ filter: AuditFilter; cursors: string[]; searched: number }>(undefined);
  useEffect(() => {
    if (search.data) answered.current = { filter, cursors, searched };
  }, [search.data, filter, cursors, searched]);
  const refused = waitOf(search.error);
  useEffect(() => {
    if (!refused) return;
    setWait(refused);
    if (answered.current) {
      setFilter(answered.current.filter);
      setCursors(answered.current.cursors);
      setSearched(answered.current.searched);
    }
  }, [refused, setFilter, setCursors, setSearched]);
  const searchFor = (next: AuditFilter) => {
    if (waiting) return;
    setWait(undefined);
    setFilter(next);
    setCursors([]);
    setSearched(newSearch());
  };
  return { wait, setWait, waiting, waitId, searchFor };
}
