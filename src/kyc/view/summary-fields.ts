import { DEFAULT_SUMMARY_FIELDS } from '../contract/api.ts';
import { fieldText, type StructuredField, structuredFieldsOf } from '../contract/other-forms.ts';

export type CustomFieldValue = string | number | boolean | null;

/** `Risk level`, `risk_level` and `riskLevel` are one name. */
export function fieldKey(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

/**
 * Splits the custom fields into those that matter for the decision (in the configured order) and the
 * rest, which stay in the custom-fields card. A number is given as the text the page and a copy write
 * (fieldText): whoever shows the pairs has no way back to the digits sent.
 */
export function splitSummaryFields(
  fields: Record<string, CustomFieldValue> | undefined,
  wanted: readonly string[] = DEFAULT_SUMMARY_FIELDS,
): { summary: Array<[string, CustomFieldValue]>; rest: Array<[string, CustomFieldValue]> } {
  const entries = Object.entries(fields ?? {}).map(([name, value]): [string, CustomFieldValue] => [
    name,
    typeof value === 'number' ? fieldText(fields, name, value) : value,
  ]);
  const rank = new Map(wanted.map((name, index) => [fieldKey(name), index] as const));
  const summary = entries.filter(([name]) => rank.has(fieldKey(name))).sort(([a], [b]) => rank.get(fieldKey(a))! - rank.get(fieldKey(b))!);
  const rest = entries.filter(([name]) => !rank.has(fieldKey(name)));
  return { summary, rest };
}

/**
 * The decision's custom fields that came as an object or a list (other-forms.ts), in the configured
 * order: kept beside the custom fields, so splitSummaryFields never sees them; Copy summary writes them
 * as their JSON, marked "not text".
 */
export function structuredSummaryFields(
  fields: Record<string, CustomFieldValue> | undefined,
  wanted: readonly string[] = DEFAULT_SUMMARY_FIELDS,
): StructuredField[] {
  const rank = new Map(wanted.map((name, index) => [fieldKey(name), index] as const));
  return structuredFieldsOf(fields)
    .filter((field) => rank.has(fieldKey(field.name)))
    .sort((a, b) => rank.get(fieldKey(a.name))! - rank.get(fieldKey(b.name))!);
}
