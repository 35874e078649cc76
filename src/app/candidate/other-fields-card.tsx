import { notTextWords } from '../../kyc/contract/other-forms.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import { leftOutWords, type OtherField, otherFieldsOf } from '../../kyc/view/other-fields.ts';
import { Masked } from '../preferences/privacy-reveal.tsx';
import { LongText } from '../ui/long-text.tsx';
import { ScrollRegion } from '../ui/scroll-region.tsx';
import { Section } from '../ui/section.tsx';

/**
 * "Other fields in this response": every top-level field of the record that no section reads
 * (other-fields.ts), by its name as sent, its value as sent (text, or JSON marked "not text"), each cut as
 * long values are and with bidi controls shown (LongText). After the known sections; none when there is none.
 * An object naming another candidate (a nested record of theirs) is named as left out, never shown.
 * Each value is hidden by the privacy mask (privacy-reveal.tsx), as contact details are: a field no section
 * reads may be personal. The names stay, so that a reviewer sharing the screen can say which to show.
 */
export function OtherFieldsCard({ record }: { record: CandidateRecord }) {
  const { fields, more } = otherFieldsOf(record);
  if (fields.length === 0) return null;
  return (
    <Section title="Other fields in this response">
      <p className="mb-2 text-sm text-slate-600">Sent by the KYC service beside the fields above, shown as sent.</p>
      <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm" data-testid="other-fields">
        {fields.map((field) => (
          <div key={field.name} className="contents">
            <dt
              className="max-w-[40ch] font-mono text-xs font-medium break-all text-slate-500"
              data-field={field.name.length <= 200 ? field.name : undefined}
            >
              <LongText text={field.name} limit={60} />
            </dt>
            <dd className="min-w-0 text-slate-900">
              {/* A field no section reads may be personal (a phone number under a name of the service's own): masked as contact details are. */}
              <Masked maskKey={`other-field:${field.name}`} label={field.name.slice(0, 60)} block>
                <ScrollRegion label={`${field.name.slice(0, 60)} value`} className="max-h-40 break-words whitespace-pre-wrap">
                  <OtherValue field={field} />
                </ScrollRegion>
              </Masked>
            </dd>
          </div>
        ))}
      </dl>
      {more > 0 && (
        <p className="mt-2 text-sm text-slate-600">
          And {more.toLocaleString()} more {more === 1 ? 'field' : 'fields'}, not listed.
        </p>
      )}
    </Section>
  );
}

function OtherValue({ field }: { field: OtherField }) {
  if (field.otherCandidate) {
    return (
      <span className="text-xs text-amber-800" data-testid="left-out">
        <LongText text={leftOutWords(field.name)} />
      </span>
    );
  }
  if (field.json === undefined) return <LongText text={field.text ?? ''} />;
  return (
    <>
      <span className="font-mono text-xs">
        <LongText text={field.json.json} />
      </span>{' '}
      <span className="text-xs whitespace-nowrap text-amber-800" data-testid="not-text">
        ({notTextWords(field.json)})
      </span>
    </>
  );
}
