import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/app/api/api-error.ts';
import { parseAnswer } from '../../src/app/api/parse-answer.ts';
import { candidateEnvelopeSchema } from '../../src/kyc/contract/schema.ts';
import { keySearch } from '../../src/server/answer/key-watch.ts';
import { reduceToStatusLevel } from '../../src/server/answer/status-level.ts';
import { ApiFailure } from '../../src/server/http/api-failure.ts';

/**
 * A record of another shape is said in the tool's words (shape-words.ts: the field, what was expected, what
 * was found), never in Zod's ("Invalid input: expected string, received number"), whichever reader says it:
 * the page's (a compliance user's) and the status level's (a support user's, a batch row's).
 */

const ZOD =
  /Invalid input|Invalid option|Invalid (string|element|key|union)|expected [a-z]+, received|received [a-z]+|Too (big|small)|Unrecognized key|✖|→ at/;

function bodyOf(text: string) {
  const body = Object.assign(new PassThrough(), { headers: {}, complete: true, statusCode: 200 });
  body.end(text);
  return body;
}

const any = fc.jsonValue({ maxDepth: 2 });
const recordish = fc.oneof(
  any,
  fc.dictionary(
    fc.constantFrom('status', 'refId', 'recordId', 'isArchived', 'identities', 'certs', 'customFields', 'waitingDate', 'data', 'record'),
    any,
  ),
);
/** What the service may send, `unread` (this server's member) included, with a status the guard lets through. */
const envelope = fc.record(
  { status: fc.constantFrom('success', 'SUCCESS', 'ok'), data: recordish, unread: any },
  { requiredKeys: ['data'] },
);

function pageDetail(value: unknown): string | undefined {
  try {
    parseAnswer(JSON.stringify(value), candidateEnvelopeSchema, 200);
    return undefined;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return `${error.message} ${error.detail ?? ''}`;
  }
}

describe('what a user is told of a record of another shape', () => {
  it('property: for any record value, no message a user gets holds Zod’s own words', async () => {
    await fc.assert(
      fc.asyncProperty(envelope, async (value) => {
        const page = pageDetail(value);
        if (page !== undefined) expect(page).not.toMatch(ZOD);
        const reduced = await reduceToStatusLevel(bodyOf(JSON.stringify(value)), {
          maxResponseBytes: 1 << 20,
          keys: keySearch([]),
          stated: () => new ApiFailure('upstream_error', 'stated'),
        });
        if (!reduced.ok) expect(reduced.failure.message).not.toMatch(ZOD);
      }),
      { numRuns: 300 },
    );
  });

  it('names the field, what was expected and what was found', () => {
    expect(pageDetail({ status: 'success', data: { status: 'waiting', refId: 'r' }, unread: 5 })).toContain(
      '"unread": a list expected, a whole number found. (at unread)',
    );
  });
});
