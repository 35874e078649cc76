import { describe, expect, it } from 'vitest';
import { API_ERROR_CODES, API_ERRORS } from '../../src/kyc/contract/api-errors.ts';
import { errorTitle } from '../../src/app/api/error-titles.ts';

describe("the app's one table of error titles", () => {
  it("titles every code of the contract as the contract does, but a session that ended in the app's words", () => {
    for (const code of API_ERROR_CODES) {
      if (code === 'unauthenticated') expect(errorTitle(code)).toBe('Your session has ended');
      else expect(errorTitle(code), code).toBe(API_ERRORS[code].title);
    }
  });

  it('titles the codes the browser finds itself', () => {
    expect(errorTitle('interrupted')).toBe('The download broke off');
    expect(errorTitle('server_unreachable')).toBe('The Candidate Lookup server cannot be reached');
    expect(errorTitle('not_json')).toBe('The response is not readable');
    expect(errorTitle('malformed')).toBe('The response has an unexpected shape');
  });
});
