import type http from 'node:http';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisQueueIndexStore } from '../../src/server/state/queue-index-redis.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { ndjson, requestWithBody, startTestApp, type TestApp, type TestAppOptions } from './http.ts';
import { startListUpstream } from './list-upstream.ts';
import { COMPLIANCE, gateway, pageOf, SUPPORT } from './queue-fixture.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, type RunningRedis, startRedis } from './redis-fixture.ts';
import { errorOf } from './service-app.ts';

/**
 * A privacy audit's finding: the KYC service's own error text was copied whole into places that must
 * never hold candidate data: the crawler's warning at the default log level, the queue index (Redis,
 * answered to every user) and support users' lookups and batch rows. Whatever answered wrote that text,
 * and it can name a candidate. Compliance users still see it on a lookup: "Invalid client id" helps them.
 */

const LEAK = 'List failed near candidate Gertrude Zwiebelmeyer gertrude.zwiebel@leak.test';
const LEAKED = /Gertrude|Zwiebel|leak\.test/;
const OWN_SENTENCE = 'The KYC service answered with an error (HTTP 500).';

function answerLeak(res: http.ServerResponse): void {
  const text = JSON.stringify({ status: 'error', message: LEAK });
  res.writeHead(500, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** A service whose waiting list fails naming a candidate; its other tabs list one candidate in review. */
async function leakingList() {
  const inReview = { status: 'inreview', recordId: 'rec-1', refId: 'ref-1', inreviewDate: '2026-05-01T00:00:00.000Z' };
  const upstream = await startListUpstream([inReview]);
  upstream.behave = (req, res) => (req.url?.includes('/applicants/waiting') ? answerLeak(res) : upstream.behaveList(req, res));
  return upstream;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function crawledApp(options: Partial<TestAppOptions> = {}): Promise<TestApp> {
  const upstream = await leakingList();
  cleanups.push(upstream.close);
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
    access: gateway(),
    settings: { limits: { queueIndexLookupsPerSecond: 500 } },
    ...options,
  });
  cleanups.push(app.close);
  await app.crawl();
  return app;
}

/** What the queue answers every user: the tab's failure, and All's `index.error`; neither quotes the service. */
async function expectIndexQuotesNothing(app: TestApp): Promise<void> {
  for (const who of [SUPPORT, COMPLIANCE]) {
    const waiting = await app.get('/api/applicants?status=waiting', who);
    expect(waiting.status).toBe(502);
    expect(errorOf(waiting)).toMatchObject({ code: 'upstream_error', message: OWN_SENTENCE });
    const all = pageOf(await app.get('/api/applicants', who));
    expect(all.records.map((record) => record.recordId)).toEqual(['rec-1']);
    expect(all.index?.error?.message).toBe(OWN_SENTENCE);
  }
}

describe('the KYC service error text never reaches a log line or the queue index', () => {
  it('attack: a service error naming a candidate is not quoted in the crawler log line: its code and HTTP status are', async () => {
    const app = await crawledApp();
    expect(app.logs.join('\n')).not.toMatch(LEAKED);
    const warned = app.logs
      .map((line) => JSON.parse(line) as { level: string; msg: string; code?: string; upstreamStatus?: number })
      .filter((line) => line.level === 'warn' && line.msg.startsWith('The queue crawler could not read the waiting list'));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ code: 'upstream_error', upstreamStatus: 500 });
    expect(warned[0]!.msg).toContain('upstream_error (HTTP 500)');
  });

  it('attack: a service error naming a candidate is not kept as the index error answered to every user (memory index)', async () => {
    await expectIndexQuotesNothing(await crawledApp());
  });
});

describe.skipIf(!hasRedisServer)(hasRedisServer ? 'the queue index in a real redis-server' : NO_REDIS_MESSAGE, () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.stop());

  it('attack: a service error naming a candidate is kept nowhere in Redis, and not answered as the index error', async () => {
    const store = createRedisQueueIndexStore(redis.url, 'words:');
    cleanups.push(() => store.close());
    const app = await crawledApp({ queueIndex: store });
    await expectIndexQuotesNothing(app);
    const stored = await everythingIn(redis.url);
    expect(stored).toContain('rec-1');
    expect(stored).toContain(OWN_SENTENCE);
    expect(stored).not.toMatch(LEAKED);
  });
});

/** Every key and value of a Redis, as one text. */
async function everythingIn(url: string): Promise<string> {
  const client = new Redis(url, { lazyConnect: true });
  await client.connect();
  try {
    const texts: string[] = [];
    for (const key of await client.keys('*')) {
      const type = await client.type(key);
      const value =
        type === 'hash'
          ? await client.hgetall(key)
          : type === 'zset'
            ? await client.zrange(key, '0', '-1')
            : type === 'set'
              ? await client.smembers(key)
              : type === 'list'
                ? await client.lrange(key, '0', '-1')
                : type === 'string'
                  ? await client.get(key)
                  : `(${type})`;
      texts.push(key, JSON.stringify(value));
    }
    return texts.join('\n');
  } finally {
    client.disconnect();
  }
}

describe("a lookup's and a batch row's answer: the service's words to compliance users only", () => {
  async function leakingService() {
    const upstream = await startFakeUpstream();
    cleanups.push(upstream.close);
    upstream.behave = (_req, res) => answerLeak(res);
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
      access: gateway(),
    });
    cleanups.push(app.close);
    return app;
  }

  it("attack: a service error naming a candidate is not answered to a support user's lookup; a compliance user's quotes it", async () => {
    const app = await leakingService();
    const support = await app.get('/api/candidates/refId/abc-123', { ...SUPPORT, accept: 'application/json' });
    expect(support.status).toBe(502);
    expect(support.body).not.toMatch(LEAKED);
    expect(errorOf(support)).toEqual({ code: 'upstream_error', message: OWN_SENTENCE, upstreamStatus: 500 });
    // A compliance user still reads the service's words: they help ("Invalid client id").
    const compliance = await app.get('/api/candidates/refId/abc-123', { ...COMPLIANCE, accept: 'application/json' });
    expect(errorOf(compliance)).toMatchObject({ code: 'upstream_error', upstreamStatus: 500 });
    expect(errorOf(compliance).message).toBe(`The KYC service answered with an error (HTTP 500): "${LEAK}".`);
    expect(app.logs.join('\n')).not.toMatch(LEAKED);
  });

  it("attack: a service error naming a candidate is not answered in a support user's batch row (so not in its CSV); a compliance user's quotes it", async () => {
    const app = await leakingService();
    const batch = (who: Record<string, string>) =>
      requestWithBody(app.port, '/api/batch', JSON.stringify({ kind: 'refId', ids: ['abc-123'] }), { headers: who });
    const support = await batch(SUPPORT);
    expect(support.status).toBe(200);
    expect(support.body).not.toMatch(LEAKED);
    const row = ndjson(support.body).find((line) => line.type === 'row');
    expect(row).toMatchObject({ ok: false, code: 'upstream_error', message: OWN_SENTENCE });
    const compliance = ndjson((await batch(COMPLIANCE)).body).find((line) => line.type === 'row');
    expect(compliance).toMatchObject({ ok: false, code: 'upstream_error' });
    expect(compliance?.message).toContain(LEAK);
  });
});
