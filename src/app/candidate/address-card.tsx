import { addressParts, decodeAddress } from '../../kyc/view/address.ts';
import { countryName } from '../../kyc/view/countries.ts';
import { Masked } from '../preferences/privacy-reveal.tsx';
import { LongText } from '../ui/long-text.tsx';
import { RawValue } from '../ui/raw-value.tsx';
import { Section } from '../ui/section.tsx';
import { UnreadPartsNotice } from './unread-fields.tsx';

/** The decoded address as a postal address, the country by name; the raw text when it does not decode. */
export function AddressCard({ raw }: { raw: string }) {
  const decoded = decodeAddress(raw);
  return (
    <Section title="Address">
      <Masked maskKey="address" label="Address" block>
        {decoded.ok ? (
          <>
            <address className="text-sm break-words text-slate-900 not-italic">
              {addressParts(decoded.value).map(({ part, text }) => (
                <div key={part}>
                  <LongText text={text} limit={200} />
                </div>
              ))}
              {decoded.value.country && (
                <div className="font-medium">
                  {countryName(decoded.value.country) ?? 'Unknown country'}{' '}
                  <span className="font-normal text-slate-500">({decoded.value.country})</span>
                </div>
              )}
            </address>
            <UnreadPartsNotice unread={decoded.unread} />
          </>
        ) : (
          <RawValue raw={raw} problem={decoded.problem} />
        )}
      </Masked>
    </Section>
  );
}
