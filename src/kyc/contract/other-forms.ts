import { numberTextAt } from './number-text.ts';

export { numberText } from './number-text.ts';

/**
 * What the record's reading (record-reading.ts) took from another form than the contract's and still
 * shows, kept beside the record rather than in it, as `unread` is: the page says which form came, and
 * nothing else (the decision summary, a support user's fields, the hand-off) takes such a value for one
 * sent as documented.
 */

/** An attribute whose value came as an object where the contract has text holding that object's JSON. */
const sentAsObject = new WeakSet<object>();

/** Marks an attribute read from an object value (its `value` is now that object's JSON). */
export function markSentAsObject<T extends object>(attribute: T): T {
  sentAsObject.add(attribute);
  return attribute;
}

/** Whether the attribute's value came as an object, not as the text the contract documents. */
export function wasSentAsObject(attribute: object | undefined): boolean {
  return attribute !== undefined && sentAsObject.has(attribute);
}

/**
 * A custom field or an identity attribute whose value is an object or a list, or for an attribute a
 * number, true or false, or null where text was due: its JSON (compact; a number's digits: numberText),
 * which kind it was, and for an attribute the `type` it came with (when it came with one).
 */
export interface StructuredField {
  name: string;
  json: string;
  kind: 'an object' | 'a list' | ScalarKind;
  type?: string;
  /** A number read rounded, or for an object or a list one of its numbers (numberText): its digits may not be those sent. */
  rounded?: true;
  /** A number past the largest JavaScript holds (`1e309` reads as Infinity): `json` is its text as sent, no number read (scalarField). */
  tooLarge?: true;
}

type ScalarKind = 'a number' | 'true or false' | 'null';

const structuredByFields = new WeakMap<object, readonly StructuredField[]>();

/** Keeps the object and list values beside the map read (`fields`: the custom fields or the identities), which holds none. */
export function attachStructuredFields(fields: object, structured: readonly StructuredField[]): void {
  if (structured.length > 0) structuredByFields.set(fields, structured);
}

/** The entries of a map that came as an object or a list, in the order sent (none for a map read whole). */
export function structuredFieldsOf(fields: object | undefined): readonly StructuredField[] {
  return (fields && structuredByFields.get(fields)) ?? [];
}

/**
 * A value as kept beside the others: an object or a list as compact JSON (its numbers as sent, where their
 * text was kept: number-text.ts); undefined for anything else.
 */
export function structuredField(name: string, value: unknown): StructuredField | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { json, rounded } = boundedJson(value);
  return { name, json, kind: Array.isArray(value) ? 'a list' : 'an object', ...(rounded ? { rounded } : {}) };
}

/** How the page, the copy and the cards say such a value: "not text: an object, as JSON", "not text: a number". */
export function notTextWords(field: Pick<StructuredField, 'kind' | 'rounded' | 'tooLarge'>): string {
  return `not text: ${sentWords(field)}`;
}

/** What came, beside the `type` an attribute declared: "declared string; sent as a number". */
export function sentAsWords(field: Pick<StructuredField, 'kind' | 'rounded' | 'tooLarge'>): string {
  return `sent as ${sentWords(field)}`;
}

function sentWords({ kind, rounded, tooLarge }: Pick<StructuredField, 'kind' | 'rounded' | 'tooLarge'>): string {
  const structured = kind === 'an object' || kind === 'a list';
  return `${kind}${tooLarge ? ` ${TOO_LARGE_WORDS}` : ''}${structured ? ', as JSON' : ''}${rounded ? `; ${ROUNDED_WORDS}` : ''}`;
}

/** Said of a number read rounded (numberText). */
export const ROUNDED_WORDS = 'too long to read exactly, its last digits may differ from those sent';

/** Said of a number past the largest JavaScript holds, after "a number" (scalarField): its text is shown, never a number read. */
export const TOO_LARGE_WORDS = 'too large to read, shown as received';

/**
 * The number at `holder[key]` as a row writes it: as sent where its text was kept (number-text.ts:
 * 12345678901234567890, `1e21`), else in its digits, followed by ROUNDED_WORDS when they may not be those sent.
 */
export function numberWords(holder: object | undefined, key: string, value: number): string {
  const { digits, rounded } = numberTextAt(holder, key, value);
  return rounded ? `${digits} (${ROUNDED_WORDS})` : digits;
}

/**
 * A custom field's value as the page, a copy and a reply write it: a number by numberWords (never
 * JavaScript's "1e+21"). `fields` is the map the field was read into, which holds the texts kept.
 */
