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
 * A custom field or an identity attribute whose value is an object or a list: its compact JSON, which of
 * the two it was, and for an attribute the `type` it came with (when it came with one).
 */
export interface StructuredField {
  name: string;
  json: string;
  kind: 'an object' | 'a list';
  type?: string;
}

const structuredByFields = new WeakMap<object, readonly StructuredField[]>();

/** Keeps the object and list values beside the map read (`fields`: the custom fields or the identities), which holds none. */
export function attachStructuredFields(fields: object, structured: readonly StructuredField[]): void {
  if (structured.length > 0) structuredByFields.set(fields, structured);
}

/** The entries of a map that came as an object or a list, in the order sent (none for a map read whole). */
export function structuredFieldsOf(fields: object | undefined): readonly StructuredField[] {
  return (fields && structuredByFields.get(fields)) ?? [];
}

/** A value as kept beside the others: an object or a list as compact JSON; undefined for anything else. */
export function structuredField(name: string, value: unknown): StructuredField | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return { name, json: boundedJson(value), kind: Array.isArray(value) ? 'a list' : 'an object' };
}

/** How the page, the copy and the cards say such a value: "not text: an object, as JSON". */
export function notTextWords(field: Pick<StructuredField, 'kind'>): string {
  return `not text: ${field.kind}, as JSON`;
}

/** The longest JSON kept of one value, in characters: the page cuts it further, and a copy holds no more. */
export const MAX_STRUCTURED_JSON = 10_000;
/** The deepest level written out: below it `…` (JSON.stringify overflows the stack on a deep enough value). */
export const MAX_STRUCTURED_DEPTH = 32;

/**
 * The value's compact JSON, as JSON.stringify writes it, but never longer than MAX_STRUCTURED_JSON nor
 * deeper than MAX_STRUCTURED_DEPTH: what is left out is `…`. A megabyte object costs ten thousand
 * characters, a thousand levels of nesting no stack; every own key is written (a `__proto__` too).
 */
function boundedJson(value: object): string {
  const parts: string[] = [];
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
  const write = (item: unknown, depth: number): boolean => {
    if (typeof item !== 'object' || item === null) return put(JSON.stringify(item) ?? 'null');
    if (depth >= MAX_STRUCTURED_DEPTH) return put('…');
    const list = Array.isArray(item);
    if (!put(list ? '[' : '{')) return false;
    let first = true;
    for (const [key, each] of Object.entries(item)) {
      if (!first && !put(',')) return false;
      if (!list && !put(`${JSON.stringify(key)}:`)) return false;
      if (!write(each, depth + 1)) return false;
      first = false;
    }
    return put(list ? ']' : '}');
  };
  write(value, 0);
  return parts.join('');
}
