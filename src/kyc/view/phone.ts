import { z } from '../contract/zod.ts';
import { decodeJsonAttribute, type Decoded } from './address.ts';

/** The `phone` identity attribute: a string holding JSON. */
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

export function decodePhone(raw: string): Decoded<Phone> {
  return decodeJsonAttribute(raw, phoneSchema, 'phone number');
}
