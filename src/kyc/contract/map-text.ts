import { parseJsonKeepingNumbers } from './number-text.ts';
import { isPlainObject } from './value-kind.ts';

/**
 * A map sent as text holding its JSON (`"identities": "{\"given_name\": …}"`, `"certs": "{\"onfido-service-cert\": …}"`,
 * `"customFields": "{\"riskLevel\": …}"`): the object it holds, read as the map itself would be
 * (record-reading.ts), one rule for the three. Undefined when the text holds no JSON object (cut off, a
 * list, plain words): the field is then named unread, as any other form is. Its numbers are read as the
 * answer's own are (number-text.ts): a custom field's `1.50` in the text is shown as sent.
 */
export function mapFromText(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'string' || !value.trimStart().startsWith('{')) return undefined;
  try {
    const parsed = parseJsonKeepingNumbers(value);
    return isPlainObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
