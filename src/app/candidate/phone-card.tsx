import { useQuery } from '@tanstack/react-query';
import { countryName } from '../../kyc/countries.ts';
import { decodePhone, telHref } from '../../kyc/phone.ts';
import { Section } from '../ui/section.tsx';
import { RawValue } from './address-card.tsx';

/** libphonenumber's metadata is loaded only when a phone number is shown. */
const phoneFormatter = () => ({
  queryKey: ['libphonenumber'] as const,
  queryFn: async () => {
    const { parsePhoneNumberFromString } = await import('libphonenumber-js/min');
    return (phoneNumber: string) => parsePhoneNumberFromString(phoneNumber)?.formatInternational();
  },
  staleTime: Infinity,
  gcTime: Infinity,
});

/** The decoded phone as an international number with its country and a tel: link. */
export function PhoneCard({ raw }: { raw: string }) {
  const decoded = decodePhone(raw);
  const formatter = useQuery({ ...phoneFormatter(), enabled: decoded.ok });
  if (!decoded.ok) {
    return (
      <Section title="Phone" level={3}>
        <RawValue raw={raw} problem={decoded.problem} />
      </Section>
    );
  }
  const phone = decoded.value;
  const formatted = formatter.data?.(phone.phoneNumber) ?? phone.phoneNumber;
  const href = telHref(phone.phoneNumber);
  const country = countryName(phone.countryCode) ?? countryName(phone.countryCode2);
  return (
    <Section title="Phone" level={3}>
      <p className="text-lg font-medium break-words text-slate-900">
        {href ? (
          <a href={href} className="text-blue-700 underline underline-offset-2 hover:text-blue-900" data-testid="phone-number">
            {formatted}
          </a>
        ) : (
          <span data-testid="phone-number">{formatted}</span>
        )}
      </p>
      {country && (
        <p className="text-sm text-slate-600">
          {country} <span className="text-slate-500">({phone.countryCode ?? phone.countryCode2?.toUpperCase()})</span>
        </p>
      )}
    </Section>
  );
}
