import type http from 'node:http';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { API_ERRORS } from '../../src/kyc/contract/api-errors.ts';

/**
 * What is wrong with an API error answer, checked on every answer the server tests read (rawRequest):
 * its status is the one the contract's table gives its code, it is not stored, and its wait is said the
 * same way in the header and the body. Undefined for an answer that is not an API error, or a right one.
 */
export function errorAnswerProblem(status: number, headers: http.IncomingHttpHeaders, body: string): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  const parsed = apiErrorBodySchema.safeParse(json);
  if (!parsed.success) return undefined;
  const { code, retryAfterSeconds } = parsed.data.error;
  if (status !== API_ERRORS[code].status) return `${code} answered ${status}, but the contract's table says ${API_ERRORS[code].status}`;
  if (headers['cache-control'] !== 'no-store') return `${code} answered without Cache-Control: no-store`;
  const header = headers['retry-after'];
  if (header !== (retryAfterSeconds === undefined ? undefined : String(retryAfterSeconds))) {
    return `${code} answered Retry-After ${header} with retryAfterSeconds ${retryAfterSeconds}`;
  }
  return undefined;
}
