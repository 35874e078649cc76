import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candidateEnvelopeSchema } from '../../src/kyc/contract/schema.ts';
import { SECOND_ENVELOPE } from '../../src/kyc/contract/record-reading.ts';
import { envelopeStart } from '../../src/server/answer/envelope-start.ts';
import { notARecord } from '../../src/server/answer/not-a-record.ts';
import { RECORD } from './hostile-upstream.ts';
import type { RawResponse } from './http.ts';
import { serviceAndApp } from './service-app.ts';

/**
 * What a reviewer is told when the answer is not the plain contract, one reading for every level: a
 * success in another case ("SUCCESS") or "ok" is read, and an answer refused is said as what it is (an
 * empty body, a web page, a list, another status), never in a schema's own words, alike at full and at
 * status level (a support user's, a batch's).
 */

const { upstream, app } = await serviceAndApp((baseUrl) => ({
  upstream: { baseUrl, clientId: 'client_words', apiKey: 'words-key-4b1e9d20' },
}));

function answer(body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  upstream.behave = (_req, res) => {
    res.writeHead(200, { ...headers, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
}

const levels = {
  full: () => app.get('/api/candidates/refId/r', { accept: 'application/json' }),
  'status level': () => app.get('/api/status/refId/r', { accept: 'application/json' }),
};
const outcome = (res: RawResponse) => (res.status === 200 ? 'record' : JSON.parse(res.body).error.message);
const DATA = JSON.stringify(RECORD);

describe('an envelope whose status says success another way', () => {
  it.each(['SUCCESS', 'Success', 'ok', 'OK'])('"status":"%s" with a record: read as the record at every level', async (status) => {
    answer(`{"status":"${status}","data":${DATA}}`);
    for (const [level, ask] of Object.entries(levels)) expect(outcome(await ask()), level).toBe('record');
  });

  it('property: the answer guard and the schema (the server and the page) read the same statuses as success', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom('success', 'ok', 'error', 'pending'), fc.string({ maxLength: 7 })),
        fc.boolean(),
        (word, upper) => {
          const status = upper ? word.toUpperCase() : word;
          const opened = envelopeStart(Buffer.from(`{"status":${JSON.stringify(status)},"data":{"status":"waiting","refId":"r"}} `));
          const parsed = candidateEnvelopeSchema.safeParse({ status, data: { status: 'waiting', refId: 'r' } }).success;
          if (status === 'error') return;
          expect(opened === 'yes', status).toBe(parsed);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('an answer refused: said as what it is, alike at every level', () => {
  it.each([
    ['an empty body', '', 'empty'],
    ['a web page', '<html><body><h1>Maintenance</h1></body></html>', 'web_page'],
    ['a list where the record should be', `{"status":"success","data":[${DATA}]}`, 'list'],
    ['a text where the record should be', '{"status":"success","data":"U2FsdGVkX1+abc"}', 'text'],
  ] as const)('%s', async (_name, body, cause) => {
    answer(body, cause === 'web_page' ? { 'content-type': 'text/html' } : { 'content-type': 'application/json' });
    const expected = notARecord({ cause }).message;
    for (const [level, ask] of Object.entries(levels)) expect(outcome(await ask()), level).toBe(expected);
  });

  it('another status with a record: named, never the schema\'s "Invalid input"', async () => {
    answer(`{"status":"pending","data":${DATA}}`);
    for (const [level, ask] of Object.entries(levels)) {
      const said = outcome(await ask());
      expect(said, level).toBe(notARecord({ cause: 'status', status: 'pending' }).message);
      expect(said, level).not.toMatch(/Invalid input|expected/);
    }
  });

  it('a record followed by what is not JSON: the same words at every level', async () => {
    answer(`{"status":"success","data":${DATA}}\n\n{"x":1}`);
    const said = await Promise.all(Object.values(levels).map(async (ask) => outcome(await ask())));
    expect(new Set(said).size).toBe(1);
  });
});

describe('a record in a second envelope: said as that, alike at every level', () => {
  it.each([
    ['{"status":"success","data":{"status":"success","data":RECORD}}', 'data.data'],
    ['{"status":"success","data":{"record":RECORD}}', 'data.record'],
    ['{"data":{"data":RECORD}}', 'data.data'],
  ])('%s', async (body, at) => {
    answer(body.replace('RECORD', DATA));
    // The status level's words (a support user's, a batch row's), the full answer's (refused by this server,
    // the wrapped record being the candidate asked for), and the page's reading of such a record.
    const support = outcome(await levels['status level']());
    expect(support).toContain(`${SECOND_ENVELOPE} (at ${at})`);
    const full = await app.get(`/api/candidates/refId/${RECORD.refId}`, { accept: 'application/json' });
    expect(full.status).toBe(502);
    expect(JSON.parse(full.body).error).toMatchObject({
      code: 'not_a_record',
      message: expect.stringContaining(`${SECOND_ENVELOPE} (at ${at})`),
    });
    const parsed = candidateEnvelopeSchema.safeParse(JSON.parse(body.replace('RECORD', DATA)));
    expect(parsed.error?.issues.map((issue) => [issue.message, issue.path.join('.')])).toEqual([[SECOND_ENVELOPE, at]]);
  });
});
