import { labelOf } from '../../kyc/contract/certificate-fields.ts';
import type { StructuredField } from '../../kyc/contract/other-forms.ts';
import { LongText } from '../ui/long-text.tsx';
import { Section } from '../ui/section.tsx';
import { StructuredValue } from './structured-value.tsx';

type FieldValue = string | number | boolean | null;

/**
 * Client-defined fields as a key/value table, each named in words as the decision summary, the support
 * card and the certificates name it (`customerTier`: Customer tier), its key on hover. A field that came
 * as an object or a list (`structured`) follows the others, as its compact JSON marked "not text": shown,
 * as every value is, never taken for text.
 */
export function CustomFields({ fields, structured = [] }: { fields: Record<string, FieldValue>; structured?: readonly StructuredField[] }) {
  const entries = Object.entries(fields);
  return (
    <Section title="Custom fields">
      {entries.length === 0 && structured.length === 0 ? (
        <p className="text-sm text-slate-600">No custom fields.</p>
      ) : (
        <table className="w-full table-fixed text-left text-sm">
          <thead className="sr-only">
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {entries.map(([key, value]) => (
              <FieldRow key={key} name={key}>
                {value === null ? <span className="text-slate-500 italic">empty</span> : <LongText text={String(value)} />}
              </FieldRow>
            ))}
            {structured.map((field) => (
              <FieldRow key={`structured:${field.name}`} name={field.name}>
                <StructuredValue field={field} />
              </FieldRow>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

function FieldRow({ name, children }: { name: string; children: React.ReactNode }) {
  return (
    <tr>
      <th
        scope="row"
        className="w-2/5 py-1.5 pr-3 align-top font-medium break-words text-slate-600"
        title={name.length <= 200 ? name : undefined}
        data-field={name.length <= 200 ? name : undefined}
      >
        <LongText text={labelOf(name)} limit={80} />
      </th>
      <td className="py-1.5 align-top break-words whitespace-pre-wrap text-slate-900">{children}</td>
    </tr>
  );
}
