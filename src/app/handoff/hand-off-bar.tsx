import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
import type { EnvironmentInfo, ExportAnswer, Role } from '../../kyc/contract/api.ts';
import { readsFullRecord } from '../../kyc/contract/roles.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { type ReplyTemplate, repliesFor } from '../../kyc/contract/replies.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import { serviceIdValues } from '../../kyc/contract/service-id.ts';
import { candidateSummary } from '../../kyc/view/summary.ts';
import type { ShownRecordId } from '../../kyc/view/shown-record-id.ts';
import type { CustomFieldValue } from '../../kyc/view/summary-fields.ts';
import type { StructuredField } from '../../kyc/contract/other-forms.ts';
import { statusInfo } from '../../kyc/contract/status.ts';
import { formatDateTime, type ZoneMode } from '../../kyc/view/time.ts';
import { buildTimeline } from '../../kyc/view/timeline.ts';
import { environmentBadgeText } from '../environment/use-environment.ts';
import { usePrivacyMask } from '../preferences/privacy-mask.tsx';
import { useServerBackSince } from '../session/server-back.ts';
import { useZoneMode } from '../ui/zone-mode.ts';
import { Button } from '../ui/button.tsx';
import { CopyAction } from './copy-action.tsx';
import { ReplyAction } from './reply-action.tsx';
import { copyRefusal, HandOffNoteLine, type HandOffNote, noteShown, type PageRefresh, printFailure, printNote } from './hand-off-note.tsx';
import { recordExport, recordPrint } from './record-export.ts';
import { draftsKey } from './reply-drafts.ts';
import { detailsOf, placesOf } from './reply-frame.ts';

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
  /** The recordId the page shows, the record's own or filled in (shown-record-id.ts). */
  recordId?: ShownRecordId;
  /** The decision summary's custom fields (summaryFields in CONFIG_FILE): copied for compliance users, never for support users. */
  decisionFields: ReadonlyArray<readonly [string, CustomFieldValue]>;
  /** Those that came as an object or a list (structuredSummaryFields): copied as their JSON, marked "not text". */
  decisionStructured?: readonly StructuredField[];
  /** The environment's support fields (a rejection reason, a hint): a support user's copy holds those the page shows them. */
  supportFields?: readonly string[];
  /** The page's lookup and its Refresh: offered beside a hand-off refused for a lookup too old. */
  refresh?: PageRefresh;
  /** The link to the KYC service's dashboard, after Print, where no bar above the page holds it (review-bar.tsx). */
  dashboard?: ReactNode;
}

/** Copy summary's text, as the role may read it: decision fields for compliance users, support fields for support users. */
function summaryOf(props: HandOffProps, zone: ZoneMode): string {
  const { record, info, role } = props;
  return candidateSummary({
    record,
    environment: environmentBadgeText(info),
    role,
    recordId: props.recordId,
    decisionFields: readsFullRecord(role) ? props.decisionFields : [],
    decisionStructured: readsFullRecord(role) ? props.decisionStructured : [],
    supportFields: role === 'support' ? props.supportFields : [],
    now: new Date(),
    zone,
  });
}

