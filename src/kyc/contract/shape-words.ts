import { kindOf } from './value-kind.ts';

/**
 * What is wrong with an answer's shape, in this tool's words: the field, what was expected and what was
 * found (its kind, never its value), never a schema's own text ("Invalid input: expected string,
 * received number"), which a support user could be shown. The record's own reading (record-reading.ts)
 * writes its reasons itself; any other issue (the envelope's members, an answer of this server's) is said
 * from its code here. One rule for the page and the status level (status-level.ts).
 */
export interface ShapeIssue {
  code: string;
  message: string;
  path: readonly PropertyKey[];
  expected?: unknown;
}

/** Each issue on a line: "The record has no status. (at data.status)"; at most `max` of them. */
export function shapeWords(issues: readonly ShapeIssue[], input: unknown, max = 5): string {
  const said = issues.slice(0, max).map((issue) => `${issueWords(issue, input)}${where(issue.path)}`);
  if (issues.length > max) said.push(`… and ${issues.length - max} more.`);
  return said.join('\n');
}

const where = (path: readonly PropertyKey[]) => (path.length > 0 ? ` (at ${path.map(String).join('.')})` : '');

function issueWords(issue: ShapeIssue, input: unknown): string {
  // A reason the reading wrote itself (a custom issue) is already in the tool's words.
  if (issue.code === 'custom') return issue.message;
  const name = issue.path.length > 0 ? `"${String(issue.path.at(-1))}"` : 'The answer';
  const value = valueAt(input, issue.path);
  const found = value === undefined ? 'nothing' : kindOf(value);
  const expected = issue.code === 'invalid_type' && typeof issue.expected === 'string' ? EXPECTED[issue.expected] : undefined;
  if (expected) return `${name}: ${expected} expected, ${found} found.`;
  if (issue.code === 'invalid_value' || issue.code === 'invalid_format')
    return `${name} holds a value that is not one this tool reads (${found} found).`;
  if (issue.code === 'too_big' || issue.code === 'too_small')
    return `${name} is ${issue.code === 'too_big' ? 'longer or larger' : 'shorter or smaller'} than this tool reads.`;
  return `${name} is not of the form this tool reads (${found} found).`;
}

const EXPECTED: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'empty (null)',
};

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
