import type http from 'node:http';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisWaits } from '../../src/server/upstream/service-wait-redis.ts';
import { virtualClock } from './clock.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { ndjson, requestWithBody, startTestApp } from './http.ts';
import { errorOf } from './service-app.ts';
import { type Instance, startInstance } from './instance.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, type RunningRedis, startRedis } from './redis-fixture.ts';

/**
 * The service's wait (its 429, issue 30) shared by every instance on one Redis: once one instance is
 * told to wait, no instance sends to that environment's service until the wait ends
 * (upstream/service-wait-redis.ts). Instances here are the production wiring from REDIS_URL (instance.ts),
 * or the API handler on a virtual clock (http.ts) where the time left is the subject.
 */

const PUBLISHED_429 = JSON.stringify({ status: 'error', code: 429, message: 'Too many requests', extra: { retryAfter: 30 } });
const CHANNEL = 'candidate-lookup:service-wait';
const stillWaitingText = (seconds: number) =>
  `The KYC service is limiting requests (HTTP 429) and asked to wait: nothing was sent to it. Try again in ${seconds} s.`;

function answer(res: http.ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
const found = (req: http.IncomingMessage, res: http.ServerResponse) => {
  const refId = decodeURIComponent(req.url!.split('/').pop()!);
  answer(res, 200, JSON.stringify({ status: 'success', data: { status: 'approved', refId, isArchived: false, blockPassID: 'b' } }));
};
const limited = (_req: http.IncomingMessage, res: http.ServerResponse) => answer(res, 429, PUBLISHED_429);

let redis: RunningRedis;
const cleanups: Array<() => Promise<void>> = [];
beforeAll(async () => {
  if (hasRedisServer) redis = await startRedis();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await redis?.stop();
});

/** A fake KYC service whose requests are counted; it answers the published 429 until told otherwise. */
async function service() {
  const upstream = await startFakeUpstream();
  upstream.behave = limited;
  cleanups.push(upstream.close);
  return upstream;
}

/** A plain client of the test's own, to read and write Redis as another program could. */
function redisClient(): Redis {
  const client = new Redis(redis.url, { maxRetriesPerRequest: 0 });
  cleanups.push(async () => void client.disconnect());
  return client;
}

/**
 * Until `count` connections listen on the channel (each instance's subscription is made once it has
 * connected). Bounded: without a shared wait nothing ever listens, and the test goes on to fail on what it asserts.
 */
async function listeners(count: number): Promise<void> {
  const client = redisClient();
  for (let tries = 0; tries < 100; tries++) {
    const [, listening] = (await client.pubsub('NUMSUB', CHANNEL)) as [string, number];
    if (listening >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An instance of the production server on the fake service and on Redis, in local mode, without a rate limit. */
async function instance(upstreamUrl: string, redisUrl = redis.url): Promise<Instance> {
  const started = await startInstance(
    { KYC_BASE_URL: upstreamUrl, KYC_CLIENT_ID: 'c', KYC_API_KEY: 'k', REDIS_URL: redisUrl },
    { file: { limits: { lookupsPerMinute: 0 } } },
  );
  cleanups.push(started.close);
  return started;
}

/**
 * The API handler on the fake service, its waits and its queue's crawler on `clock`, sharing them through its own connections to
 * Redis; `learned()` settles once it has heard a wait from Redis (after the handler's own watcher has: it
 * was added first). Real time carries the message while the virtual clock stands still: a test that moves
 * the clock waits for it first, or the wait would be heard as starting after the move.
 */
async function appOnClock(upstreamUrl: string, clock: ReturnType<typeof virtualClock>, redisUrl = redis.url) {
  const sharedWaits = createRedisWaits(redisUrl);
  cleanups.push(() => sharedWaits.close());
  const app = await startTestApp({
    upstream: { baseUrl: upstreamUrl, clientId: 'c', apiKey: 'k' },
    pauseClock: clock,
    queueCrawl: { start: false, clock },
    sharedWaits,
  });
  cleanups.push(app.close);
  let heard = false;
  let onHeard = () => {};
  const learned = new Promise<void>((resolve) => (onHeard = resolve));
  const hear = () => {
    heard = true;
    onHeard();
  };
  sharedWaits.of('default').watch(hear);
  sharedWaits.of('default', 'list').watch(hear);
  await sharedWaits.ready();
  return Object.assign(app, { learned: () => (heard ? Promise.resolve() : learned) });
}

describe.skipIf(!hasRedisServer)(`the service's wait shared on Redis${hasRedisServer ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
  it("two instances on one Redis: after one is told to wait 30 s, the other sends nothing to the service and answers 'Try again in … s'", async () => {
    await redis.restart();
    const upstream = await service();
    const [one, two] = await Promise.all([instance(upstream.url), instance(upstream.url)]);
    await listeners(2);
    const told = await one.request('/api/candidates/refId/abc');
    expect([told.status, told.headers['retry-after']]).toEqual([429, '30']);
    expect(errorOf(told)).toMatchObject({ code: 'upstream_rate_limited', retryAfterSeconds: 30 });
    upstream.behave = found;
    const other = await two.request('/api/candidates/refId/other');
    expect(other.status).toBe(429);
    const error = errorOf(other);
    // Real time runs here: the seconds left are the 30 asked, less what has passed since (none of it a whole second, on a calm machine).
    expect(error.code).toBe('upstream_rate_limited');
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(30);
    expect(error.message).toBe(stillWaitingText(error.retryAfterSeconds!));
    expect(other.headers['retry-after']).toBe(String(error.retryAfterSeconds));
    expect(upstream.seen.map((request) => request.path)).toEqual(['/kyc/1.0/connect/c/refId/abc']);
  });

  it('on a virtual clock: the other instance refuses with the seconds left of the same wait, its batch waits for the end, and both send again at the end', async () => {
    await redis.restart();
    const upstream = await service();
    const clock = virtualClock();
    const asked: number[] = [];
    upstream.behave = (req, res) => {
      asked.push(clock.now());
      (asked.length === 1 ? limited : found)(req, res);
    };
    const [one, two] = [await appOnClock(upstream.url, clock), await appOnClock(upstream.url, clock)];
    const start = clock.now();
    expect(errorOf(await one.get('/api/candidates/refId/abc')).retryAfterSeconds).toBe(30);
    await two.learned();
    await clock.sleep(12_000);
    const during = await two.get('/api/candidates/refId/other');
    expect([during.status, during.headers['retry-after']]).toEqual([429, '18']);
    expect(errorOf(during)).toEqual({ code: 'upstream_rate_limited', message: stillWaitingText(18), retryAfterSeconds: 18 });
    expect(asked).toHaveLength(1);
    // A batch on the other instance says it waits the 18 s left and sends its first request at the wait's end.
    const batch = await requestWithBody(two.port, '/api/batch', JSON.stringify({ kind: 'refId', ids: ['a', 'b'] }));
    const events = ndjson(batch.body);
    expect(events[0]).toEqual({ type: 'wait', seconds: 18 });
    expect(events.at(-1)).toEqual({ type: 'done', found: 2, failed: 0 });
    expect(asked.slice(1).every((at) => at >= start + 30_000)).toBe(true);
    expect((await one.get('/api/candidates/refId/abc')).status).toBe(200);
    expect((await two.get('/api/candidates/refId/other')).status).toBe(200);
  });

  it('an instance that starts during the wait reads it from Redis and sends nothing until it ends', async () => {
    await redis.restart();
    const upstream = await service();
    const clock = virtualClock();
    const one = await appOnClock(upstream.url, clock);
    expect((await one.get('/api/candidates/refId/abc')).status).toBe(429);
    upstream.behave = found;
    const late = await appOnClock(upstream.url, clock);
    const refused = await late.get('/api/candidates/refId/other');
    expect(refused.status).toBe(429);
    // What Redis still holds of the 30 s (its own clock runs): more than 25 s of it, on any calm machine.
    expect(errorOf(refused).retryAfterSeconds).toBeGreaterThan(25);
    expect(upstream.seen).toHaveLength(1);
  });

  it("no instance shortens another's wait: a 10 s wait told after a 30 s one is neither stored nor published", async () => {
    await redis.restart();
    const [first, second, listener] = [createRedisWaits(redis.url), createRedisWaits(redis.url), createRedisWaits(redis.url)];
    cleanups.push(first.close, second.close, listener.close);
    await Promise.all([first.ready(), second.ready(), listener.ready()]);
    const heard: number[] = [];
    let heardMarker: () => void = () => {};
    const marker = new Promise<void>((resolve) => (heardMarker = resolve));
    listener.of('default').watch((ms) => {
      heard.push(ms);
      if (ms === 60_000) heardMarker();
    });
    await first.of('default').tell(30_000);
    await second.of('default').tell(10_000);
    const left = await redisClient().pttl('candidate-lookup:service-wait:default');
    expect(left).toBeGreaterThan(10_000);
    // A longer wait after it, as a marker: the channel is in order, so what came before it has been heard.
    await second.of('default').tell(60_000);
    await marker;
    expect(heard).toEqual([30_000, 60_000]);
    // A wait set while an instance was not listening (no message): telling a shorter one learns it instead.
    const learnt: number[] = [];
    second.of('staging').watch((ms) => learnt.push(ms));
    // The watch's read (none yet) is answered before anything asked after it on that connection.
    await second.of('scratch').tell(1);
    expect(learnt).toEqual([]);
    await redisClient().set('candidate-lookup:service-wait:staging', '30000', 'PX', 30_000);
    await second.of('staging').tell(10_000);
    expect(learnt).toHaveLength(1);
    expect(learnt[0]).toBeGreaterThan(10_000);
    // Another environment's wait is its own.
    const other: number[] = [];
    listener.of('production').watch((ms) => other.push(ms));
    expect(other).toEqual([]);
  });

  /** An instance listening on the channel of a fresh Redis, the messages it found bad, and `done` once `heardAll` is called. */
  async function listeningInstance() {
    await redis.restart();
    const bad: string[] = [];
    const waits = createRedisWaits(redis.url, { onBadMessage: (detail) => bad.push(detail) });
    cleanups.push(waits.close);
    await waits.ready();
    await listeners(1);
    let heardAll: () => void = () => {};
    const done = new Promise<void>((resolve) => (heardAll = resolve));
    return { waits, bad, heardAll: () => heardAll(), done };
  }

  it('attack: a message on the channel that is not a wait is ignored and said, and a wait of a day is cut to 300 s', async () => {
    const { waits, bad, heardAll, done } = await listeningInstance();
    const heard: number[] = [];
    waits.of('default').watch((ms) => {
      heard.push(ms);
      if (ms === 5_000) heardAll();
    });
    const client = redisClient();
    for (const text of ['not json', '{"origin":"x","environment":"default","ms":-1}', '{"environment":"default","ms":30000}', 'null']) {
      await client.publish(CHANNEL, text);
    }
    await client.publish(CHANNEL, JSON.stringify({ origin: 'x', environment: 'default', ms: 86_400_000 }));
    await client.publish(CHANNEL, JSON.stringify({ origin: 'x', environment: 'default', ms: 5_000 }));
    await done;
    expect(heard).toEqual([300_000, 5_000]);
    expect(bad).toEqual(Array(4).fill('a message on the service-wait channel is not a wait'));
  });

  it("the list's wait is shared as the list's own: the other instances hold their list, not their lookups", async () => {
    await redis.restart();
    const upstream = await service();
    const clock = virtualClock();
    const asked: Array<{ path: string; at: number }> = [];
    upstream.behave = (req, res) => {
      asked.push({ path: req.url!, at: clock.now() });
      if (!req.url!.includes('/applicants')) return found(req, res);
      answer(res, 200, JSON.stringify({ status: 'success', data: { records: [], total: 0 } }));
    };
    const other = await appOnClock(upstream.url, clock);
    const told = createRedisWaits(redis.url);
    cleanups.push(told.close);
    await told.ready();
    await listeners(2);
    const toldAt = clock.now();
    await told.of('default', 'list').tell(30_000);
    await other.learned();
    const client = redisClient();
    expect(await client.pttl('candidate-lookup:service-list-wait:default')).toBeGreaterThan(25_000);
    expect(await client.pttl('candidate-lookup:service-wait:default')).toBe(-2);
    expect((await other.get('/api/candidates/refId/abc')).status).toBe(200);
    await other.crawl();
    const pages = asked.filter((request) => request.path.includes('/applicants'));
    expect(pages.length).toBeGreaterThan(0);
    // What Redis still held of the 30 s when it was heard: more than 25 s of it, on any calm machine.
    for (const page of pages) expect(page.at).toBeGreaterThan(toldAt + 25_000);
  });

  it("attack: a wait for an operation this version does not know is no wait; one that names none is a lookup's", async () => {
    const { waits, bad, heardAll, done } = await listeningInstance();
    const heard: string[] = [];
    waits.of('default').watch((ms) => heard.push(`lookup ${ms}`));
    waits.of('default', 'list').watch((ms) => {
      heard.push(`list ${ms}`);
      if (ms === 5_000) heardAll();
    });
    const client = redisClient();
    await client.publish(CHANNEL, JSON.stringify({ origin: 'x', environment: 'default', ms: 7_000, operation: 'everything' }));
    await client.publish(CHANNEL, JSON.stringify({ origin: 'x', environment: 'default', ms: 9_000 }));
    await client.publish(CHANNEL, JSON.stringify({ origin: 'x', environment: 'default', ms: 5_000, operation: 'list' }));
    await done;
    expect(heard).toEqual(['lookup 9000', 'list 5000']);
    expect(bad).toEqual(['a message on the service-wait channel is not a wait']);
  });

  it('Redis down: the told instance still obeys the wait, the other goes on as before, and nothing fails for it', async () => {
    await redis.restart();
    const upstream = await service();
    const clock = virtualClock();
    const [one, two] = [await appOnClock(upstream.url, clock), await appOnClock(upstream.url, clock)];
    await redis.kill();
    const told = await one.get('/api/candidates/refId/abc');
    expect([told.status, errorOf(told).retryAfterSeconds]).toEqual([429, 30]);
    upstream.behave = found;
    const again = await one.get('/api/candidates/refId/again');
    expect(errorOf(again)).toEqual({ code: 'upstream_rate_limited', message: stillWaitingText(30), retryAfterSeconds: 30 });
    // The other instance was not told (Redis is away), so it asks as it would alone.
    expect((await two.get('/api/candidates/refId/other')).status).toBe(200);
    expect(upstream.seen).toHaveLength(2);
    await clock.sleep(30_000);
    expect((await one.get('/api/candidates/refId/again')).status).toBe(200);
    await redis.restart();
  });

  it('an instance started while Redis was down subscribes once Redis is up, and hears the next wait', async () => {
    await redis.kill();
    const upstream = await service();
    const clock = virtualClock();
    // Its first SUBSCRIBE is refused (no connection could take it), as its first connection fails.
    const late = await appOnClock(upstream.url, clock);
    await redis.restart();
    await listeners(1);
    const one = await appOnClock(upstream.url, clock);
    const told = await one.get('/api/candidates/refId/abc');
    expect([told.status, errorOf(told).retryAfterSeconds]).toEqual([429, 30]);
    // Heard within a second, or not at all (before, the late instance never subscribed).
    await Promise.race([late.learned(), new Promise((resolve) => setTimeout(resolve, 1000))]);
    upstream.behave = found;
    const other = await late.get('/api/candidates/refId/other');
    expect([other.status, errorOf(other).retryAfterSeconds]).toEqual([429, 30]);
    expect(upstream.seen).toHaveLength(1);
  });

  it('Redis frozen: the 429 is still answered (within the 2 s command timeout), and the wait holds on the told instance', async () => {
    await redis.restart();
    const upstream = await service();
    const clock = virtualClock();
    const one = await appOnClock(upstream.url, clock);
    redis.pause();
    try {
      const told = await one.get('/api/candidates/refId/abc');
      expect([told.status, errorOf(told).retryAfterSeconds]).toEqual([429, 30]);
      upstream.behave = found;
      expect(errorOf(await one.get('/api/candidates/refId/again')).retryAfterSeconds).toBe(30);
      expect(upstream.seen).toHaveLength(1);
    } finally {
      redis.resume();
    }
  });
});
