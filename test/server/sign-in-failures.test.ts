import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInFailures } from '../../src/server/auth/sign-in-failures.ts';
import { createRedisStore } from '../../src/server/state/redis-store.ts';
import { createMemoryStore, type SharedStore } from '../../src/server/state/store.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, startRedis, type RunningRedis } from './redis-fixture.ts';

let redis: RunningRedis | undefined;
beforeAll(async () => {
  if (hasRedisServer) redis = await startRedis();
});
afterAll(() => redis?.stop());

let prefixes = 0;
const kinds: { name: string; make: () => SharedStore; available: boolean }[] = [
  { name: 'memory', make: () => createMemoryStore(), available: true },
  { name: 'redis', make: () => createRedisStore(redis!.url, { keyPrefix: `f${++prefixes}:` }), available: hasRedisServer },
];
const ana = { user: 'user:ana|address:10.0.0.1', address: 'address:10.0.0.1' };

for (const kind of kinds) {
  describe.skipIf(!kind.available)(`sign-in failures in the ${kind.name} store${kind.available ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
    it('locks a username at one address at its tenth failure, for 15 minutes', async () => {
      const failures = createSignInFailures(kind.make());
      for (let i = 1; i <= 9; i++) {
        expect(await failures.fail(ana)).toBe(i);
        expect(await failures.lockedFor(ana)).toBe(0);
      }
      await failures.fail(ana);
      const locked = await failures.lockedFor(ana);
      expect(locked).toBeGreaterThan(14 * 60);
      expect(locked).toBeLessThanOrEqual(15 * 60);
      // Another username from the same address is not locked; a success elsewhere does not unlock.
      expect(await failures.lockedFor({ user: 'user:sam|address:10.0.0.1', address: ana.address })).toBe(0);
    });

    it('locks an address after fifty failures whatever the usernames, and forgets a username on success', async () => {
      const failures = createSignInFailures(kind.make());
      await failures.fail(ana);
      await failures.succeed(ana);
      expect(await failures.fail(ana)).toBe(2); // the address still counts the first
      for (let i = 0; i < 48; i++) await failures.fail({ user: `user:guess-${i}|${ana.address}`, address: ana.address });
      expect(await failures.lockedFor({ user: 'user:new|address:10.0.0.1', address: ana.address })).toBeGreaterThan(14 * 60);
      expect(await failures.lockedFor({ user: 'user:new|address:10.0.0.2', address: 'address:10.0.0.2' })).toBe(0);
    });
  });
}

describe.skipIf(!hasRedisServer)(`sign-in failures shared in Redis${hasRedisServer ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
  it('count failures on two instances together, and a lock made on one holds on the other', async () => {
    const one = createSignInFailures(createRedisStore(redis!.url, { keyPrefix: 'shared-lock:' }));
    const two = createSignInFailures(createRedisStore(redis!.url, { keyPrefix: 'shared-lock:' }));
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? one : two).fail(ana)));
    expect(await one.lockedFor(ana)).toBeGreaterThan(14 * 60);
    expect(await two.lockedFor(ana)).toBeGreaterThan(14 * 60);
  });
});
