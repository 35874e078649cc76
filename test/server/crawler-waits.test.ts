import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { virtualClock } from './clock.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp } from './http.ts';

/**
 * The service's waits are per operation (upstream/service-wait.ts): a 429 of the list, which only the
 * queue's crawler asks, holds the crawler's pages, never a reviewer's lookup; and the crawler, told 429,
 * rests past the wait, longer after each 429 in a row (crawler-pool.ts), instead of asking again the
 * moment the wait ends. Found by a red-team review: a list answering 429 for ever refused 14 lookups of
 * 14 over 65 s while the service answered single lookups.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** The published 429 with a wait of 20 s, in the body and in a header, as a gateway in front may add. */
const LIST_429 = JSON.stringify({ status: 'error', code: 429, message: 'Too many requests', extra: { retryAfter: 20 } });

function answer(res: http.ServerResponse, status: number, body: string, headers: http.OutgoingHttpHeaders = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}
const limited = (res: http.ServerResponse) => answer(res, 429, LIST_429, { 'retry-after': '20' });
const found = (res: http.ServerResponse, refId: string) =>
  answer(res, 200, JSON.stringify({ status: 'success', data: { status: 'approved', refId, isArchived: false, blockPassID: 'b' } }));
const emptyList = (res: http.ServerResponse) => answer(res, 200, JSON.stringify({ status: 'success', data: { records: [], total: 0 } }));

/**
 * A fake service whose list answers as `listAnswer` says for its n-th request (0 first), whose lookups
 * are found, and the app on it, the waits and the crawler on one virtual clock. Each list request is
 * noted with that clock's time.
 */
async function serviceAndApp(listAnswer: (n: number, res: http.ServerResponse) => void) {
  const upstream = await startFakeUpstream();
  const clock = virtualClock();
  const listAsked: number[] = [];
  let onListLimited = () => {};
  const listLimited = new Promise<void>((resolve) => (onListLimited = resolve));
  upstream.behave = (req, res) => {
    if (!req.url!.includes('/applicants')) return found(res, decodeURIComponent(req.url!.split('/').pop()!));
    listAsked.push(clock.now());
    listAnswer(listAsked.length - 1, res);
    if (res.statusCode === 429) onListLimited();
  };
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
    pauseClock: clock,
    queueCrawl: { start: false, clock },
  });
  cleanups.push(app.close, upstream.close);
  return { upstream, app, clock, listAsked, listLimited };
}

/** The time between each list request and the next, on the virtual clock. */
const gapsOf = (times: readonly number[]) => times.slice(1).map((time, index) => time - times[index]!);

describe('a 429 of the list holds the crawler, not the lookups', () => {
  it('attack: a list that answers 429 forever does not hold back lookups', async () => {
    const { upstream, app, listAsked, listLimited } = await serviceAndApp((_n, res) => limited(res));
    const crawl = app.crawl();
    await listLimited;
    const during: number[] = [];
    for (let n = 0; n < 7; n++) during.push((await app.get(`/api/candidates/refId/during-${n}`)).status);
    await crawl;
    // The last 429 of the list asked for 20 s more, on the clock the lookups' wait is read on.
    const after: number[] = [];
    for (let n = 0; n < 7; n++) after.push((await app.get(`/api/candidates/refId/after-${n}`)).status);
    expect(listAsked.length).toBeGreaterThan(1);
    expect({ during, after }).toEqual({ during: Array(7).fill(200), after: Array(7).fill(200) });
    const lookups = upstream.seen.filter((seen) => seen.path.includes('/refId/'));
    expect(lookups).toHaveLength(14);
  });

  it("the crawler's retries after a 429 space out: each past the service's 20 s, each longer than the last, capped", async () => {
    const { app, listAsked } = await serviceAndApp((_n, res) => limited(res));
    await app.crawl();
    // Every tab's first page, tried three times: 8 tabs.
    expect(listAsked).toHaveLength(24);
    const gaps = gapsOf(listAsked);
    for (const gap of gaps) expect(gap).toBeGreaterThan(20_000);
    // Rests of 5, 10, 20, 40, 80, 160 s, less up to half of each at random: each is longer than the one before.
    for (let n = 1; n < 6; n++) expect(gaps[n]).toBeGreaterThan(gaps[n - 1]!);
    // At most the service's wait and 5 minutes, with a second of the crawler's pacing.
    for (const gap of gaps) expect(gap).toBeLessThanOrEqual(20_000 + 300_000 + 1000);
    expect(gaps.at(-1)).toBeGreaterThan(20_000 + 150_000);
  });

  it('an answer ends the run of 429s: the next 429 is followed by the shortest rest again', async () => {
    // Three 429s (the first tab's three tries), an answer (the next tab's first page), then 429s again.
    const { app, listAsked } = await serviceAndApp((n, res) => (n === 3 ? emptyList(res) : limited(res)));
    await app.crawl();
    const gaps = gapsOf(listAsked);
    // After the third 429 in a row the rest was 10 to 20 s; after the first 429 since the answer, 2.5 to 5 s.
    expect(gaps[4]).toBeLessThan(gaps[2]!);
    expect(gaps[4]).toBeGreaterThan(20_000);
  });
});
