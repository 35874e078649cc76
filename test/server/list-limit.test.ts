import { afterEach, describe, expect, it } from 'vitest';
import type { ApplicantsPage } from '../../src/kyc/contract/applicants.ts';
import { virtualClock } from './clock.ts';
import { startTestApp, type TestApp } from './http.ts';
import { startListUpstream } from './list-upstream.ts';
import { gateway, pageOf, SUPPORT } from './queue-fixture.ts';

/**
 * The service answers the crawler's list 429 (retryAfter 30). For about 70 s the tabs said All 0 ·
 * Waiting 0 · In review 0 (the service had 15 in review), and the open tab "None read yet… Refresh in a
 * moment", with nothing of the limit: the crawler recorded nothing until its three tries had run out.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const listed = (status: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    status,
    _id: `${status}-${i}`,
    refId: `ref-${status}-${i}`,
    waitingDate: '2026-01-01T00:00:00.000Z',
  }));

describe('a list the service limits (429, retryAfter 30)', () => {
  it('at its first 429 the view says when the list is read again, and the tabs not read yet are "unread", never 0', async () => {
    const upstream = await startListUpstream([...listed('waiting', 3), ...listed('inreview', 2)]);
    const clock = virtualClock();
    let app: TestApp | undefined;
    let limitedAt: number | undefined;
    let during: ApplicantsPage | undefined;
    upstream.behave = (req, res) => {
      if (!req.url!.includes('/applicants/waiting')) return upstream.behaveList(req, res);
      if (limitedAt === undefined) {
        limitedAt = clock.now();
        const text = JSON.stringify({ status: 'error', code: 429, message: 'Too many requests', extra: { retryAfter: 30 } });
        res.writeHead(429, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        return res.end(text);
      }
      // The next try, after the wait: what the page was shown meanwhile, before it is answered.
      void (async () => {
        during ??= pageOf(await app!.get('/api/applicants?status=inreview&counts=1', SUPPORT));
        upstream.behaveList(req, res);
      })();
    };
    app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
      access: gateway(),
      pauseClock: clock,
      queueCrawl: { start: false, clock, concurrency: 1 },
    });
    cleanups.push(app.close, upstream.close);
    await app.crawl();
    expect(during?.index?.limited?.until, JSON.stringify(during?.index)).toBeDefined();
    expect(Date.parse(during!.index!.limited!.until)).toBeGreaterThanOrEqual(limitedAt! + 30_000);
    // Waiting and In review not read yet: not 0 (a lead read "nothing in review"); All, read of neither, likewise.
    expect(during?.counts).toMatchObject({ waiting: 'unread', inreview: 'unread', all: 'unread' });
    // Read once the wait is over: the counts, and no limit said any more.
    const after = pageOf(await app.get('/api/applicants?status=inreview&counts=1', SUPPORT));
    expect(after.counts).toMatchObject({ waiting: 3, inreview: 2, all: 5 });
    expect(after.index?.limited).toBeUndefined();
  });
});
