import { useId, useState } from 'react';
import type { AuditFilter } from '../../kyc/contract/audit-search.ts';
import { ApiError, asApiError } from '../api/api-error.ts';
import { ServerWait, useWaiting } from '../candidate/retry-wait.tsx';
import { Card } from '../ui/card.tsx';
import { sameFilter } from './audit-draft.ts';
import { downloadAuditCsv } from './audit-queries.ts';
import { waitOf } from './audit-wait.tsx';

/**
 * Download CSV: the filters the table shows, as a file (audit-queries.ts). Past the lead's searches' limit
 * it is refused with their wait, which holds it with Search, Newer and Older (audit-wait.tsx). A third
 * export while two of the lead's are still under way is refused too (`429 rate_limited`, its `reason`
 * `exports_under_way`), but only another download would be: its own notice says so and counts its wait
 * down, and holds Download CSV alone. Before, it was said as the searches' limit and held Search for 5 s,
 * which was not limited at all.
 */

/** A refusal of an export because two of the lead's are still under way, that says when to ask again. */
export function exportsWaitOf(error: unknown): ApiError | undefined {
  if (!(error instanceof ApiError) || error.code !== 'rate_limited' || error.reason !== 'exports_under_way') return undefined;
  return error.retryAt === undefined ? undefined : error;
}

/**
 * The export of the filters asked (`exportCsv`), and what held or refused it: the searches' wait is said
 * by the page's one notice (`setWait`), the downloads' by ExportWaitNotice, any other failure in a line.
 */
export function useAuditExport({
  filter,
  waiting,
  searchFor,
  setWait,
}: {
  /** The filters the table shows. */
  filter: AuditFilter;
  /** The searches' wait runs (useSearchWait): nothing is asked. */
  waiting: boolean;
  searchFor: (filter: AuditFilter) => void;
  setWait: (wait: ApiError) => void;
}) {
  const exportWaitId = useId();
  const [exporting, setExporting] = useState(false);
  const [exportProblem, setExportProblem] = useState<string>();
  const [exportWait, setExportWait] = useState<ApiError>();
  const exportWaiting = useWaiting(exportWait?.retryAt);
  const exportCsv = (wanted: AuditFilter) => {
    if (waiting || exportWaiting) return;
    // The file is what the table then shows: filters typed but not searched are searched too; those shown
    // are not searched again, which would take a second of the lead's searches a minute for every file.
    if (!sameFilter(wanted, filter)) searchFor(wanted);
    setExporting(true);
    setExportProblem(undefined);
    setExportWait(undefined);
    downloadAuditCsv(wanted)
      .catch((error: unknown) => {
        const limited = waitOf(error);
        const underWay = exportsWaitOf(error);
        if (limited) setWait(limited);
        else if (underWay) setExportWait(underWay);
        else setExportProblem(asApiError(error, 'The export could not be read.').message);
      })
      .finally(() => setExporting(false));
  };
  return { exportCsv, exporting, exportProblem, exportWait, exportWaitId, exportHeldBy: exportWaiting ? exportWaitId : undefined };
}

/**
 * The notice of the downloads' wait: the server's sentence ("You already have 2 downloads of the audit
 * trail under way…"), its "Try again in 5 s." counted down (ServerWait), and that only Download CSV waits.
 */
export function ExportWaitNotice({ id, wait }: { id: string; wait: ApiError }) {
  const waiting = useWaiting(wait.retryAt);
  return (
    <Card id={id} tone="warning" role="alert" className="text-sm">
      <ServerWait error={wait} over="The wait is over: Download CSV can be used again." />
      {waiting && ' Only Download CSV waits: Search, Newer and Older can be used meanwhile.'}
    </Card>
  );
}
