import type { AuditSearchAnswer } from '../../kyc/contract/audit-search.ts';
import { lagText, notReportingText } from '../../kyc/view/audit-labels.ts';
import { formatDateTime } from '../../kyc/view/time.ts';
import { Notice } from './section.tsx';
import { useNow } from './use-now.ts';
import { useZoneMode } from './zone-mode.ts';

/**
 * Under a search's rows (the audit page's, a candidate's Activity): where they were read, how far the table
 * is behind, which instances are not reporting, how far back the files were searched; nothing when the
 * rows are the whole trail. `onwards`: what the reader can do where the search stopped.
 */
export function SourceNote({ answer, onwards }: { answer: Pick<AuditSearchAnswer, 'source' | 'searched'>; onwards: string }) {
  const now = useNow(10_000);
  const zone = useZoneMode();
  const { source, searched } = answer;
  const behind = source.behind ?? [];
  const silent = source.notReporting ?? [];
  if (!source.fallback && behind.length === 0 && silent.length === 0 && (!searched || searched.complete)) return null;
  return (
    <Notice tone="warning">
      {source.fallback && <>The audit table cannot be read ({source.fallback}): these are this server's files only. </>}
      {behind.map((lag) => (
        <span key={lag.instance} className="block">
          {lagText(lag, now, zone)}.
        </span>
      ))}
      {silent.map((instance) => (
        <span key={instance.instance} className="block">
          {instance.instance}: {notReportingText(instance.since, now, zone)}
        </span>
      ))}
      {searched && !searched.complete && (
        <span className="block">
          Searched {searched.lines.toLocaleString('en')} lines
          {searched.reachedBack ? `, back to ${formatDateTime(new Date(searched.reachedBack), { zone, seconds: true })}` : ''}, then stopped
          ({searched.stoppedBy === 'time' ? 'the time one search may take' : 'the lines one search may read'}): {onwards}
        </span>
      )}
    </Notice>
  );
}
