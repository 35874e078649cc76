import { withinTextDepth } from './json-depth.ts';
import { parseJsonKeepingNumbers } from './number-text.ts';
import { isPlainObject } from './value-kind.ts';

/**
 * A map sent as text holding its JSON (`"identities": "{\"given_name\": …}"`, `"certs": "{\"onfido-service-cert\": …}"`,
 * `"customFields": "{\"riskLevel\": …}"`): the object it holds, read as the map itself would be
 * (record-reading.ts), one rule for the three. Undefined when the text holds no JSON object (cut off, a
 * list, plain words): the field is then named unread, as any other form is. Its numbers are read as the
 * answer's own are (number-text.ts): a custom field's `1.50` in the text is shown as sent. One nested deeper than
 * MAX_TEXT_DEPTH (json-depth.ts) is not read either.
 */
export function mapFromText(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'string' || !value.trimStart().startsWith('{')) return undefined;
  try {
    // Nested past MAX_TEXT_DEPTH it is not read (json-depth.ts): its values are written out again (a certificate's text, an address).
    const parsed = withinTextDepth(parseJsonKeepingNumbers(value), value);
    return isPlainObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
