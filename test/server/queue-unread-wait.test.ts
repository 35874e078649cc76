import { afterEach, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { crawlField, type TabCrawl } from '../../src/server/lookup/queue-crawl-state.ts';
import { readView } from '../../src/server/lookup/queue-view.ts';
import { errorState, unreadTab as unreadFailure } from '../../src/server/lookup/queue-view-failure.ts';
import { createQueueIndex } from '../../src/server/state/queue-index.ts';
import { createMemoryQueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { limitingRequests, startFakeUpstream } from './fake-upstream.ts';
import { startTestApp } from './http.ts';
import { COMPLIANCE, gateway, SUPPORT } from './queue-fixture.ts';

/**
 * A tab of the queue not read yet because the service limited the crawler (its list answered 429), or
 * because the crawler withheld the full key while the last key check's 429 stood: the queue's answer
 * carries the wait, `Retry-After` with the seconds left of it, counted from when the crawler met it, and
 * an error that says it, as a candidate lookup's 429 does. Before, the view answered the failure's code
 * and the words the crawler had kept ("Try again in 30 s.", whenever it was read), and no Retry-After:
 * the page could not count down, and its Try again was not held.
 */

/** The Waiting tab's view, never read, whose crawl ended in `error` (at 1 000 000 ms), read at `now`. */
async function unreadTab(error: NonNullable<TabCrawl['error']>, now: number) {
  const index = createQueueIndex(createMemoryQueueIndexStore());
  // As the crawler saves a read that failed (queue-crawler.ts, `failed`).
  await index.store.writeMeta('e', { [crawlField('waiting')]: JSON.stringify({ error }) });
  const view = await readView(index.store, 'e', { query: { status: 'waiting', skip: 0, limit: 50 }, slaHours: 48, now, compliance: false });
  if (view.ok) throw new Error('a tab never read, with no row, is answered with its error');
  return view.failure;
}

const AT = 1_000_000;
const LIMITED = {
  code: 'upstream_rate_limited' as const,
  message: 'The KYC service is limiting requests (HTTP 429). Try again in 30 s.',
  at: AT,
  upstreamStatus: 429,
  retryAfterSeconds: 30,
};

describe("a tab left unread by the service's wait says what is left of it", () => {
  it("the list's 429: Retry-After and the message with the seconds left, counted from when the crawler met it", async () => {
    const failure = await unreadTab(LIMITED, AT + 12_000);
    expect(failure.headers()).toEqual({ 'Retry-After': '18' });
    expect(failure.body().error).toMatchObject({ code: 'upstream_rate_limited', retryAfterSeconds: 18 });
    expect(failure.message).toMatch(/^The KYC service is limiting requests \(HTTP 429\).* Try again in 18 s\.$/);
    expect(failure.status).toBe(429);
  });

  it("a withheld read whose reason named a wait (a gateway's 503 to the key check): Retry-After with the seconds left, its words kept", async () => {
    const message = 'The KYC service answered with an error (HTTP 503). It asked to be tried again in 30 s.';
    const failure = await unreadTab(
      { code: 'upstream_error', message, at: AT, upstreamStatus: null, withheld: true, retryAfterSeconds: 30 },
      AT + 29_001,
    );
    expect(failure.headers()).toEqual({ 'Retry-After': '1' });
    expect(failure.body().error).toMatchObject({ code: 'upstream_error', message, retryAfterSeconds: 1 });
  });

  it('once the wait is over: no Retry-After made up, and no "Try again in 30 s." that is false by now', async () => {
    const failure = await unreadTab(LIMITED, AT + 30_000);
    expect(failure.headers()).toEqual({});
    expect(failure.body().error).toMatchObject({ code: 'upstream_rate_limited' });
    expect(failure.body().error).not.toHaveProperty('retryAfterSeconds');
    // Before: the crawler's "Try again in 30 s.", whenever read.
    expect(failure.message).toBe(
      'The KYC service was limiting requests (HTTP 429) when this list was last read. The wait it asked for is over: the list is read again shortly.',
    );
    const message = 'The KYC service answered with an error (HTTP 503). It asked to be tried again in 30 s.';
    const gateway = await unreadTab({ code: 'upstream_error', message, at: AT, upstreamStatus: null, retryAfterSeconds: 30 }, AT + 31_000);
    expect(gateway.headers()).toEqual({});
    expect(gateway.message).toBe(`${message} That wait is over: the list is read again shortly.`);
  });

  it('a failure that named no wait is answered as the crawler kept it', async () => {
    const message = 'The KYC service could not be reached.';
    const failure = await unreadTab({ code: 'upstream_unreachable', message, at: AT, upstreamStatus: null }, AT + 600_000);
    expect(failure.message).toBe(message);
    expect(failure.headers()).toEqual({});
  });
});

describe("a tab with rows, whose last read met the service's wait, says the wait as it is now", () => {
  it('while the wait runs: its end (until), and the 429\'s words without the crawler\'s "Try again in 30 s."', () => {
    // Before: the stored message, "… Try again in 30 s.", however long ago it was said.
    expect(errorState(LIMITED, AT + 12_000)).toEqual({
      message: 'The KYC service is limiting requests (HTTP 429).',
      at: new Date(AT).toISOString(),
      until: new Date(AT + 30_000).toISOString(),
    });
  });

  it('once the wait is over: said in the past, with no end to wait for', () => {
    expect(errorState(LIMITED, AT + 30_000)).toEqual({
      message:
        'The KYC service was limiting requests (HTTP 429) when this list was last read. The wait it asked for is over: the list is read again shortly.',
      at: new Date(AT).toISOString(),
    });
  });

  it('a withheld read whose reason named a wait keeps its words and its mark, and promises no read: past the wait the key is checked again, the list still unread', () => {
    const message = 'The KYC service answered with an error (HTTP 503). It asked to be tried again in 30 s.';
    const error = {
      code: 'upstream_error' as const,
      message,
      at: AT,
      upstreamStatus: null,
      withheld: true as const,
      retryAfterSeconds: 30,
    };
    expect(errorState(error, AT + 1_000)).toEqual({ message, at: new Date(AT).toISOString(), withheld: true });
    expect(errorState(error, AT + 31_000)).toEqual({
      message: `${message} That wait is over.`,
      at: new Date(AT).toISOString(),
      withheld: true,
    });
    const limited = { ...LIMITED, withheld: true as const };
    expect(errorState(limited, AT + 31_000).message).toBe(
      'The KYC service was limiting requests (HTTP 429) when this list was last to be read. The wait it asked for is over.',
    );
    // The tab with no row says the same past the wait.
    expect(unreadFailure(error, AT + 31_000).message).toBe(`${message} That wait is over.`);
  });

  it('a failure that named no wait is told as the crawler kept it', () => {
    const error = { code: 'upstream_unreachable' as const, message: 'The KYC service could not be reached.', at: AT, upstreamStatus: null };
    expect(errorState(error, AT + 600_000)).toEqual({ message: error.message, at: new Date(AT).toISOString() });
  });
});

describe('the queue of a service that answered the key check 429, without a status-level key (server)', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it("answers 429 with Retry-After, the seconds its error's message and retryAfterSeconds say", async () => {
    const upstream = await startFakeUpstream();
    cleanups.push(() => upstream.close());
    upstream.behave = limitingRequests;
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key' },
      access: gateway(),
      settings: { limits: { upstreamTimeoutMs: 500 } },
    });
    cleanups.push(() => app.close());
    expect((await app.get('/api/candidates/refId/cust-1', COMPLIANCE)).status).toBe(429);
    await app.crawl();
    const res = await app.get('/api/applicants?status=waiting', SUPPORT);
    const { error } = apiErrorBodySchema.parse(JSON.parse(res.body));
    expect(res.status).toBe(429);
    expect(error.code).toBe('upstream_rate_limited');
    const seconds = Number(res.headers['retry-after']);
    expect(seconds).toBeGreaterThan(0);
    expect(error.retryAfterSeconds).toBe(seconds);
    expect(error.message).toMatch(new RegExp(`Try again in ${seconds} s\\.$`));
  });
});
