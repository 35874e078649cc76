import { JsonTextTooDeepError, withinTextDepth } from '../contract/json-depth.ts';
import type { UnreadField } from '../contract/record-reading.ts';
import { isPlainObject, kindOf } from '../contract/value-kind.ts';
import type { z } from '../contract/zod.ts';
import { type StructuredField, structuredField } from '../contract/other-forms.ts';
import { numberTextAt, parseJsonKeepingNumbers } from '../contract/number-text.ts';

/**
 * Identity attributes such as address and phone are strings holding JSON: decoded, with the parts that
 * could not be read named (their kind, never their value), the parts the documentation does not name
 * listed as sent (`others`), or why not at all.
 */
export type Decoded<T> = { ok: true; value: T; unread: UnreadField[]; others: OtherPart[] } | { ok: false; raw: string; problem: string };

/** A part the documentation does not name (`county`), by its name, with its value as text: text as sent, anything else as its JSON. */
export interface OtherPart {
  name: string;
  text: string;
  /** An object or a list, shown as its JSON and marked so, as a custom field of that form is. */
  notText?: StructuredField['kind'];
}

type ObjectSchema<T> = z.ZodMiniType<T> & { def: { shape: Record<string, unknown> } };

/**
 * Parses a string holding a JSON object with the given schema; says what is wrong otherwise. Liberal as
 * the record's reading is (record-reading.ts): a part of another kind than the contract's (a list where
 * the postal code was due) costs that part alone: the rest is decoded, and that part named in `unread`.
 * A part the schema does not name is never dropped: it is in `others`, every one of the object's own
 * keys (a `__proto__` too, which a parsed copy would lose).
 */
export function decodeJsonAttribute<T>(raw: string, schema: ObjectSchema<T>, what: string): Decoded<T> {
  let json: unknown;
  try {
    json = numbersAsSent(withinTextDepth(parseJsonKeepingNumbers(raw), raw));
  } catch (error) {
    // Nested too deep to be read again (json-depth.ts): a 10,000-deep address threw out of the page's card.
    const deep = error instanceof JsonTextTooDeepError || error instanceof RangeError;
    return { ok: false, raw, problem: deep ? `The ${what} is JSON nested too deeply to read.` : `The ${what} is not valid JSON.` };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data, unread: [], others: othersOf(json, schema) };
  if (isPlainObject(json)) {
    // The schema's parts that did not read (an issue's first key is always one of them: others are dropped).
    const odd = new Set(parsed.error.issues.flatMap((issue) => (issue.path.length > 0 ? [String(issue.path[0])] : [])));
    const rest = Object.fromEntries(Object.entries(json).filter(([name]) => !odd.has(name)));
    const again = schema.safeParse(rest);
    if (again.success) {
      const unread = Object.keys(json).filter((name) => odd.has(name));
      const named = unread.map((field) => ({ field, expected: 'text', found: kindOf(json[field]) }));
      return { ok: true, value: again.data, unread: named, others: othersOf(json, schema) };
    }
  }
  const first = parsed.error.issues[0];
  const where = first && first.path.length > 0 ? ` (${first.path.join('.')})` : '';
  return { ok: false, raw, problem: `The ${what} does not have the expected fields${where}.` };
}

/**
 * The object's parts that are numbers as the text the service wrote, where it was kept (number-text.ts), else
 * their digits: a part is read as text (a postal code sent as 12345678901234567890 is those digits, never
 * "12345678901234567000" nor "1e+21"). A copy, every own key kept (Object.fromEntries defines `__proto__` too).
 */
function numbersAsSent(json: unknown): unknown {
  if (!isPlainObject(json)) return json;
  return Object.fromEntries(
    Object.entries(json).map(([name, value]) => [name, typeof value === 'number' ? numberTextAt(json, name, value).digits : value]),
  );
}

/** The object's own parts the schema does not name, by name (in code-point order, so the card reads alike every time). */
function othersOf(json: unknown, schema: ObjectSchema<unknown>): OtherPart[] {
  if (!isPlainObject(json)) return [];
  return Object.entries(json)
    .filter(([name]) => !Object.hasOwn(schema.def.shape, name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => {
      // An object or a list, as a custom field of that form is read (other-forms.ts).
      const structured = structuredField(name, value);
      return structured
        ? { name, text: structured.json, notText: structured.kind }
        : { name, text: typeof value === 'string' ? value : JSON.stringify(value) };
    });
}
