import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp, testEnvironment } from './http.ts';

/**
 * A support user's custom fields keep their numbers as the service wrote them. The server reads the
 * answer into values (Node 20's JSON.parse gives no reviver a number's source text), and wrote them back
 * with JSON.stringify: an account number 12345678901234567890 reached the page as 12345678901234567000,
 * an amount 0.10000000000000001 as 0.1, with nothing to say so.
 */

const SUPPORT = { 'x-user': 'sam', 'x-role': 'support' };
const LOOKUP = '/api/candidates/refId/numbers-1';
const FIELDS = ['accountNumber', 'amount', 'score', 'limit'];
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** An environment with support fields whose service answers `customFields`, written here as text: its numbers are never a JavaScript number's. */
async function lookUpAsSupport(customFields: string) {
  const upstream = await startFakeUpstream();
  upstream.behave = (_req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = `{"status":"success","data":{"status":"waiting","refId":"numbers-1","recordId":"r1","customFields":${customFields}}}`;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const environment = testEnvironment({ baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key', statusApiKey: 'status-key' });
  const app = await startTestApp({
    environments: [{ ...environment, supportFields: FIELDS }],
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
  });
  cleanups.push(async () => {
    await app.close();
    await upstream.close();
  });
  const res = await app.get(LOOKUP, SUPPORT);
  expect(res.status, res.body).toBe(200);
  expect(upstream.seen.at(-1)!.headers.authorization).toBe('full-key');
  return res.body;
}

describe("a support user's custom fields", () => {
  it('answer 12345678901234567890, 0.10000000000000001 and 1e21 as the service wrote them', async () => {
    const body = await lookUpAsSupport(
      '{"accountNumber":12345678901234567890,"amount":0.10000000000000001,"score":7,"limit":1e21,"secret":12345678901234567890}',
    );
    // Before: "accountNumber":12345678901234567000,"amount":0.1,…,"limit":1e+21.
    expect(body).toContain('"customFields":{"accountNumber":12345678901234567890,"amount":0.10000000000000001,"score":7,"limit":1e21}');
  });

  it('answer them as the service wrote them when customFields is sent as the text of its JSON', async () => {
    const text = '{"accountNumber":12345678901234567890,"amount":0.10000000000000001,"score":7,"limit":1e21,"secret":12345678901234567890}';
    const body = await lookUpAsSupport(JSON.stringify(text));
    // Before (Node 20's JSON.parse read the text): "accountNumber":12345678901234567000,"amount":0.1,…,"limit":1e+21.
    expect(body).toContain('"customFields":{"accountNumber":12345678901234567890,"amount":0.10000000000000001,"score":7,"limit":1e21}');
  });

  it('attack: a repeated member answers the value read last as sent, never the text of the one it replaced', async () => {
    const body = await lookUpAsSupport(
      '{"accountNumber":5,"accountNumber":12345678901234567890,"amount":0.10000000000000001,"amount":0.5,"score":1e21,"score":"7","limit":1e21,"limit":{"a":1}}',
    );
    // As JSON.parse keeps the last: the long number as sent, 0.5 and the text "7" (not the texts before them), and no limit (an object is refused).
    expect(body).toContain('"customFields":{"accountNumber":12345678901234567890,"amount":0.5,"score":"7"}');
  });
});
