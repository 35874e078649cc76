import { z } from './zod.ts';

/**
 * The identity attributes whose value is a string holding JSON: what the service sends (and the sandbox
 * produces), and what the browser decodes for its address and phone cards.
 */

/**
 * A part of an address or a phone: text. Read liberally: a number (a postal code or a national number
 * sent as one) as the text JSON writes it, and null as absent; the contract's form is text alone.
 */
const part = z.pipe(
  z.union([z.string(), z.number(), z.null()]),
  z.transform((value) => (value === null ? undefined : String(value))),
);

/** The `address` attribute. */
export const postalAddressSchema = z.object({
  address: z.optional(part),
  extraInfo: z.optional(part),
  city: z.optional(part),
  state: z.optional(part),
  postalCode: z.optional(part),
  /** ISO 3166-1 alpha-3. */
  country: z.optional(part),
});
export type PostalAddress = z.infer<typeof postalAddressSchema>;

/** The `phone` attribute. */
export const phoneSchema = z.object({
  /** ISO 3166-1 alpha-3. */
  countryCode: z.optional(part),
  /** ISO 3166-1 alpha-2, lower case. */
  countryCode2: z.optional(part),
  /** International format with a leading "+": the one part the card cannot do without. */
  phoneNumber: z.string(),
  /** National number without prefix. */
  number: z.optional(part),
});
export type Phone = z.infer<typeof phoneSchema>;
