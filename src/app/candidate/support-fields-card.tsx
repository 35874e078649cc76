import type { ApiMeta } from '../../kyc/contract/api.ts';
import { fieldsOfStatus } from '../../kyc/contract/replies.ts';
import { type CandidateRecord, unreadFieldsOf } from '../../kyc/contract/schema.ts';
import { labelOf } from '../../kyc/contract/certificate-fields.ts';
import { statusInfo } from '../../kyc/contract/status.ts';
import { fieldText } from '../../kyc/contract/other-forms.ts';
import { statusFieldsWereReadWith } from './live-status.tsx';
import { LongText } from '../ui/long-text.tsx';
import { Section } from '../ui/section.tsx';

/**
 * For support users in an environment with support fields: what the operator recorded that they may
 * see (a rejection reason, a hint for resubmitting), next to the status. The fields recorded are listed,
 * and those not recorded named in one line after them, only those that belong to the candidate's status
 * (fieldsOfStatus: a waiting or blocked candidate has no rejection reason, and "Nothing recorded:
 * Rejection reason" read as if one were missing); when the answer holds no custom fields at all, they
 * were not fetched, and the card says why. Read before a live change of status, the record cannot say
 * what the service recorded with the new one: its fields are "Not read yet", never "Nothing recorded".
 * Custom fields sent in another form (text, a list), or one field sent as an object or a list, are
 * "Recorded, but could not be read here", never "Nothing recorded": a support agent would tell the customer so.
 */
export function SupportFieldsCard({
  record,
  fields,
  meta,
}: {
  record: CandidateRecord;
  fields: readonly string[];
  /** The environment's reply templates (which fields belong to which status) and what its key does. */
  meta: Pick<ApiMeta, 'replyTemplates' | 'archivingKey'> | undefined;
}) {
  const archivingKey = meta?.archivingKey;
  const recorded = record.customFields;
  const readWith = statusFieldsWereReadWith(record);
  const expected = fieldsOfStatus(meta?.replyTemplates ?? {}, record.status, fields);
  // The custom fields came in another form than an object (text, a list): recorded, not readable here (status-level.ts).
  const unreadForm = unreadFieldsOf(record).find((entry) => entry.field === 'customFields');
  return (
    <Section title="What the service recorded">
      {readWith !== undefined && recorded !== undefined && (
        <p className="mb-2 text-sm text-amber-900" data-testid="support-fields-before-change">
          Read when the status was {statusInfo(readWith).label}: what the service recorded with {statusInfo(record.status).label} shows once
          the page is refreshed (Refresh, above).
        </p>
      )}
      {recorded === undefined ? (
        <p className="text-sm text-slate-700" data-testid="support-fields-missing">
          {archivingKey
            ? 'Not fetched: this environment\'s API key deletes identity data after each full lookup ("archive after extract"), so support lookups use the status-level key, which carries no custom fields.'
            : 'Not in this answer: the service was asked at status level only.'}
        </p>
      ) : unreadForm ? (
        <p className="text-sm text-amber-900" data-testid="support-fields-unread">
          Recorded, but could not be read here: the service sent its custom fields as {unreadForm.found}, not as separate fields, so{' '}
          {(expected.length > 0 ? expected : fields).map(labelOf).join(', ')} could not be read. Do not tell the customer nothing was
          recorded.
        </p>
      ) : (
        <RecordedFields
          recorded={recorded}
          fields={fields}
          expected={expected}
          readBefore={readWith !== undefined}
          unread={unreadSupportFields(record, fields)}
        />
      )}
    </Section>
  );
}

const isRecorded = (value: unknown) => value !== undefined && value !== null && value !== '';

/** The support fields the service sent as an object or a list, each with the form it came in (the server's `unread`: status-level.ts). */
function unreadSupportFields(record: CandidateRecord, fields: readonly string[]): ReadonlyMap<string, string> {
  const named = new Map(unreadFieldsOf(record).map((entry) => [entry.field, entry.found]));
  return new Map(fields.flatMap((field) => (named.has(`customFields.${field}`) ? [[field, named.get(`customFields.${field}`)!]] : [])));
}

function RecordedFields({
  recorded,
  fields,
  expected,
  readBefore,
  unread,
}: {
  recorded: NonNullable<CandidateRecord['customFields']>;
  fields: readonly string[];
  /** The fields of the candidate's status: only these are named when not recorded. */
  expected: readonly string[];
  /** Read with an earlier status than the one shown: what is missing here may be recorded with the new one. */
  readBefore: boolean;
  /** Fields sent as an object or a list, by the form found: recorded, but not readable here (never "Not recorded"). */
  unread: ReadonlyMap<string, string>;
}) {
  const fieldValue = (field: string) => (Object.hasOwn(recorded, field) ? recorded[field] : undefined);
  // Whatever was recorded is shown, of the status or not: it is what the service holds.
  const shown = fields.filter((field) => isRecorded(fieldValue(field)));
  const missing = expected.filter((field) => !isRecorded(fieldValue(field)) && !unread.has(field));
  return (
    <div className="space-y-2 text-sm">
      {shown.length > 0 && (
        <dl className="grid gap-x-4 gap-y-2 sm:grid-cols-[max-content_1fr]">
          {shown.map((field) => {
            const value = fieldValue(field);
            return (
              <div key={field} className="contents" data-field={field}>
                <dt className="font-medium text-slate-600" title={field}>
                  {labelOf(field)}
                </dt>
                <dd className="min-w-0 break-words whitespace-pre-wrap text-slate-900">
                  <LongText text={typeof value === 'boolean' ? (value ? 'Yes' : 'No') : fieldText(recorded, field, value!)} />
                </dd>
              </div>
            );
          })}
        </dl>
      )}
      {unread.size > 0 && (
        <p className="text-amber-900" data-testid="support-fields-unread-each">
          Recorded, but could not be read here:{' '}
          {[...unread].map(([field, found]) => `${labelOf(field)} (sent as ${found}, not as text)`).join(', ')}. Do not tell the customer
          nothing was recorded.
        </p>
      )}
      {readBefore && missing.length > 0 && (
        <p className="text-slate-600" data-testid="support-fields-not-read">
          Not read yet: {missing.map(labelOf).join(', ')} (Refresh to read them).
        </p>
      )}
      {!readBefore && missing.length > 0 && (
        <p className="text-slate-600" data-testid="support-fields-not-recorded">
          {shown.length === 0 && unread.size === 0 ? 'Nothing recorded: ' : 'Not recorded: '}
          {missing.map(labelOf).join(', ')}.
        </p>
      )}
      {!readBefore && shown.length === 0 && missing.length === 0 && unread.size === 0 && (
        <p className="text-slate-600" data-testid="support-fields-not-recorded">
          Nothing recorded.
        </p>
      )}
    </div>
  );
}
