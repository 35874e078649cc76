import { useEffect, useRef, useState } from 'react';
import type { EnvironmentInfo, Role } from '../../kyc/contract/api.ts';
import { readsFullRecord } from '../../kyc/contract/roles.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { type ReplyTemplate, replyFor } from '../../kyc/contract/replies.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import { candidateSummary } from '../../kyc/view/summary.ts';
import type { CustomFieldValue } from '../../kyc/view/summary-fields.ts';
import { statusInfo } from '../../kyc/contract/status.ts';
import { formatDateTime, type ZoneMode } from '../../kyc/view/time.ts';
import { buildTimeline } from '../../kyc/view/timeline.ts';
import { environmentBadgeText } from '../environment/use-environment.ts';
import { useZoneMode } from '../ui/zone-mode.ts';
import { Button } from '../ui/button.tsx';
import { CopyAction } from './copy-action.tsx';
import { ReplyAction } from './reply-editor.tsx';
import { recordExport } from './record-export.ts';

export interface HandOffProps {
  record: CandidateRecord;
  kind: LookupKind;
  id: string;
  /** The environment named in the URL (undefined: the default). */
  environment: string | undefined;
  info: EnvironmentInfo;
  user: string | undefined;
  role: Role | undefined;
  replyTemplates: Record<string, ReplyTemplate>;
  /** The decision summary's custom fields (summaryFields in CONFIG_FILE): copied for compliance users, never for support users. */
  decisionFields: ReadonlyArray<readonly [string, CustomFieldValue]>;
}

/** The service's console for this candidate, when configured and the record has the id it needs. */
export function dashboardLink(template: string | undefined, record: CandidateRecord): string | undefined {
  if (!template) return undefined;
  if (template.includes('{recordId}') && !record.recordId) return undefined;
  if (template.includes('{refId}') && !record.refId) return undefined;
  return template
    .replaceAll('{recordId}', encodeURIComponent(record.recordId ?? ''))
    .replaceAll('{refId}', encodeURIComponent(record.refId ?? ''));
}

/** Carrying the answer into a ticket or a case file: summary, reply, print, the service's console. */
export function HandOffBar(props: HandOffProps) {
  const { record, kind, id, environment, info, role } = props;
  const zone = useZoneMode();
  const exported = (what: 'summary' | 'reply' | 'print', options?: { keepalive: boolean }, template?: string) =>
    recordExport(environment, { what, kind, id, ...(template ? { template } : {}) }, options);
  const reply = replyFor(props.replyTemplates, record.status, {
    refId: record.refId,
    recordId: record.recordId,
    status: statusInfo(record.status).label,
    since: sinceForCustomer(record, zone),
    // A support user's answer holds the environment's support fields only (none for a compliance user's reply, who has none).
    ...(role === 'support' && record.customFields ? { fields: record.customFields } : {}),
  });
  const dashboard = dashboardLink(info.dashboardUrl, record);
  // A print's line is sent as the dialog opens, and must arrive even if the page is closed or left from it.
  usePrintAudit(() => exported('print', { keepalive: true }));

  return (
    <div className="space-y-2 print:hidden">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <CopyAction
          label="Copy summary"
          doneLabel="Summary copied"
          record={() => exported('summary')}
          text={() =>
            candidateSummary({
              record,
              environment: environmentBadgeText(info),
              role,
              decisionFields: readsFullRecord(role) ? props.decisionFields : [],
              now: new Date(),
              zone,
            })
          }
        />
        {role === 'support' && reply.reply !== null && (
          <ReplyAction reply={reply} record={(template) => exported('reply', undefined, template)} />
        )}
        <Button variant="secondary" onClick={() => window.print()}>
          Print
        </Button>
        {dashboard && (
          <a
            href={dashboard}
            target="_blank"
            rel="noreferrer"
            className="text-sm font-medium text-blue-700 underline underline-offset-2 focus-ring"
          >
            Open in dashboard
          </a>
        )}
      </div>
      {role === 'support' && (reply.reply === null || reply.note) && (
        <p data-testid="reply-note" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          {reply.reply === null && <strong className="font-semibold">No customer reply for this status. </strong>}
          {reply.note && <>Internal note: {reply.note}</>}
        </p>
      )}
    </div>
  );
}

/**
 * The date of the current status as a customer reads it: the date only, in words, in the zone the page
 * shows (the UTC switch), and the same moment the page's "since" shows (the timeline's current step).
 */
export function sinceForCustomer(record: CandidateRecord, zone: ZoneMode): string | undefined {
  const since = buildTimeline(record).steps.find((step) => step.current)?.at;
  if (!since) return undefined;
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'long', ...(zone === 'utc' ? { timeZone: 'UTC' } : {}) }).format(since);
}

/**
 * Every print (the button, Ctrl+P, the browser's menu) writes its audit line as the dialog opens. What
 * paper shows is the print stylesheet's: certificates as their result rows, without the raw JSON.
 */
function usePrintAudit(record: () => Promise<void>) {
  const latest = useRef(record);
  useEffect(() => {
    latest.current = record;
  });
  useEffect(() => {
    const beforePrint = () => void latest.current().catch(() => {});
    window.addEventListener('beforeprint', beforePrint);
    return () => window.removeEventListener('beforeprint', beforePrint);
  }, []);
}

/** Only on paper: who printed, when (with the zone), the environment and the client id. */
export function PrintHeader({ user, info }: { user: string | undefined; info: EnvironmentInfo }) {
  const zone = useZoneMode();
  const [printedAt, setPrintedAt] = useState(() => new Date());
  useEffect(() => {
    const onPrint = () => setPrintedAt(new Date());
    window.addEventListener('beforeprint', onPrint);
    return () => window.removeEventListener('beforeprint', onPrint);
  }, []);
  return (
    <p data-testid="print-header" className="hidden text-sm text-slate-900 print:block">
      Printed by {user ?? 'an unnamed user'} on {formatDateTime(printedAt, { zone })} · {info.label} environment · client id{' '}
      {info.clientId ?? 'unknown'}
    </p>
  );
}
