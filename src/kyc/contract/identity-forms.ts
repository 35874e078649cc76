import { isPlainObject } from './value-kind.ts';

/**
 * Identity attributes in forms near the contract's `{type, value}`, read as what they say (record-reading.ts)
 * and marked, so that the page says which came: a bare string (`"given_name": "Ana"`) is a string
 * attribute, and so is `{value: "Ana"}` with no `type` (the type its value's kind says). Each is marked
 * "sent without a type" (wasSentWithoutType): what is missing is named, the value shown.
 */

const sentWithoutType = new WeakSet<object>();

/** An attribute read from a form without a `type` (a bare string, `{value}` alone): its `type` is the value's kind. */
export function wasSentWithoutType(attribute: object | undefined): boolean {
  return attribute !== undefined && sentWithoutType.has(attribute);
}

/** The attribute a near form says (undefined for any other form): `"Ana"` and `{"value": "Ana"}` are `{type: "string", value: "Ana"}`. */
export function readUntypedAttribute(value: unknown): { type: string; value: string } | undefined {
  const text = typeof value === 'string' ? value : untypedText(value);
  if (text === undefined) return undefined;
  const attribute = { type: 'string', value: text };
  sentWithoutType.add(attribute);
  return attribute;
}

function untypedText(value: unknown): string | undefined {
  if (!isPlainObject(value) || Object.hasOwn(value, 'type') || !Object.hasOwn(value, 'value')) return undefined;
  return typeof value.value === 'string' ? value.value : undefined;
}
