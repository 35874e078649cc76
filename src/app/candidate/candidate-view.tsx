import { candidatePersonName } from '../../kyc/contract/candidate-name.ts';
import { sortAttributes } from '../../kyc/view/attributes.ts';
import { splitSummaryFields } from '../../kyc/view/summary-fields.ts';
import type { ShownRecordId } from '../../kyc/view/shown-record-id.ts';
import { type CandidateRecord, type UnreadField, unreadFieldsOf } from '../../kyc/contract/schema.ts';
import { type StructuredField, structuredFieldsOf, wasSentAsObject } from '../../kyc/contract/other-forms.ts';
import { useEnvironment } from '../environment/use-environment.ts';
import { RevealScope } from '../preferences/privacy-reveal.tsx';
import { usePageSession } from '../session/session-end.ts';
import { Notice } from '../ui/section.tsx';
import { useNow } from '../ui/use-now.ts';
import { Fragment, type ReactNode, useMemo } from 'react';
import { AbsentSection, ContactNotShown, CustomFieldsPlace, identityDataOf, MARKED_ARCHIVED, sectionShown } from './absent-sections.tsx';
import { AddressCard } from './address-card.tsx';
import { CandidateHeader, CandidateIds } from './candidate-header.tsx';
import { Certificates } from './certificates.tsx';
import { DecisionSummary, StatusSince } from './decision-summary.tsx';
import { CARD_ATTRIBUTES, IdentityCard } from './identity-card.tsx';
import { OtherAttributes } from './other-attributes.tsx';
import { OtherFieldsCard } from './other-fields-card.tsx';
import { PhoneCard } from './phone-card.tsx';
import { PictureGallery } from './picture-gallery.tsx';
import { FileSaveContext, type RecordFileSave } from './file-save-record.ts';
import { notedPictures } from './picture-notes.ts';
import { picturePartsOf } from '../api/picture-parts.ts';
import { usePendingRecord } from './rest-of-record.tsx';
import { LevelNotice, recordLevel } from './level-notice.tsx';
import { StatusTimeline } from './status-timeline.tsx';
import { SupportFieldsCard } from './support-fields-card.tsx';
import { UndecodedTextNotice, UnreadFieldsNotice } from './unread-fields.tsx';
import { replacementCharactersIn } from '../../kyc/view/replacement-characters.ts';

/**
 * The candidate page's sections, from the parsed record and nothing else. `answer` (the hand-off: Copy
 * reply or Copy summary and the rest) comes above the name, or with `answerFirst` right under what the
 * service recorded, and the identifiers after it: on a phone a support user's first screen holds the status,
 * the recorded reason and hint, and Copy reply, and a compliance user's the name, the status and the
 * decision summary. Either way it is the same element, keyed, among the same children: a window resized
 * across 640 px moves it, and what it holds (the note under its buttons, a copy done) stays. `activity` (who else looked) comes under the name and the decision summary, so that the
 * page's headings start with the name.
 */
