import type { AuditStatus, InstanceState } from '../../kyc/contract/audit-status.ts';
import { chainText, lagText, notReportingText, stoppedText } from '../../kyc/view/audit-labels.ts';
import { formatRelative } from '../../kyc/view/time.ts';
import { Card } from '../ui/card.tsx';
import { useNow } from '../ui/use-now.ts';
import { useZoneMode } from '../ui/zone-mode.ts';

/**
 * Whether the trail is whole: each instance's audit files, each file's hash chain as last checked ("intact
 * to line 1,204,331, last line 2 seconds ago", or where it breaks), and how far the table is behind the
 * files. This server's files are checked as the page asks; the others' as they last reported.
 */
export function ChainState({ status }: { status: AuditStatus }) {
  return (
    <Card as="section" aria-labelledby="audit-files-title" className="space-y-3">
      <h2 id="audit-files-title" className="text-base font-semibold text-slate-900">
        Audit files and their hash chains
      </h2>
      <p className="text-sm text-slate-600">
        {status.source.kind === 'database'
          ? status.instances.every((instance) => !instance.notReporting && !instance.behind)
            ? `Every instance's lines are in the audit table (kept ${status.retentionDays ?? '?'} days); the files are the record.`
            : `Some instances' lines may be missing from the audit table (kept ${status.retentionDays ?? '?'} days), as said below; the files are the record.`
          : status.source.fallback
            ? `The audit table cannot be read (${status.source.fallback}): this server's files are shown.`
            : status.fileBounds
              ? `No audit table: this server's files are searched, at most ${status.fileBounds.maxLines.toLocaleString('en')} lines or ${status.fileBounds.maxMs / 1000} s a search.`
              : "This server's files are searched."}
      </p>
      <ul className="space-y-3">
        {status.instances.map((instance) => (
          <InstanceFiles key={instance.instance} instance={instance} />
        ))}
      </ul>
    </Card>
  );
}

/**
 * At the top of the page when a file's hash chain is broken: a lead must not read the trail without
 * knowing that part of it was changed. The details stay in the card below the results.
 */
export function BrokenChainAlert({ status }: { status: AuditStatus }) {
  const broken = status.instances.flatMap((instance) =>
    instance.files
      .filter((file) => !file.intact)
      .map((file) => `${instance.instance}: ${file.file} at line ${(file.broken?.line ?? file.lines + 1).toLocaleString('en')}`),
  );
  if (broken.length === 0) return null;
  return (
    <p role="alert" className="rounded-xl border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900" data-testid="chain-broken">
      <span className="font-semibold">The audit trail's hash chain is broken</span> ({broken.join('; ')}): lines there may have been changed
      or removed since they were written. Rows after the last line the chain vouches for are marked "Not vouched for by the chain" (by their
      place in the file, whatever date they carry); a removed line shows nowhere, so read the file there too. See{' '}
      <a href="#audit-files-title" className="underline underline-offset-2 focus-ring">
        Audit files and their hash chains
      </a>{' '}
      below, and tell whoever runs Candidate Lookup.
    </p>
  );
}

function InstanceFiles({ instance }: { instance: InstanceState }) {
  const now = useNow(10_000);
  const zone = useZoneMode();
  const reported = instance.self
    ? 'this server'
    : `${instance.stopped ? 'stopped' : 'reported'} ${formatRelative(new Date(instance.reportedAt), now, { zone })}`;
  return (
    <li data-instance={instance.instance}>
      <h3 className="text-sm font-semibold text-slate-900">
        {instance.instance} <span className="font-normal text-slate-600">({reported})</span>
      </h3>
      <ul className="mt-1 space-y-1 text-sm">
        {instance.files.map((file) => (
          <li key={file.file} data-intact={file.intact} className={file.intact ? 'text-slate-800' : 'font-medium text-red-800'}>
            <span aria-hidden="true">{file.intact ? '✓ ' : '✗ '}</span>
            <span className="font-mono">{file.file}</span>: {chainText(file, now, zone)}
            {file.notes?.map((note) => (
              <span key={note} className="block text-xs font-normal text-slate-600">
                {note}
              </span>
            ))}
          </li>
        ))}
        {instance.notReporting && <li className="text-amber-900">{notReportingText(instance.reportedAt, now, zone)}</li>}
        {instance.stopped && (
          <li className={instance.behind ? 'text-amber-900' : 'text-slate-600'} data-stopped="">
            {stoppedText(instance.reportedAt, instance.behind, now, zone)}
          </li>
        )}
        {instance.files.length === 0 && <li className="text-slate-600">No audit file yet.</li>}
        {instance.behind && <li className="text-amber-900">{lagText(instance.behind, now, zone)}</li>}
      </ul>
    </li>
  );
}
