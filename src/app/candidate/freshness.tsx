import { useEffect, useRef, useState } from 'react';
import { statusApiPath } from '../../kyc/contract/api.ts';
import { encodeIdSegment, type LookupKind } from '../../kyc/contract/lookup.ts';
import { type CandidateRecord, candidateEnvelopeSchema } from '../../kyc/contract/schema.ts';
import { statusInfo } from '../../kyc/contract/status.ts';
import { apiRequest } from '../api/api-request.ts';
import { Button } from '../ui/button.tsx';
import { TimeStamp } from '../ui/time-stamp.tsx';
import { useNow } from '../ui/use-now.ts';

/** "Fetched 2 min ago", and a Refresh button that looks the candidate up again. */
export function Freshness({ fetchedAt, refreshing, onRefresh }: { fetchedAt: number; refreshing: boolean; onRefresh: () => void }) {
  const now = useNow(15_000);
  return (
    <span className="inline-flex items-center gap-2 text-sm text-slate-600 print:hidden">
      <span data-testid="fetched-at">
        {/* As on the applicants page: the moment with its zone, focusable, and how long ago ("now", never "in 1 second"). */}
        Fetched <TimeStamp date={new Date(fetchedAt)} now={new Date(Math.max(now.getTime(), fetchedAt))} />
      </span>
      <Button variant="secondary" size="sm" onClick={onRefresh} busy={refreshing}>
        {refreshing ? 'Refreshing…' : 'Refresh'}
      </Button>
    </span>
  );
}

/** The candidate at status level: no identity data or pictures fetched again, never kept in the HTTP cache. */
export async function checkStatus(
  environment: string | undefined,
  kind: LookupKind,
  id: string,
  signal: AbortSignal,
): Promise<CandidateRecord> {
  const path = statusApiPath(kind, encodeIdSegment(id), environment);
  const { data } = await apiRequest(path, candidateEnvelopeSchema, { signal, cache: 'no-store' });
  return data;
}

/** Away from the tab for longer than this, a status check runs when it comes back. */
export const AWAY_MS = 60_000;

/**
 * When the tab comes back after more than a minute away, asks the server for the candidate's status
 * (status level, so no identity data is fetched again) and returns the new status if it changed.
 */
export function useStatusChange(environment: string | undefined, kind: LookupKind, id: string, shownStatus: string): string | undefined {
  const [changed, setChanged] = useState<string>();
  const leftAt = useRef<number | undefined>(undefined);
  useEffect(() => {
    const controller = new AbortController();
    const check = async () => {
      try {
        const data = await checkStatus(environment, kind, id, controller.signal);
        if (data.status !== shownStatus) setChanged(data.status);
      } catch {
        // A failed check changes nothing on the page; the next return to the tab tries again.
      }
    };
    const away = () => {
      leftAt.current ??= Date.now();
    };
    const back = () => {
      if (document.visibilityState !== 'visible' || leftAt.current === undefined) return;
      const awayFor = Date.now() - leftAt.current;
      leftAt.current = undefined;
      if (awayFor > AWAY_MS) void check();
    };
    const onVisibility = () => (document.visibilityState === 'hidden' ? away() : back());
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('blur', away);
    window.addEventListener('focus', back);
    return () => {
      controller.abort();
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('blur', away);
      window.removeEventListener('focus', back);
    };
  }, [environment, kind, id, shownStatus]);
  return changed === shownStatus ? undefined : changed;
}

/** Says the status changed since the page was loaded, and offers to load it again. */
export function StatusChangeBanner({ from, to, onReload }: { from: string; to: string; onReload: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-3 rounded-xl border border-blue-300 bg-blue-50 p-4 text-blue-950 print:hidden"
    >
      <span>
        The status changed from <strong>{statusInfo(from).label}</strong> to <strong>{statusInfo(to).label}</strong> since this page was
        loaded.
      </span>
      <Button onClick={onReload}>Refresh now</Button>
    </div>
  );
}
