import type { z } from '../../kyc/contract/zod.ts';
import type { KeySearch } from '../answer/key-watch.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { serviceMessage } from '../upstream/service-message.ts';
import { quotingFailure } from '../upstream/upstream-failures.ts';

/**
 * Why a page of the service's list was not a list, in one sentence for the applicants page (the
 * crawler's last failure is shown there). The service's error envelope, `{"status":"error","message":…}`
 * (also with a success status), is its refusal: its reason is quoted, cut and cleaned
 * (service-message.ts) for whoever may see it, and never kept in the index or a log line (quotingFailure).
 * Anything else names the first field at fault, never a value: zod's own report ("✖ Invalid input:
 * expected "success" → at status") was shown as it was.
 */
export function listShapeFailure(value: unknown, issues: readonly z.core.$ZodIssue[], keys: KeySearch): ApiFailure {
  const refusal = serviceMessage(value, keys);
  if (refusal || (value as { status?: unknown } | undefined)?.status === 'error') {
    return quotingFailure('upstream_error', (quote) => `The KYC service refused the applicants list${quote}.`, refusal);
  }
  return new ApiFailure(
    'upstream_error',
    `The applicants list of the KYC service does not have the expected shape: ${faultOf(value, issues[0])}.`,
  );
}

const EXPECTED: Record<string, string> = { object: 'an object', array: 'a list', number: 'a number', string: 'a text' };

function faultOf(value: unknown, issue: z.core.$ZodIssue | undefined): string {
  const path = issue?.path ?? [];
  if (path.length === 0) return 'it is not a JSON object';
  const field = path.map(String).join('.');
  if (valueAt(value, path) === undefined) return `it has no ${field}`;
  const expected = issue?.code === 'invalid_type' ? EXPECTED[issue.expected] : undefined;
  return expected ? `its ${field} is not ${expected}` : `its ${field} is not what a list holds there`;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}