export function CandidateView({
  record,
  answer,
  answerFirst = false,
  activity,
  recordId,
  recordCertificateCopy,
  recordFileSave,
}: {
  record: CandidateRecord;
  answer?: ReactNode;
  /** The hand-off under what the service recorded, the identifiers after it (a support user, a phone); else above the name. */
  answerFirst?: boolean;
  activity?: ReactNode;
  /** Writes the audit line of a certificate copied (by its slug); rejects when it could not be written, and nothing is copied. */
  recordCertificateCopy: (slug: string) => Promise<void>;
  /** Writes the audit line of a document file saved from a picture card; rejects when it could not be written, and nothing is saved. */
  recordFileSave: RecordFileSave;
  /** The recordId shown: the record's own, or one filled in and said so (shown-record-id.ts). */
  recordId?: ShownRecordId;
}) {
  const now = useNow();
  const role = usePageSession()?.role;
  const pending = usePendingRecord(record);
  const unread = unreadFieldsOf(record);
  // Once per record, not per render: a record's strings (a picture's base64 among them) may run to megabytes.
  const undecoded = useMemo(() => replacementCharactersIn(record), [record]);
  const level = recordLevel(record, role, pending, unread);
  const { support, named } = level;
  const identities = identityDataOf(record, unread);
  // An archived record: identity data that did not come at all was archived (the notice above says so); with some of it
  // on the page, what it lacks is only absent, the archive mark named (rows, the address or phone line, the pictures).
  const archived = record.isArchived === true;
  // Once per record, not per render (a live update, the 30 s tick): the service may send thousands of pictures.
  const sorted = useMemo(() => (identities ? sortAttributes(identities) : undefined), [identities]);
  // Attributes sent as an object or a list: on the identity card if it has their row, else with the other attributes.
  const attributesAside = structuredFieldsOf(identities);
  const otherAside = attributesAside.filter((field) => !CARD_ATTRIBUTES.has(field.name));
  const othersShown = sorted !== undefined && sorted.others.length + otherAside.length > 0;
  const name = candidatePersonName(record);
  // The environment's meta is already loaded by the header: no second request.
  const meta = useEnvironment().meta;
  // The pictures the notes name, read once per record and notes: every note is read for each picture's names.
  const noted = useMemo(() => sorted && notedPictures(record, meta, sorted.pictures), [record, meta, sorted]);
  const summaryFields = meta?.summaryFields;
  const supportFields = support ? meta?.supportFields : undefined;
  const otherFields = splitSummaryFields(record.customFields, summaryFields).rest;
  // Custom fields that came as an object or a list: shown with the others, as JSON marked "not text".
  const structured = structuredFieldsOf(record.customFields);
  const certsShown = sectionShown(record, 'certs', unread);
  const wide = Boolean(identities || certsShown);
  // The wide sections in page order (pictures, other attributes, certificates): the first sits beside the
  // status history when there is no identity row there, every other one spans the three columns.
  const present = [sorted !== undefined && sorted.pictures.length > 0, othersShown, certsShown];
  const besideHistory = identities ? -1 : present.indexOf(true);
  const spanOf = (section: number) => (section === besideHistory ? 'lg:col-span-2' : 'lg:col-span-3');

  // One element in either place, moved by its key rather than unmounted and mounted anew (a phone turned).
  const handOff = answer !== undefined && <Fragment key="hand-off">{answer}</Fragment>;
  return (
    <RevealScope>
      <div className="space-y-5">
        {!answerFirst && handOff}
        {/* A support user's summary would hold the status alone (no certificates, no decision fields): said in the header. */}
        <CandidateHeader
          record={record}
          recordId={recordId}
          idsApart={answerFirst}
          since={support ? <StatusSince record={record} now={now} /> : undefined}
        />
        <UnreadFieldsNotice unread={unread} />
        <UndecodedTextNotice count={undecoded} />
        {!support && <DecisionSummary record={record} now={now} summaryFields={summaryFields} />}
        {activity}
        {supportFields && supportFields.length > 0 && <SupportFieldsCard record={record} fields={supportFields} meta={meta} />}
        {answerFirst && handOff}
        {answerFirst && <CandidateIds record={record} recordId={recordId} />}
        <LevelNotice record={record} level={level} supportFields={supportFields} unread={unread} />
        {/*
          Three columns on a wide screen: the status history (and the other custom fields) beside identity,
          address and phone; below them the pictures and certificates take the whole width, so the column
          under the status history is not left empty while they are squeezed into two thirds. A record with no
          identity data puts its first wide section beside the history instead.
        */}
        <div className={`grid gap-5 ${wide ? 'lg:grid-cols-3' : 'max-w-2xl'}`}>
          <div className="min-w-0 space-y-5">
            <StatusTimeline record={record} now={now} />
            {!support && <CustomFieldsPlace record={record} fields={otherFields} structured={structured} named={named} unread={unread} />}
          </div>
          {identities && (
            <div className="grid min-w-0 gap-5 md:grid-cols-2 lg:col-span-2 lg:self-start">
              <IdentityCard
                identities={identities}
                now={now}
                familyFirst={name?.familyFirst}
                unread={unread}
                structured={attributesAside}
                absentWords={archived ? `not in this response (${MARKED_ARCHIVED})` : undefined}
              />
              <div className="min-w-0 space-y-5">
                <ContactCards identities={identities} unread={unread} aside={otherAside} archived={archived} />
              </div>
            </div>
          )}
          {/* On paper the pictures come after every fact (print:order-last), each at most half a page. */}
          {sorted && sorted.pictures.length > 0 && (
            <div className={`min-w-0 print:order-last ${spanOf(0)}`}>
              <FileSaveContext value={recordFileSave}>
                <PictureGallery
                  pictures={sorted.pictures}
                  owner={name?.full ?? 'the candidate'}
                  parts={picturePartsOf(record)}
                  noted={noted}
                />
              </FileSaveContext>
            </div>
          )}
          {identities && sorted?.pictures.length === 0 && (
            <div className="min-w-0 lg:col-span-3">
              {/* Identity data is on the page: the archive (which takes it all) is not said to be why, only that the record is marked so. */}
              <Notice>
                No pictures in this response: the candidate has none, or the API key excludes them
                {archived ? ` (${MARKED_ARCHIVED}, yet identity data came with it)` : ''}.
              </Notice>
            </div>
          )}
          {sorted && othersShown && (
            <div className={`min-w-0 ${spanOf(1)}`}>
              <OtherAttributes attributes={sorted.others} structured={otherAside} />
            </div>
          )}
          {record.certs && certsShown ? (
            <div className={`min-w-0 ${spanOf(2)}`}>
              <Certificates certs={record.certs} recordCopy={recordCertificateCopy} />
            </div>
          ) : (
            named && (
              // Where the certificates would be: across the page under identity data; without it the page is one column.
              <div className={`min-w-0 ${wide ? 'lg:col-span-3' : ''}`}>
                <AbsentSection field="certs" unread={unread} />
              </div>
            )
          )}
        </div>
        {/* After the known sections: what the service sent that none of them reads (never on a support user's status level). */}
        {!support && <OtherFieldsCard record={record} />}
      </div>
    </RevealScope>
  );
}

/** The address and phone cards (each says when the service sent an object, not text: other-forms.ts), and which of them is missing. */
function ContactCards({
  identities,
  unread,
  aside,
  archived,
}: {
  identities: NonNullable<CandidateRecord['identities']>;
  archived: boolean;
  unread: readonly UnreadField[];
  /** Attributes sent as an object or a list, shown with the other attributes: an address or phone among them is not missing. */
  aside: readonly StructuredField[];
}) {
  return (
    <>
      {identities.address?.type === 'string' && (
        <AddressCard raw={identities.address.value} sentAsObject={wasSentAsObject(identities.address)} />
      )}
      {identities.phone?.type === 'string' && <PhoneCard raw={identities.phone.value} sentAsObject={wasSentAsObject(identities.phone)} />}
      <ContactNotShown identities={identities} unread={unread} aside={aside} archived={archived} />
    </>
  );
}
