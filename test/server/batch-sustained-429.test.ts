import { afterEach, describe, expect, it } from 'vitest';
import { virtualClock } from './clock.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { ndjson, requestWithBody, startTestApp } from './http.ts';

/**
 * A batch under a 429 that lasts: the service answers its first 20 lookups, then 429 to every lookup
 * for a while (a reviewer's run: 50 ids, 8 failed after five tries, most of them never sent). The
 * pauses pass on a virtual clock, so the waits take no time; the fake counts what reached it.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const ids = Array.from({ length: 50 }, (_, i) => `ref-${i}`);

/** The service limiting lookups 21 onward for `forMs` of the batch's clock (for ever without it), stating `retryAfter` if given. */
async function limitingService(options: { forMs?: number; retryAfter?: number }) {
  const clock = virtualClock();
  const upstream = await startFakeUpstream();
  cleanups.push(upstream.close);
  let count = 0;
  let since: number | undefined;
  const limited: number[] = [];
  upstream.behave = (req, res) => {
    count++;
    if (count > 20) since ??= clock.now();
    if (since !== undefined && (options.forMs === undefined || clock.now() - since < options.forMs)) {
      limited.push(clock.now());
      const extra = options.retryAfter === undefined ? {} : { extra: { retryAfter: options.retryAfter } };
      const body = JSON.stringify({ status: 'error', code: 429, message: 'Too many requests', ...extra });
      res.writeHead(429, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      return res.end(body);
    }
    const id = decodeURIComponent(req.url!.split('/').pop()!);
    const body = JSON.stringify({ status: 'success', data: { status: 'waiting', refId: id, isArchived: false, blockPassID: 'b' } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
    audit: memoryAuditLog(),
    pauseClock: clock,
  });
  cleanups.push(app.close);
  const batch = async () => {
    const res = await requestWithBody(app.port, '/api/batch', JSON.stringify({ kind: 'refId', ids }), {});
    return ndjson(res.body);
  };
  return { batch, clock, limited, sent: () => upstream.seen.length };
}

/**
 * The instants (on the batch's clock) after the limit began at which more than one request met the
 * service's 429: a wait raced by several workers. Those under way when it began meet it together.
 */
const raced = (limited: number[]) => [...new Set(limited)].filter((at) => at !== limited[0] && limited.filter((t) => t === at).length > 1);

describe('a batch under a 429 that lasts', () => {
  it('finds every row through a 60 s limit that states 5 s, one request per wait once it began (no row given up after 5 tries)', async () => {
    const service = await limitingService({ forMs: 60_000, retryAfter: 5 });
    const events = await service.batch();
    expect(events.at(-1)).toEqual({ type: 'done', found: 50, failed: 0 });
    expect(events.filter((e) => e.type === 'row' && !e.ok)).toEqual([]);
    // The eight under way when the limit began meet it together; after each wait, one request asks again, not eight.
    expect(raced(service.limited)).toEqual([]);
    expect(service.limited.length).toBeLessThanOrEqual(8 + 60 / 5 + 1);
    expect(service.sent()).toBe(50 + service.limited.length);
  });

  it('finds every row through a 25 s limit that states no wait, backing off 1, 2, 4, 8, 16 s with one request per pause', async () => {
    const service = await limitingService({ forMs: 25_000 });
    const events = await service.batch();
    expect(events.at(-1)).toEqual({ type: 'done', found: 50, failed: 0 });
    expect(events.filter((e) => e.type === 'wait').map((e) => e.seconds)).toEqual([1, 2, 4, 8, 16]);
    expect(raced(service.limited)).toEqual([]);
    expect(service.limited.length).toBeLessThanOrEqual(8 + 5);
  });

  it('stops once the service has limited it for the longest wait it honours (300 s): the rest not looked up, the service asked once a wait', async () => {
    const service = await limitingService({ retryAfter: 5 });
    const events = await service.batch();
    const stopped = events.find((e) => e.type === 'stopped');
    expect(stopped).toMatchObject({ type: 'stopped', code: 'upstream_rate_limited' });
    const rows = events.filter((e) => e.type === 'row');
    expect(rows.filter((r) => r.ok)).toHaveLength(20);
    expect(stopped!.notLookedUp).toBe(50 - rows.length);
    // Each failed row says when to ask again: the page holds its Retry until then.
    for (const row of rows.filter((r) => !r.ok)) expect(row).toMatchObject({ code: 'upstream_rate_limited', retryAfterSeconds: 5 });
    // Bounded in time, not in tries: about 300 s of the batch's clock, one request per 5 s wait.
    expect(service.clock.elapsed()).toBeGreaterThanOrEqual(295_000);
    expect(service.clock.elapsed()).toBeLessThanOrEqual(305_000);
    expect(raced(service.limited)).toEqual([]);
    expect(service.limited.length).toBeLessThanOrEqual(8 + 300 / 5 + 1);
  });
});
