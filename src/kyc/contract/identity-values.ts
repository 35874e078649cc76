import { z } from './zod.ts';

/**
 * The identity attributes whose value is a string holding JSON: what the service sends (and the sandbox
 * produces), and what the browser decodes for its address and phone cards.
 */

/** The `address` attribute. */
export const postalAddressSchema = z.object({
  address: z.optional(z.string()),
  extraInfo: z.optional(z.string()),
  city: z.optional(z.string()),
  state: z.optional(z.string()),
  postalCode: z.optional(z.string()),
  /** ISO 3166-1 alpha-3. */
  country: z.optional(z.string()),
});
export type PostalAddress = z.infer<typeof postalAddressSchema>;

/** The `phone` attribute. */
export const phoneSchema = z.object({
  /** ISO 3166-1 alpha-3. */
  countryCode: z.optional(z.string()),
  /** ISO 3166-1 alpha-2, lower case. */
  countryCode2: z.optional(z.string()),
  /** International format with a leading "+". */
  phoneNumber: z.string(),
  /** National number without prefix. */
  number: z.optional(z.string()),
});
export type Phone = z.infer<typeof phoneSchema>;
