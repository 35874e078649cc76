import { labelOf } from '../../kyc/contract/certificate-fields.ts';
import { LongText } from '../ui/long-text.tsx';
import { Section } from '../ui/section.tsx';

/**
 * Client-defined fields as a key/value table, each named in words as the decision summary, the support
 * card and the certificates name it (`customerTier`: Customer tier), its key on hover.
 */
export function CustomFields({ fields }: { fields: Record<string, string | number | boolean | null> }) {
  const entries = Object.entries(fields);
  return (
    <Section title="Custom fields">
      {entries.length === 0 ? (
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
              <tr key={key}>
                <th
                  scope="row"
                  className="w-2/5 py-1.5 pr-3 align-top font-medium break-words text-slate-600"
                  title={key.length <= 200 ? key : undefined}
                  data-field={key.length <= 200 ? key : undefined}
                >
                  <LongText text={labelOf(key)} limit={80} />
                </th>
                <td className="py-1.5 align-top break-words whitespace-pre-wrap text-slate-900">
                  {value === null ? <span className="text-slate-500 italic">empty</span> : <LongText text={String(value)} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}
