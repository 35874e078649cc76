import type { ArchivingKey } from '../../kyc/contract/api.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import { labelOf } from '../../kyc/contract/certificate-fields.ts';
import { LongText } from '../ui/long-text.tsx';
import { Section } from '../ui/section.tsx';

/**
 * For support users in an environment with support fields: what the operator recorded that they may
 * see (a rejection reason, a hint for resubmitting), next to the status. Each configured field is
 * listed, "Not recorded" when the record holds none; when the answer holds none of them at all, they
 * were not fetched, and the card says why.
 */
export function SupportFieldsCard({
  record,
  fields,
  archivingKey,
}: {
  record: CandidateRecord;
  fields: readonly string[];
  archivingKey: ArchivingKey | undefined;
}) {
  const recorded = record.customFields;
  return (
    <Section title="What the service recorded">
      {recorded === undefined ? (
        <p className="text-sm text-slate-700" data-testid="support-fields-missing">
          {archivingKey
            ? 'Not fetched: this environment\'s API key deletes identity data after each full lookup ("archive after extract"), so support lookups use the status-level key, which carries no custom fields.'
            : 'Not in this answer: the service was asked at status level only.'}
        </p>
      ) : (
        <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
          {fields.map((field) => {
            const value = Object.hasOwn(recorded, field) ? recorded[field] : undefined;
            return (
              <div key={field} className="contents" data-field={field}>
                <dt className="font-medium text-slate-600" title={field}>
                  {labelOf(field)}
                </dt>
                <dd className="min-w-0 break-words whitespace-pre-wrap text-slate-900">
                  {value === undefined || value === null || value === '' ? (
                    <span className="text-slate-500 italic">Not recorded</span>
                  ) : (
                    <LongText text={typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value)} />
                  )}
                </dd>
              </div>
            );
          })}
        </dl>
      )}
    </Section>
  );
}