export function fieldText(fields: object | undefined, name: string, value: string | number | boolean): string {
  return typeof value === 'number' ? numberWords(fields, name, value) : String(value);
}

/**
 * An attribute's value (`attribute.value`, or `holder[key]`: a top-level field of the record) that is a
 * number, true or false, or null, where text was due: kept as its JSON (a number as sent where its text
 * was kept, else its digits: number-text.ts; never a date or a time it might be read as), by the rule of
 * an object's. A number past the largest JavaScript holds, its text kept, is marked `tooLarge`. Undefined
 * for anything else.
 */
export function scalarField(name: string, holder: Record<string, unknown>, key = 'value'): StructuredField | undefined {
  const value = holder[key];
  if (typeof value === 'number') {
    const { digits, rounded } = numberTextAt(holder, key, value);
    // A text kept of Infinity is the one sent (`1e309`), never JavaScript's "Infinity", which numberText writes where none was.
    const tooLarge = !Number.isFinite(value) && digits !== String(value);
    return { name, json: digits, kind: 'a number', ...(rounded ? { rounded } : {}), ...(tooLarge ? { tooLarge: true as const } : {}) };
  }
  if (typeof value === 'boolean') return { name, json: String(value), kind: 'true or false' };
  return value === null ? { name, json: 'null', kind: 'null' } : undefined;
}

/**
 * A custom field kept beside the others (`fields`: the custom fields as sent): an object or a list as its
 * JSON (structuredField), or a number past the largest JavaScript holds (`1e309`, `-1e309`: read as
 * Infinity), which no row can write as a number, as its text as sent (scalarField) where that text was
 * kept (number-text.ts). Undefined for anything else, and for such a number where the browser gave no
 * source text: then it is named unread as "a number too large to read" (value-kind.ts), its digits unknown.
 */
export function customFieldAside(name: string, value: unknown, fields: Record<string, unknown>): StructuredField | undefined {
  if (typeof value !== 'number') return structuredField(name, value);
  const kept = scalarField(name, fields, name);
  return kept?.tooLarge ? kept : undefined;
}

/** The longest JSON kept of one value, in characters: the page cuts it further, and a copy holds no more. */
export const MAX_STRUCTURED_JSON = 10_000;
/** The deepest level written out: below it `…` (JSON.stringify overflows the stack on a deep enough value). */
export const MAX_STRUCTURED_DEPTH = 32;

/**
 * The value's compact JSON, as JSON.stringify writes it, but never longer than MAX_STRUCTURED_JSON nor
 * deeper than MAX_STRUCTURED_DEPTH: what is left out is `…`. A megabyte object costs ten thousand
 * characters, a thousand levels of nesting no stack; every own key is written (a `__proto__` too). A
 * number is written as numberTextAt writes it (`1e21` as sent, or 1000000000000000000000, never "1e+21"), and
 * `rounded` says one of them may not be as sent.
 */
function boundedJson(value: object): { json: string; rounded: boolean } {
  const parts: string[] = [];
  let rounded = false;
  let length = 0;
  const put = (text: string): boolean => {
    if (length + text.length > MAX_STRUCTURED_JSON) {
      parts.push(text.slice(0, MAX_STRUCTURED_JSON - length), '…');
      length = MAX_STRUCTURED_JSON;
      return false;
    }
    parts.push(text);
    length += text.length;
    return true;
  };
  const number = (holder: object, key: string, item: number): boolean => {
    const text = numberTextAt(holder, key, item);
    rounded ||= text.rounded === true;
    // A number whose text was not kept and that JavaScript writes without an exponent is written as
    // JSON.stringify writes it (64838936131603210, the shortest text read back as it and likelier the one
    // sent), not in the double's own digits (64838936131603208), as stringifyKeepingNumbers does.
    const plain = JSON.stringify(item);
    return put(text.rounded && !/e/i.test(plain) ? plain : text.digits);
  };
  const write = (item: unknown, depth: number): boolean => {
    if (typeof item !== 'object' || item === null) return put(JSON.stringify(item) ?? 'null');
    if (depth >= MAX_STRUCTURED_DEPTH) return put('…');
    const list = Array.isArray(item);
    if (!put(list ? '[' : '{')) return false;
    let first = true;
    for (const [key, each] of Object.entries(item)) {
      if (!first && !put(',')) return false;
      if (!list && !put(`${JSON.stringify(key)}:`)) return false;
      if (!(typeof each === 'number' ? number(item, key, each) : write(each, depth + 1))) return false;
      first = false;
    }
    return put(list ? ']' : '}');
  };
  write(value, 0);
  return { json: parts.join(''), rounded };
}
