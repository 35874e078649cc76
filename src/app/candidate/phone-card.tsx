import { useQuery } from '@tanstack/react-query';
import type { Phone } from '../../kyc/contract/identity-values.ts';
import { alpha2Of, countryName } from '../../kyc/view/countries.ts';
import { decodePhone } from '../../kyc/view/phone.ts';
import { Masked } from '../preferences/privacy-reveal.tsx';
import { LongText } from '../ui/long-text.tsx';
import { RawValue } from '../ui/raw-value.tsx';
import { Section } from '../ui/section.tsx';
import { OtherParts, SentAsObjectNote } from './other-parts.tsx';
import { type PhoneFormatter, phoneQueries } from './phone-queries.ts';
import { UnreadPartsNotice } from './unread-fields.tsx';

/**
 * The decoded phone as an international number with its country and a tel: link, and any part the
 * documentation does not name under its own. `sentAsObject`: the service sent an object where text
 * holding it is documented (other-forms.ts).
 */
export function PhoneCard({ raw, sentAsObject = false }: { raw: string; sentAsObject?: boolean }) {
  const decoded = decodePhone(raw);
  const formatter = useQuery({ ...phoneQueries.formatter(), enabled: decoded.ok });
  const phone = decoded.ok ? decoded.value : undefined;
  const country = phone && (countryName(phone.countryCode) ?? countryName(phone.countryCode2));
  return (
    <Section title="Phone">
      <Masked maskKey="phone" label="Phone" block>
        {decoded.ok && phone ? (
          <>
            {phone.phoneNumber?.trim() ? (
              <GivenNumber phoneNumber={phone.phoneNumber} formatter={formatter.data} />
            ) : (
              <ComposedNumber phone={phone} country={country} formatter={formatter.data} />
            )}
            {country && (
              <p className="text-sm text-slate-600">
                {country} <span className="text-slate-500">({phone.countryCode ?? phone.countryCode2?.toUpperCase()})</span>
              </p>
            )}
            <OtherParts parts={decoded.others} />
            <UnreadPartsNotice unread={decoded.unread} />
          </>
        ) : (
          !decoded.ok && <RawValue raw={raw} problem={decoded.problem} />
        )}
      </Masked>
      {sentAsObject && <SentAsObjectNote what="phone number" />}
    </Section>
  );
}

/** The service's full number, formatted and linked once libphonenumber is loaded. */
function GivenNumber({ phoneNumber, formatter }: { phoneNumber: string; formatter: PhoneFormatter | undefined }) {
  const parsed = formatter?.format(phoneNumber);
  return (
    <p className="text-lg font-medium break-words text-slate-900">
      {parsed?.uri ? (
        <a href={parsed.uri} className="text-blue-700 underline underline-offset-2 hover:text-blue-900" data-testid="phone-number">
          {parsed.formatted}
        </a>
      ) : (
        <span data-testid="phone-number">{parsed?.formatted ?? <LongText text={phoneNumber} limit={60} />}</span>
      )}
    </p>
  );
}

/**
 * No full number came, only the national `number`: it is shown with its country's calling code where that
 * is known, and said to be composed here (no link: the service never gave that number), else as sent.
 */
function ComposedNumber({
  phone,
  country,
  formatter,
}: {
  phone: Phone;
  country: string | undefined;
  formatter: PhoneFormatter | undefined;
}) {
  const number = phone.number?.trim() ?? '';
  const alpha2 = alpha2Of(phone.countryCode2) ?? alpha2Of(phone.countryCode);
  const composed = number && alpha2 ? formatter?.compose(number, alpha2) : undefined;
  if (!number) return <p className="text-sm text-slate-500 italic">No number was given.</p>;
  return (
    <>
      <p className="text-lg font-medium break-words text-slate-900">
        <span data-testid="phone-number">{composed?.formatted ?? <LongText text={number} limit={60} />}</span>
      </p>
      <p className="text-xs text-amber-800" data-testid="phone-composed">
        {composed ? (
          <>
            Composed here from the calling code of {country ?? alpha2} (+{composed.callingCode}) and the number sent,{' '}
            <LongText text={number} limit={60} />: no full number given.
          </>
        ) : !alpha2 ? (
          'The number as sent: no full number given, and no country to take a calling code from.'
        ) : formatter ? (
          'The number as sent: no full number given, and none could be composed with its country’s calling code.'
        ) : (
          'The number as sent: no full number given.'
        )}
      </p>
    </>
  );
}
