import { addressParts, decodeAddress } from '../../kyc/view/address.ts';
import { countryName } from '../../kyc/view/countries.ts';
import { Masked } from '../preferences/privacy-reveal.tsx';
import { LongText } from '../ui/long-text.tsx';
import { RawValue } from '../ui/raw-value.tsx';
import { Section } from '../ui/section.tsx';
import { OtherParts, SentAsObjectNote } from './other-parts.tsx';
import { UnreadPartsNotice } from './unread-fields.tsx';

/**
 * The decoded address as a postal address, the country by name, and any part the documentation does not
 * name under its own; the raw text when it does not decode. `sentAsObject`: the service sent an object
 * where text holding it is documented (other-forms.ts).
 */
export function AddressCard({ raw, sentAsObject = false }: { raw: string; sentAsObject?: boolean }) {
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
            <OtherParts parts={decoded.others} />
            <UnreadPartsNotice unread={decoded.unread} />
          </>
        ) : (
          <RawValue raw={raw} problem={decoded.problem} />
        )}
      </Masked>
      {sentAsObject && <SentAsObjectNote what="address" />}
    </Section>
  );
}
