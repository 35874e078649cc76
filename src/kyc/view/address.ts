import { type PostalAddress, postalAddressSchema } from '../contract/identity-values.ts';
import { type Decoded, decodeJsonAttribute } from './json-attribute.ts';

export function decodeAddress(raw: string): Decoded<PostalAddress> {
  return decodeJsonAttribute(raw, postalAddressSchema, 'address');
}

/** The lines of a postal address, each named by its part, empty parts left out: street, extra info, "postcode city", state. */
export function addressParts(address: PostalAddress): Array<{ part: 'street' | 'extra' | 'city' | 'state'; text: string }> {
  const clean = (text: string | undefined) => text?.trim() ?? '';
  const cityLine = [clean(address.postalCode), clean(address.city)].filter(Boolean).join(' ');
  const parts = [
    { part: 'street', text: clean(address.address) },
    { part: 'extra', text: clean(address.extraInfo) },
    { part: 'city', text: cityLine },
    { part: 'state', text: clean(address.state) },
  ] as const;
  return parts.filter((line) => line.text !== '');
}
