import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisReadiness } from '../../src/server/state/redis-ready.ts';
import { freePort } from './instance.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, type RunningRedis, startRedis } from './redis-fixture.ts';

/**
 * The one rule of "may a command go to Redis now" (redis-ready.ts), shared by the store, the live hub and
 * the service's shared wait, against a real redis-server that comes and goes.
 */

const connect = (url: string) => {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => 50, lazyConnect: true });
  redis.on('error', () => undefined);
  return redis;
};

/** Resolves once `redis` has emitted `event`. */
const next = (redis: Redis, event: string) => new Promise<void>((resolve) => redis.once(event, () => resolve()));

describe.skipIf(!hasRedisServer)(hasRedisServer ? 'whether Redis can take a command now (a real redis-server)' : NO_REDIS_MESSAGE, () => {
  let server: RunningRedis;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(() => server.stop());

  it('waits for the first connection, one wait shared by every caller, then answers at once', async () => {
    const redis = connect(server.url);
    const up = redisReadiness(redis, { timeoutMs: 60_000 });
    const listeners = redis.listenerCount('ready');
    const asked = [up(), up(), up()];
    // Three callers, one wait: one listener more, not three.
    expect(redis.listenerCount('ready')).toBe(listeners + 1);
    void redis.connect().catch(() => undefined);
    expect(await Promise.all(asked)).toEqual([true, true, true]);
    expect(redis.listenerCount('ready')).toBe(listeners);
    expect(await up()).toBe(true);
    redis.disconnect();
  });

  it('says no at the first refused attempt, not after its timeout, and at once while known to be down', async () => {
    const redis = connect(`redis://127.0.0.1:${await freePort()}`);
    const up = redisReadiness(redis, { timeoutMs: 60_000 });
    const first = up();
    void redis.connect().catch(() => undefined);
    expect(await first).toBe(false);
    expect(await up()).toBe(false);
    redis.disconnect();
  });

  it('with waitWhileDown, a caller during an outage is answered yes once Redis is back', async () => {
    const redis = connect(server.url);
    const up = redisReadiness(redis, { timeoutMs: 60_000, waitWhileDown: true });
    await redis.connect();
    expect(await up()).toBe(true);
    const closed = next(redis, 'close');
    await server.kill();
    await closed;
    const during = up();
    await server.restart();
    expect(await during).toBe(true);
    redis.disconnect();
  });

  it('without waitWhileDown, a caller during an outage is told no at once; yes again once it is back', async () => {
    const redis = connect(server.url);
    const up = redisReadiness(redis, { timeoutMs: 60_000 });
    await redis.connect();
    const closed = next(redis, 'close');
    await server.kill();
    await closed;
    expect(await up()).toBe(false);
    const back = next(redis, 'ready');
    await server.restart();
    await back;
    expect(await up()).toBe(true);
    redis.disconnect();
  });
});
