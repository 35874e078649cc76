import { type Phone, phoneSchema } from '../contract/identity-values.ts';
import { type Decoded, decodeJsonAttribute } from './json-attribute.ts';

/** Decoded while it holds a number to show: its `phoneNumber`, or else its national `number` (the card composes the rest). */
export function decodePhone(raw: string): Decoded<Phone> {
  const decoded = decodeJsonAttribute(raw, phoneSchema, 'phone number');
  if (decoded.ok && decoded.value.phoneNumber === undefined && decoded.value.number === undefined) {
    return { ok: false, raw, problem: 'The phone number has neither a phoneNumber nor a number.' };
  }
  return decoded;
}
