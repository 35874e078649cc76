import { queryOptions } from '@tanstack/react-query';

export interface PhoneFormatter {
  /** The service's `phoneNumber` (international, with its "+") as written for people, and its tel: link. */
  format: (phoneNumber: string) => { formatted: string; uri: string | undefined } | undefined;
  /**
   * A national `number` with the calling code of its country (ISO alpha-2): `+44 7700 900123` from
   * `7700900123` and GB. Undefined when the country is unknown to libphonenumber, or the number already
   * starts with "+" (then nothing was composed).
   */
  compose: (number: string, country: string) => { formatted: string; callingCode: string } | undefined;
}

export const phoneQueries = {
  /** libphonenumber's metadata is loaded only when a phone number is shown, and then kept. */
  formatter: () =>
    queryOptions({
      queryKey: ['libphonenumber'] as const,
      queryFn: async (): Promise<PhoneFormatter> => {
        const { isSupportedCountry, parsePhoneNumberFromString } = await import('libphonenumber-js/min');
        return {
          format: (phoneNumber) => {
            const parsed = parsePhoneNumberFromString(phoneNumber);
            // The link is built from the parsed number (E.164), never from the raw text.
            return parsed ? { formatted: parsed.formatInternational(), uri: parsed.isPossible() ? parsed.getURI() : undefined } : undefined;
          },
          compose: (number, country) => {
            const code = country.toUpperCase();
            if (number.trim().startsWith('+') || !isSupportedCountry(code)) return undefined;
            const parsed = parsePhoneNumberFromString(number, code);
            return parsed ? { formatted: parsed.formatInternational(), callingCode: parsed.countryCallingCode } : undefined;
          },
        };
      },
      staleTime: Infinity,
      gcTime: Infinity,
    }),
};
