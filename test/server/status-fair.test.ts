import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainLookup, scannedDuringLookup } from './fair-lookup.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp, type TestApp, testEnvironment } from './http.ts';
import { COMPLIANCE, gateway, SUPPORT } from './queue-fixture.ts';

/**
 * The answers this server reads whole for their kept fields (readValue: a support user's status level,
 * the queue crawler's list pages) share the event loop as the answers in parts do: their bodies are
 * scanned in pieces, in the one slice a turn of the loop every answer being read shares (turns.ts,
 * pieces-in-turns.ts). Counted in bytes scanned, as parts-fair.test.ts does, not in wall-clock time.
 */

const ATTRIBUTES = 40_000;
const identities = Array.from({ length: ATTRIBUTES }, (_, i) => `"a${i}":{"type":"string","value":"v"}`).join(',');
const record = (refId: string, attributes: string) =>
  `{"status":"approved","refId":"${refId}","recordId":"6650c0de0123456789abcd77","isArchived":false,"blockPassID":"b","identities":{${attributes}}}`;
const heavy = Buffer.from(`{"status":"success","data":${record('heavy', identities)}}`);
/** A hostile list page: one waiting record carrying the many-attribute identities, passed over unkept as they are scanned. */
const heavyPage = Buffer.from(
  `{"status":"success","data":{"records":[{"status":"waiting","refId":"w-1","waitingDate":"2026-11-01T00:00:00.000Z","identities":{${identities}}}],"total":1,"skip":0,"limit":100}}`,
);
const light = (refId: string) =>
  Buffer.from(`{"status":"success","data":${record(refId, '"given_name":{"type":"string","value":"Light"}')}}`);

let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
let app: TestApp;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  upstream.behave = (req, res) => {
    const parts = new URL(req.url ?? '/', 'http://x').pathname.split('/');
    const refId = parts.at(-2) === 'refId' ? parts.at(-1) : undefined;
    const body = parts.includes('applicants') ? heavyPage : refId === 'heavy' ? heavy : light(refId ?? 'none');
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  };
  app = await startTestApp({
    environments: [
      testEnvironment({ baseUrl: upstream.url, clientId: 'c', apiKey: 'full-fair-key-3b9a', statusApiKey: 'status-fair-key-8e1f' }),
    ],
    access: gateway(),
    // The heavy answers take seconds on a loaded machine: the service's deadline is not what is tested.
    settings: { keyArchivesOnExtract: 'accept', limits: { upstreamTimeoutMs: 120_000 } },
  });
});

afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

describe("answers read whole for their kept fields and everyone else's lookups", () => {
  it("attack: a support user's status lookup of a many-attribute record does not hold up another user's lookup", async () => {
    const {
      during,
      status,
      heavy: statuses,
    } = await scannedDuringLookup(app.port, COMPLIANCE, () =>
      Promise.all(Array.from({ length: 4 }, () => plainLookup(app.port, SUPPORT, 'heavy'))),
    );
    expect(status).toBe(200);
    // Read whole all the same, each to its status level.
    expect(statuses).toEqual([200, 200, 200, 200]);
    // Answered while the status lookups read less than a quarter of one of their records (a slice scans about 16 KiB
    // at most by the test's clock, fair-lookup.ts; 45 to 65 kB in all measured): their bodies are scanned in
    // pieces, in the slice all answers share. Before, each 64 KiB chunk (10 to 30 ms of these
    // small tokens) was scanned whole where it arrived, a chunk of each answer every turn of the loop.
    expect(during).toBeLessThan(heavy.length / 4);
  }, 60_000);

  it("attack: a hostile list page of many-attribute records read by the queue's crawler does not hold up another user's lookup", async () => {
    // Every tab's first page at once, each the hostile page; the crawl is not what is tested.
    const { during, status } = await scannedDuringLookup(app.port, COMPLIANCE, () => app.crawl());
    expect(status).toBe(200);
    expect(await app.get('/api/applicants?status=waiting', SUPPORT)).toMatchObject({ status: 200 });
    // Before, 0.5 to 1.6 MB (476 kB by the test's clock); a quarter of the page, as above.
    expect(during).toBeLessThan(heavyPage.length / 4);
  }, 60_000);
});
