import { type PostalAddress, postalAddressSchema } from '../contract/identity-values.ts';
import type { z } from '../contract/zod.ts';

export type Decoded<T> = { ok: true; value: T } | { ok: false; raw: string; problem: string };

/** Parses a string holding a JSON object with the given schema; says what is wrong otherwise. */
export function decodeJsonAttribute<T>(raw: string, schema: z.ZodMiniType<T>, what: string): Decoded<T> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, raw, problem: `The ${what} is not valid JSON.` };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first && first.path.length > 0 ? ` (${first.path.join('.')})` : '';
    return { ok: false, raw, problem: `The ${what} does not have the expected fields${where}.` };
  }
  return { ok: true, value: parsed.data };
}

export function decodeAddress(raw: string): Decoded<PostalAddress> {
  return decodeJsonAttribute(raw, postalAddressSchema, 'address');
}

/** The lines of a postal address, empty parts left out: street, extra info, "postcode city", state. */
export function addressLines(address: PostalAddress): string[] {
  const clean = (text: string | undefined) => text?.trim() ?? '';
  const cityLine = [clean(address.postalCode), clean(address.city)].filter(Boolean).join(' ');
  return [clean(address.address), clean(address.extraInfo), cityLine, clean(address.state)].filter(Boolean);
}
