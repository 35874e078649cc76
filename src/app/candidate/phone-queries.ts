import { queryOptions } from '@tanstack/react-query';

export type PhoneFormatter = (phoneNumber: string) => { formatted: string; uri: string | undefined } | undefined;

export const phoneQueries = {
  /** libphonenumber's metadata is loaded only when a phone number is shown, and then kept. */
  formatter: () =>
    queryOptions({
      queryKey: ['libphonenumber'] as const,
      queryFn: async (): Promise<PhoneFormatter> => {
        const { parsePhoneNumberFromString } = await import('libphonenumber-js/min');
        return (phoneNumber) => {
          const parsed = parsePhoneNumberFromString(phoneNumber);
          // The link is built from the parsed number (E.164), never from the raw text.
          return parsed ? { formatted: parsed.formatInternational(), uri: parsed.isPossible() ? parsed.getURI() : undefined } : undefined;
        };
      },
      staleTime: Infinity,
      gcTime: Infinity,
    }),
};
