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

/** A custom field whose value is an object or a list: its compact JSON, and which of the two it was. */
export interface StructuredField {
  name: string;
  json: string;
  kind: 'an object' | 'a list';
}

const structuredByFields = new WeakMap<object, readonly StructuredField[]>();

/** Keeps the object and list values beside the custom fields read (`fields`), which hold only text, numbers, true/false and null. */
export function attachStructuredFields(fields: object, structured: readonly StructuredField[]): void {
  if (structured.length > 0) structuredByFields.set(fields, structured);
}

/** The custom fields that came as an object or a list, in the order sent (none for fields read whole). */
export function structuredFieldsOf(fields: object | undefined): readonly StructuredField[] {
  return (fields && structuredByFields.get(fields)) ?? [];
}

/** A custom field's value as kept beside the others: an object or a list as compact JSON; undefined for anything else. */
export function structuredField(name: string, value: unknown): StructuredField | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return { name, json: JSON.stringify(value), kind: Array.isArray(value) ? 'a list' : 'an object' };
}
