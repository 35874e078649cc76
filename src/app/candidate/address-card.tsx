import { addressLines, decodeAddress } from '../../kyc/view/address.ts';
import { countryName } from '../../kyc/view/countries.ts';
import { LongText } from '../ui/long-text.tsx';
import { Notice, Section } from '../ui/section.tsx';

/** The decoded address as a postal address, the country by name; the raw text when it does not decode. */
export function AddressCard({ raw }: { raw: string }) {
  const decoded = decodeAddress(raw);
  return (
    <Section title="Address">
      {decoded.ok ? (
        <address className="text-sm break-words text-slate-900 not-italic">
          {addressLines(decoded.value).map((line, i) => (
            <div key={i}>
              <LongText text={line} limit={200} />
            </div>
          ))}
          {decoded.value.country && (
            <div className="font-medium">
              {countryName(decoded.value.country) ?? 'Unknown country'}{' '}
              <span className="font-normal text-slate-500">({decoded.value.country})</span>
            </div>
          )}
        </address>
      ) : (
        <RawValue raw={raw} problem={decoded.problem} />
      )}
    </Section>
  );
}

export function RawValue({ raw, problem }: { raw: string; problem: string }) {
  return (
    <div className="space-y-2">
      <Notice tone="warning">{problem} Shown as received.</Notice>
      <pre
        tabIndex={0}
        aria-label="Value as received"
        className="max-h-48 overflow-auto rounded bg-slate-50 p-2 text-xs break-all whitespace-pre-wrap text-slate-800 focus-visible:outline-2 focus-visible:outline-blue-600"
      >
        {raw}
      </pre>
    </div>
  );
}
