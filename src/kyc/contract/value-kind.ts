/** A JSON object: not null, not a list. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The kind of a value, in words; never the value. */
export function kindOf(value: unknown): string {
  if (value === null) return 'empty (null)';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return 'text';
    case 'number':
      return numberKind(value);
    case 'boolean':
      return 'true or false';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

/**
 * A number's kind: past 2^53 JSON's digits were not read exactly (12345678901234567890), so it is not
 * "a whole number", which would read as the kind expected; nor is a negative one, where a count is. Past
 * the largest JavaScript holds (`1e309` reads as Infinity) it is no number that can be read at all: "a
 * number" said "a number expected, a number found" of a custom field.
 */
function numberKind(value: number): string {
  if (!Number.isFinite(value)) return 'a number too large to read';
  if (!Number.isInteger(value)) return 'a number';
  if (!Number.isSafeInteger(value)) return 'a number too large to read exactly';
  return value < 0 ? 'a negative whole number' : 'a whole number';
}
