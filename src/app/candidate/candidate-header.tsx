import type { ReactNode } from 'react';
import { candidatePersonName } from '../../kyc/contract/candidate-name.ts';
import { idSentAsNumber, SENT_AS_NUMBER } from '../../kyc/contract/record-id.ts';
import { type CandidateRecord, unreadFieldsOf } from '../../kyc/contract/schema.ts';
import { serviceIdsOf } from '../../kyc/contract/service-id.ts';
import { statusInfo } from '../../kyc/contract/status.ts';
import { RECORD_ID_SOURCE, type ShownRecordId } from '../../kyc/view/shown-record-id.ts';
import { Card } from '../ui/card.tsx';
import { CopyButton } from '../ui/copy-button.tsx';
import { LongText } from '../ui/long-text.tsx';
import { ArchivedBadge, StatusBadge } from '../ui/status-badge.tsx';
import { absentText } from './unread-fields.tsx';

/** The record's own ids; the service's follows, under the name it came with (service-id.ts). */
const IDENTIFIERS = ['refId', 'recordId'] as const;

/**
 * Who this is and where they stand: name (or refId), status, archive flag, identifiers. With
 * `idsApart` the identifiers are left to a card of their own (CandidateIds) further down: a support
 * user's page puts the answer (what the service recorded, Copy reply) above them, and a compliance user's
 * on a phone the decision summary.
 */
export function CandidateHeader({
  record,
  recordId,
  idsApart = false,
  since,
}: {
  record: CandidateRecord;
  /** The recordId shown where the record has none of its own (shown-record-id.ts). */
  recordId?: ShownRecordId;
  idsApart?: boolean;
  /** Said beside the status chip (StatusSince), where no decision summary follows. */
  since?: ReactNode;
}) {
  const name = candidatePersonName(record);
  // A record is read only with a refId or a recordId (record-reading.ts).
  const title = name?.full ?? record.refId ?? record.recordId ?? '';
  return (
    <Card as="header" className="min-w-0">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 text-2xl font-semibold break-words text-slate-900">
          <LongText text={title} limit={120} />
        </h1>
        {name?.documentOrder && name.documentOrder !== name.full && (
          <p
            className="min-w-0 font-mono text-sm tracking-wide break-words text-slate-600"
            title="The name in document order: family name, then given names"
            data-testid="document-order-name"
          >
            <span className="sr-only">In document order: </span>
            <LongText text={name.documentOrder} limit={120} />
          </p>
        )}
        <StatusBadge status={record.status} />
        {since}
        {record.isArchived && <ArchivedBadge />}
      </div>
      <p className="mt-1 text-sm text-slate-600">{statusInfo(record.status).description}</p>
      {!idsApart && <IdentifierList record={record} recordId={recordId} className="mt-4" />}
    </Card>
  );
}

/** The identifiers in a card of their own, below a support user's answer. */
export function CandidateIds({ record, recordId }: { record: CandidateRecord; recordId?: ShownRecordId }) {
  return (
    <Card as="section" aria-label="Identifiers" className="min-w-0">
      <IdentifierList record={record} recordId={recordId} />
    </Card>
  );
}

/**
 * refId, recordId, blockPassID (or the spec's serviceID, as sent: service-id.ts; each with a copy button, or
 * why it is absent), archived when not said,
 * submissions. A recordId the answer lacks but the page knows (the id looked up, the applicants list's)
 * is shown and copied, with where it came from beside it; an id sent as a whole number says so. An answer without a refId does not say the
 * candidate has none: any field but the status and one id may be left out of the service's answers
 * (upstream-api-facts.md).
 */
function IdentifierList({ record, recordId, className = '' }: { record: CandidateRecord; recordId?: ShownRecordId; className?: string }) {
  const unread = unreadFieldsOf(record);
  // Where it came from, and what the answer holds of it ("not in this response", or not readable).
  const filled =
    recordId && recordId.from !== 'record'
      ? { id: recordId.id, note: `${RECORD_ID_SOURCE[recordId.from]}; ${absentText('recordId', unread)}` }
      : undefined;
  return (
    <dl className={`grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr] ${className}`}>
      {IDENTIFIERS.map((field) => {
        const value = record[field] || (field === 'recordId' ? filled?.id : undefined);
        return (
          <Identifier key={field} label={field} value={value} absent={absentText(field, unread)}>
            {record[field] && idSentAsNumber(record, field) && (
              // The service sent the id as a whole number: shown as its digits, said so (record-id.ts).
              <span className="text-xs whitespace-nowrap text-amber-800" data-testid="id-sent-as-number">
                ({SENT_AS_NUMBER})
              </span>
            )}
            {field === 'recordId' && !record.recordId && filled && (
              // On a line of its own: beside the id, it squeezed the id into three lines on a phone.
              <span className="basis-full text-slate-500 italic" data-testid="record-id-source">
                ({filled.note})
              </span>
            )}
          </Identifier>
        );
      })}
      {serviceIdsOf(record, unread).map(({ field, value }) => (
        <Identifier key={field} label={field} value={value} absent={absentText(field, unread)} />
      ))}
      {record.isArchived === undefined && (
        // Archived or not is said by the badge; an answer without the flag leaves it open, and says so.
        <div className="contents">
          <dt className="font-medium text-slate-500">Archived</dt>
          <dd className="text-slate-500 italic">{absentText('isArchived', unread)}</dd>
        </div>
      )}
      {record.submitCount !== undefined && (
        <div className="contents">
          <dt className="font-medium text-slate-500">Submissions</dt>
          <dd className="text-slate-900">{record.submitCount}</dd>
        </div>
      )}
    </dl>
  );
}

/** One id's row: the id and its copy button, or why it is absent. */
function Identifier({
  label,
  value,
  absent,
  children,
}: {
  label: string;
  value: string | undefined;
  absent: string;
  children?: ReactNode;
}) {
  return (
    <div className="contents">
      <dt className="font-medium text-slate-500">{label}</dt>
      <dd className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
        {value ? (
          <>
            <code className="min-w-0 font-mono break-all text-slate-900">
              <LongText text={value} limit={120} />
            </code>
            <CopyButton value={value} label={label} />
            {children}
          </>
        ) : (
          <span className="text-slate-500 italic">{absent}</span>
        )}
      </dd>
    </div>
  );
}
