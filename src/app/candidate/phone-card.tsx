import { useQuery } from '@tanstack/react-query';
import { countryName } from '../../kyc/view/countries.ts';
import { decodePhone } from '../../kyc/view/phone.ts';
import { Masked } from '../preferences/privacy-reveal.tsx';
import { RawValue } from '../ui/raw-value.tsx';
import { Section } from '../ui/section.tsx';
import { phoneQueries } from './phone-queries.ts';
import { UnreadPartsNotice } from './unread-fields.tsx';

/** The decoded phone as an international number with its country and a tel: link. */
export function PhoneCard({ raw }: { raw: string }) {
  const decoded = decodePhone(raw);
  const formatter = useQuery({ ...phoneQueries.formatter(), enabled: decoded.ok });
  if (!decoded.ok) {
    return (
      <Section title="Phone">
        <Masked maskKey="phone" label="Phone" block>
          <RawValue raw={raw} problem={decoded.problem} />
        </Masked>
      </Section>
    );
  }
  const phone = decoded.value;
  const parsed = formatter.data?.(phone.phoneNumber);
  const formatted = parsed?.formatted ?? phone.phoneNumber;
  const href = parsed?.uri;
  const country = countryName(phone.countryCode) ?? countryName(phone.countryCode2);
  return (
    <Section title="Phone">
      <Masked maskKey="phone" label="Phone" block>
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
        <UnreadPartsNotice unread={decoded.unread} />
      </Masked>
    </Section>
  );
}
