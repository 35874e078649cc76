import { type Phone, phoneSchema } from '../contract/identity-values.ts';
import { type Decoded, decodeJsonAttribute } from './json-attribute.ts';

export function decodePhone(raw: string): Decoded<Phone> {
  return decodeJsonAttribute(raw, phoneSchema, 'phone number');
}
