import { isPlainObject, kindOf, type UnreadField } from '../contract/record-reading.ts';
import type { z } from '../contract/zod.ts';

/**
 * Identity attributes such as address and phone are strings holding JSON: decoded, with the parts that
 * could not be read named (their kind, never their value), or why not at all.
 */
export type Decoded<T> = { ok: true; value: T; unread: UnreadField[] } | { ok: false; raw: string; problem: string };

/**
 * Parses a string holding a JSON object with the given schema; says what is wrong otherwise. Liberal as
 * the record's reading is (record-reading.ts): a part of another kind than the contract's (a list where
 * the postal code was due) costs that part alone, unless the card cannot do without it (a phone's
 * `phoneNumber`): the rest is decoded, and that part named in `unread`.
 */
export function decodeJsonAttribute<T>(raw: string, schema: z.ZodMiniType<T>, what: string): Decoded<T> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, raw, problem: `The ${what} is not valid JSON.` };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data, unread: [] };
  if (isPlainObject(json)) {
    // The schema's parts that did not read (an issue's first key is always one of them: others are dropped).
    const odd = new Set(parsed.error.issues.flatMap((issue) => (issue.path.length > 0 ? [String(issue.path[0])] : [])));
    const rest = Object.fromEntries(Object.entries(json).filter(([name]) => !odd.has(name)));
    const again = schema.safeParse(rest);
    if (again.success) {
      const unread = Object.keys(json).filter((name) => odd.has(name));
      return { ok: true, value: again.data, unread: unread.map((field) => ({ field, expected: 'text', found: kindOf(json[field]) })) };
    }
  }
  const first = parsed.error.issues[0];
  const where = first && first.path.length > 0 ? ` (${first.path.join('.')})` : '';
  return { ok: false, raw, problem: `The ${what} does not have the expected fields${where}.` };
}
