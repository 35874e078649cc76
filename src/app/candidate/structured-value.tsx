import { notTextWords, sentAsWords, type StructuredField } from '../../kyc/contract/other-forms.ts';
import { LongText } from '../ui/long-text.tsx';

/**
 * A value the service sent as an object or a list, or a number, true or false or null, where text was due
 * (other-forms.ts): its compact JSON (a number's digits), cut as long values are, and marked "not text". One look for a custom field and an identity attribute.
 * An attribute that came with a type says it as declared beside what came: "Nationality (string)" over
 * "not text: an object" read as a contradiction (UX review).
 */
export function StructuredValue({ field, limit }: { field: StructuredField; limit?: number }) {
  return (
    <>
      <span className="font-mono text-xs">
        <LongText text={field.json} limit={limit} />
      </span>{' '}
      <span className="text-xs whitespace-nowrap text-amber-800" data-testid="not-text">
        {field.type === undefined ? (
          `(${notTextWords(field)})`
        ) : (
          <>
            (declared <LongText text={field.type} limit={20} />; {sentAsWords(field)})
          </>
        )}
      </span>
    </>
  );
}
