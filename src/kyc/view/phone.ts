import { type Phone, phoneSchema } from '../contract/identity-values.ts';
import { decodeJsonAttribute, type Decoded } from './address.ts';

export function decodePhone(raw: string): Decoded<Phone> {
  return decodeJsonAttribute(raw, phoneSchema, 'phone number');
}
