import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { readsFullRecord } from '../../kyc/contract/roles.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import type { ShownRecordId } from '../../kyc/view/shown-record-id.ts';
import { splitSummaryFields, structuredSummaryFields } from '../../kyc/view/summary-fields.ts';
import { useEnvironment } from '../environment/use-environment.ts';
import { DashboardLink } from '../handoff/dashboard-link.tsx';
import { HandOffBar } from '../handoff/hand-off-bar.tsx';
import { usePageSession } from '../session/session-end.ts';
import { Freshness } from './freshness.tsx';
import { candidateIdsOf } from './dashboard-place.ts';

/**
 * The candidate page's hand-off row: Copy summary (and a support user's Copy reply), Print, how fresh the
 * record is and Refresh; and the KYC service's dashboard where no list's bar holds it (`dashboard`): a
 * candidate opened by a link or the search box had a bar of its own for that one link (UX review).
 */
export function CandidateActions({
  record,
  fetched,
  kind,
  id,
  recordId,
  dashboard,
  refresh,
}: {
  /** The record shown (a live status change applied). */
  record: CandidateRecord;
  /** The record as fetched: its decision fields are copied. */
  fetched: CandidateRecord;
  kind: LookupKind;
  id: string;
  recordId: ShownRecordId | undefined;
  /** The dashboard link is here, beside Print, not on the bar above the page. */
  dashboard: boolean;
  refresh: { fetchedAt: number; refreshing: boolean; start: () => void };
}) {
  const { environment, info, meta } = useEnvironment();
  const session = usePageSession();
  const full = readsFullRecord(session?.role);
  return (
    <div className="flex flex-wrap items-start justify-between gap-3 print:hidden">
      {info && meta && (
        <HandOffBar
          record={record}
          kind={kind}
          id={id}
          environment={environment}
          info={info}
          user={session?.user}
          role={session?.role}
          replyTemplates={meta.replyTemplates}
          recordId={recordId}
          // The same fields as the decision summary strip; a support user's copy never holds them.
          decisionFields={full ? splitSummaryFields(fetched.customFields, meta.summaryFields).summary : []}
          decisionStructured={full ? structuredSummaryFields(fetched.customFields, meta.summaryFields) : []}
          // What the page's "What the service recorded" shows a support user, copied as the page shows it.
          supportFields={full ? [] : meta.supportFields}
          refresh={refresh}
          dashboard={
            dashboard && (
              <DashboardLink
                info={info}
                ids={candidateIdsOf(kind, id, { refId: record.refId, recordId: recordId?.id })}
                className="text-sm"
              />
            )
          }
        />
      )}
      <Freshness fetchedAt={refresh.fetchedAt} refreshing={refresh.refreshing} onRefresh={refresh.start} />
    </div>
  );
}