/** Carrying the answer into a ticket or a case file: summary, reply, print (the service's console: dashboard-link.tsx). */
export function HandOffBar(props: HandOffProps) {
  const { record, kind, id, environment, info, role } = props;
  const zone = useZoneMode();
  const { masked } = usePrivacyMask();
  const exported = (what: 'summary' | 'reply', extra: { template?: string } = {}) =>
    recordExport(environment, { what, kind, id, ...extra });
  const replies = repliesFor(props.replyTemplates, record.status, {
    refId: record.refId,
    recordId: record.recordId,
    status: statusInfo(record.status).label,
    since: sinceForCustomer(record, zone),
    // A support user's answer holds the environment's support fields only (none for a compliance user's reply, who has none).
    ...(role === 'support' && record.customFields ? { fields: record.customFields } : {}),
  });
  const reply = replies[0]!;
  const withText = replies.filter((each) => each.reply !== null);
  const note = useRef<HTMLParagraphElement>(null);
  const { said, say, buttons } = useBarNote(props.refresh);
  // A print's line is sent as the dialog opens, and must arrive even if the page is closed or left from it.
  // A masked print says so on paper (PrintHeader) and in its line. The dialog cannot wait for the line, so
  // the server records a print it would refuse a copy of all the same, marked; the mark, or a line that
  // could not be written (the audit log down), is said under the buttons afterwards.
  usePrintAudit(
    () => recordPrint(environment, { what: 'print', kind, id, ...(masked ? { masked: true } : {}) }),
    (told) => say(told && { ...told, from: 'print' }),
  );

  return (
    <div className="space-y-2 print:hidden">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <CopyAction
          label="Copy summary"
          doneLabel="Summary copied"
          record={() => exported('summary')}
          buttonRef={buttons.summary}
          onRecorded={(refusal) => say(refusal && copyRefusal(refusal))}
          text={() => summaryOf(props, zone)}
        />
        {role === 'support' && (
          // Also for a status with no reply: a draft written for the status before stays within reach there.
          <ReplyAction
            replies={withText}
            notes={[...new Set(replies.flatMap((each) => (each.note ? [each.note] : [])))]}
            status={record.status}
            record={(template) => exported('reply', { template })}
            user={props.user}
            known={{
              ids: [record.refId, record.recordId, ...serviceIdValues(record)],
              details: detailsOf(record),
              places: placesOf(record),
            }}
            // The same candidate opened by its refId or its recordId finds the same drafts.
            draftsKey={draftsKey(info.name, props.user, record.recordId ? `recordId:${record.recordId}` : `${kind}:${id}`)}
            onGone={() => note.current?.focus()}
            refresh={props.refresh}
          />
        )}
        <span className="inline-flex items-center gap-2">
          <Button ref={buttons.print} variant="secondary" onClick={() => window.print()}>
            Print
          </Button>
        </span>
        {props.dashboard}
      </div>
      <HandOffNoteLine note={said} refresh={props.refresh} buttons={buttons} />
      {role === 'support' && (withText.length === 0 || reply.note) && (
        <p
          ref={note}
          // Where the focus goes when Copy reply leaves with the last draft of a status with no reply (reply-action.tsx).
          tabIndex={-1}
          data-testid="reply-note"
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 focus-ring"
        >
          {withText.length === 0 && <strong className="font-semibold">No customer reply for this status. </strong>}
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
 * What the bar says of its last copy or print, and its buttons (where the focus goes back to): one note
 * for all of them, the latest; a stale one goes with the next lookup's answer (noteShown). A print's
 * failure stays as it is once the server is back: that print was made all the same, unrecorded.
 */
function useBarNote(refresh: PageRefresh | undefined) {
  const [note, setNote] = useState<HandOffNote>();
  const buttons: Record<HandOffNote['from'], RefObject<HTMLButtonElement | null>> = {
    summary: useRef<HTMLButtonElement>(null),
    print: useRef<HTMLButtonElement>(null),
  };
  const fetchedAt = refresh?.fetchedAt ?? 0;
  const say = (next: Omit<HandOffNote, 'at'> | undefined) => setNote(next && { ...next, at: fetchedAt });
  const shown = noteShown(note, fetchedAt);
  // A copy that could not reach the server: once it answers again, the red line says Copy will work now.
  const back = useServerBackSince(shown?.unreachableAt);
  const said: HandOffNote | undefined =
    shown && back ? { ...shown, text: 'The server is back: press Copy summary again.', tone: 'note' } : shown;
  return { said, say, buttons };
}

type PrintTold = Omit<HandOffNote, 'at' | 'from'> | undefined;

/**
 * Every print (the button, Ctrl+P, the browser's menu) writes its audit line as the dialog opens, and
 * `told` is told what came of it: its line's mark (printNote), why it could not be written
 * (printFailure), or nothing to say. What paper shows is the print stylesheet's: certificates as their
 * result rows, without the raw JSON.
 */
function usePrintAudit(record: () => Promise<ExportAnswer>, told: (said: PrintTold) => void) {
  const latest = useRef({ record, told });
  useEffect(() => {
    latest.current = { record, told };
  });
  useEffect(() => {
    const beforePrint = () =>
      void latest.current.record().then(
        (answer) => latest.current.told(printNote(answer)),
        (error: Error) => latest.current.told(printFailure(error)),
      );
    window.addEventListener('beforeprint', beforePrint);
    return () => window.removeEventListener('beforeprint', beforePrint);
  }, []);
}

/** Only on paper: who printed, when (with the zone), the environment and the client id; and whether the mask was on. */
export function PrintHeader({ user, info }: { user: string | undefined; info: EnvironmentInfo }) {
  const zone = useZoneMode();
  const { masked } = usePrivacyMask();
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
      {masked && (
        <span data-testid="print-masked" className="mt-1 block font-semibold">
          Printed with the privacy mask on: what reads "masked" (a date of birth, an address, a phone number, an e-mail address, a picture,
          the value of a field no section reads) was left out of this printout.
        </span>
      )}
    </p>
  );
}
