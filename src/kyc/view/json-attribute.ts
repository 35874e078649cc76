import type { z } from '../contract/zod.ts';

/** Identity attributes such as address and phone are strings holding JSON: decoded, or why not. */
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
