import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionStore } from '../../src/server/auth/session-store.ts';
import { createRedisStore } from '../../src/server/state/redis-store.ts';
import { createMemoryStore, StoreUnavailableError, type SharedStore } from '../../src/server/state/store.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, startRedis, type RunningRedis } from './redis-fixture.ts';

let redis: RunningRedis | undefined;
beforeAll(async () => {
  if (hasRedisServer) redis = await startRedis();
});
afterAll(() => redis?.stop());

let prefixes = 0;
const kinds: { name: string; make: () => SharedStore; available: boolean }[] = [
  { name: 'memory', make: () => createMemoryStore(), available: true },
  { name: 'redis', make: () => createRedisStore(redis!.url, { keyPrefix: `s${++prefixes}:` }), available: hasRedisServer },
];

for (const kind of kinds) {
  describe.skipIf(!kind.available)(`sessions in the ${kind.name} store${kind.available ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
    it('knows a session by its token until sign-out', async () => {
      const sessions = new SessionStore(kind.make(), { maxAgeMs: 60_000, idleMs: 60_000 });
      const token = await sessions.create('ana', 'compliance');
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await sessions.get(token)).toMatchObject({ user: 'ana', role: 'compliance' });
      expect(await sessions.get(`${token}x`)).toBeUndefined();
      expect(await sessions.get(undefined)).toBeUndefined();
      expect(await sessions.get('x'.repeat(10_000))).toBeUndefined();
      await sessions.delete(token);
      expect(await sessions.get(token)).toBeUndefined();
    });

    it('ends a session left idle, and one past its maximum age however busy', async () => {
      let clock = Date.now();
      const sessions = new SessionStore(kind.make(), { maxAgeMs: 60 * 60_000, idleMs: 10 * 60_000, now: () => clock });
      const idle = await sessions.create('ana', 'compliance');
      const busy = await sessions.create('sam', 'support');
      clock += 9 * 60_000;
      expect(await sessions.get(busy)).toBeDefined();
      clock += 2 * 60_000; // idle 11 minutes
      expect(await sessions.get(idle)).toBeUndefined();
      expect(await sessions.get(busy)).toBeDefined();
      for (let i = 0; i < 5; i++) {
        clock += 9 * 60_000;
        expect(await sessions.get(busy), `after ${20 + i * 9} minutes`).toBeDefined();
      }
      clock += 9 * 60_000; // 65 minutes after sign-in, never idle 10
      expect(await sessions.get(busy)).toBeUndefined();
    });

    it('remembers whose a session was only after the store answered it, for five minutes, before its end, until sign-out', async () => {
      let clock = Date.now();
      const sessions = new SessionStore(kind.make(), { maxAgeMs: 60 * 60_000, idleMs: 3 * 60_000, now: () => clock });
      const [ana, sam, other] = await Promise.all([
        sessions.create('ana', 'compliance'),
        sessions.create('sam', 'support'),
        sessions.create('ana', 'compliance'),
      ]);
      // Made but never read back: not remembered (a sign-in is no answer the session is still valid).
      expect([sessions.recall(ana), sessions.recall('forged'), sessions.recall(undefined)]).toEqual([undefined, undefined, undefined]);
      await Promise.all([sessions.get(ana), sessions.get(sam), sessions.get(other)]);
      expect(sessions.recall(ana)).toMatchObject({ user: 'ana', role: 'compliance' });
      await sessions.delete(other);
      expect(sessions.recall(other)).toBeUndefined();
      clock += 2 * 60_000;
      await sessions.get(ana);
      clock += 2 * 60_000;
      // Sam's session idled out (3 minutes) though read within five: not remembered past its own end.
      expect(sessions.recall(sam)).toBeUndefined();
      expect(sessions.recall(ana)).toMatchObject({ user: 'ana' });
      clock += 4 * 60_000;
      expect(sessions.recall(ana)).toBeUndefined();
    });
  });
}

describe.skipIf(!hasRedisServer)(`sessions in Redis${hasRedisServer ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
  it('are known to another instance and after a restart', async () => {
    const options = { maxAgeMs: 60_000, idleMs: 60_000 };
    const first = createRedisStore(redis!.url, { keyPrefix: 'restart:' });
    const token = await new SessionStore(first, options).create('ana', 'compliance');
    const other = createRedisStore(redis!.url, { keyPrefix: 'restart:' });
    expect(await new SessionStore(other, options).get(token)).toMatchObject({ user: 'ana' });
    await first.close();
    const restarted = createRedisStore(redis!.url, { keyPrefix: 'restart:' });
    expect(await new SessionStore(restarted, options).get(token)).toMatchObject({ user: 'ana', role: 'compliance' });
    await other.close();
    await restarted.close();
  });

  it('keeps a hash of the token in Redis, never the token, and expires the record with the session', async () => {
    const store = createRedisStore(redis!.url, { keyPrefix: 'hash:' });
    const token = await new SessionStore(store, { maxAgeMs: 60 * 60_000, idleMs: 10 * 60_000 }).create('ana', 'compliance');
    const client = new Redis(redis!.url);
    const keys = await client.keys('hash:*');
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain(token);
    expect(await client.get(keys[0]!)).not.toContain(token);
    const ttl = await client.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);
    // A record that is not a session (written by something else, or damaged) signs nobody in.
    await client.set(keys[0]!, '{"user":"ana","role":"admin","createdAt":0,"lastSeenAt":0}');
    expect(await new SessionStore(store, { maxAgeMs: 60_000, idleMs: 60_000 }).get(token)).toBeUndefined();
    client.disconnect();
    await store.close();
  });

  it('fails closed while Redis is down and knows the session again once it is back', async () => {
    const own = await startRedis();
    const store = createRedisStore(own.url);
    const sessions = new SessionStore(store, { maxAgeMs: 60_000, idleMs: 60_000 });
    await own.kill();
    await expect(sessions.create('ana', 'compliance')).rejects.toBeInstanceOf(StoreUnavailableError);
    await own.restart();
    await expect.poll(() => store.ping(), { timeout: 10_000 }).toBe(true);
    const token = await sessions.create('ana', 'compliance');
    expect(await sessions.get(token)).toMatchObject({ user: 'ana' });
    await store.close();
    await own.stop();
  });
});
