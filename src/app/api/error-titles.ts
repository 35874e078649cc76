import { API_ERRORS } from '../../kyc/contract/api-errors.ts';
import type { ClientErrorCode, ErrorCode } from './api-error.ts';

/**
 * The one table of error titles the app's screens start from: the contract's for the proxy's codes
 * (api-errors.ts), the browser's own for the codes it finds itself. A screen says something else only
 * where its page needs other words (the applicants list says "list" where a lookup says "response").
 */
const CLIENT_ERROR_TITLES: Record<ClientErrorCode, string> = {
  server_unreachable: 'The Candidate Lookup server cannot be reached',
  interrupted: 'The download broke off',
  not_json: 'The response is not readable',
  malformed: 'The response has an unexpected shape',
};

/**
 * The proxy's `unauthenticated` means "nobody is signed in"; to someone already at work in the app it
 * means the session they had ended, and every page says so in those words.
 */
const APP_WORDING: Partial<Record<ErrorCode, string>> = { unauthenticated: 'Your session has ended' };

function isClientCode(code: ErrorCode): code is ClientErrorCode {
  return Object.hasOwn(CLIENT_ERROR_TITLES, code);
}

/** A failure's title: what went wrong, in a line. */
export function errorTitle(code: ErrorCode): string {
  return APP_WORDING[code] ?? (isClientCode(code) ? CLIENT_ERROR_TITLES[code] : API_ERRORS[code].title);
}
