import { numberText } from './number-text.ts';
import { z } from './zod.ts';

/**
 * The identity attributes whose value is a string holding JSON: what the service sends (and the sandbox
 * produces), and what the browser decodes for its address and phone cards.
 */

/** The attributes documented as text holding a JSON object (an object given in its place is read as its JSON: record-reading.ts). */
export const JSON_TEXT_ATTRIBUTES: ReadonlySet<string> = new Set(['address', 'phone']);

/**
 * A part of an address or a phone: text. Read liberally: a number (a postal code or a national number
 * sent as one) as its digits (numberText: `1e21` is 1000000000000000000000, never "1e+21"), and null as
 * absent; the contract's form is text alone.
 */
const part = z.pipe(
  z.union([z.string(), z.number(), z.null()]),
  z.transform((value) => (value === null ? undefined : typeof value === 'number' ? numberText(value).digits : value)),
);

/**
 * The `address` attribute. Loose: a part the documentation does not name (`county`, `addressLine2`) is
 * kept, and the card shows it under its name (json-attribute.ts lists them).
 */
export const postalAddressSchema = z.looseObject({
  address: z.optional(part),
  extraInfo: z.optional(part),
  city: z.optional(part),
  state: z.optional(part),
  postalCode: z.optional(part),
  /** ISO 3166-1 alpha-3. */
  country: z.optional(part),
});
export type PostalAddress = z.infer<typeof postalAddressSchema>;

/** The `phone` attribute. Loose, as the address is (an `extension` is kept). */
export const phoneSchema = z.looseObject({
  /** ISO 3166-1 alpha-3. */
  countryCode: z.optional(part),
  /** ISO 3166-1 alpha-2, lower case. */
  countryCode2: z.optional(part),
  /**
   * International format with a leading "+". Documented, yet one came without it: the card then shows
   * `number` with the country's calling code, marked as composed (phone-card.tsx).
   */
  phoneNumber: z.optional(part),
  /** National number without prefix. */
  number: z.optional(part),
});
export type Phone = z.infer<typeof phoneSchema>;
