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
        expect(await failures.begin(ana)).toEqual({ ok: true, count: i });
        expect(await failures.lockedFor(ana)).toBe(0);
      }
      // The tenth is still checked; it locks from then.
      expect(await failures.begin(ana)).toEqual({ ok: true, count: 10 });
      const locked = await failures.lockedFor(ana);
      expect(locked).toBeGreaterThan(14 * 60);
      expect(locked).toBeLessThanOrEqual(15 * 60);
      // Another username from the same address is not locked; a success elsewhere does not unlock.
      expect(await failures.lockedFor({ user: 'user:sam|address:10.0.0.1', address: ana.address })).toBe(0);
    });

    it('locks an address after fifty failures whatever the usernames, and forgets a username on success', async () => {
      const failures = createSignInFailures(kind.make());
      await failures.begin(ana);
      await failures.begin(ana);
      await failures.succeed(ana);
      expect(await failures.begin(ana)).toEqual({ ok: true, count: 2 }); // the address still counts the failure, not the success
      for (let i = 0; i < 48; i++) await failures.begin({ user: `user:guess-${i}|${ana.address}`, address: ana.address });
      expect(await failures.lockedFor({ user: 'user:new|address:10.0.0.1', address: ana.address })).toBeGreaterThan(14 * 60);
      expect(await failures.lockedFor({ user: 'user:new|address:10.0.0.2', address: 'address:10.0.0.2' })).toBe(0);
    });
  });
}

describe.skipIf(!hasRedisServer)(`sign-in failures shared in Redis${hasRedisServer ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
  it('count failures on two instances together, and a lock made on one holds on the other', async () => {
    const one = createSignInFailures(createRedisStore(redis!.url, { keyPrefix: 'shared-lock:' }));
    const two = createSignInFailures(createRedisStore(redis!.url, { keyPrefix: 'shared-lock:' }));
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? one : two).begin(ana)));
    expect(await one.lockedFor(ana)).toBeGreaterThan(14 * 60);
    expect(await two.lockedFor(ana)).toBeGreaterThan(14 * 60);
  });

  it('lets exactly ten of twenty sign-ins begun at once on two instances be checked', async () => {
    const one = createSignInFailures(createRedisStore(redis!.url, { keyPrefix: 'shared-burst:' }));
    const two = createSignInFailures(createRedisStore(redis!.url, { keyPrefix: 'shared-burst:' }));
    const begun = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).begin(ana)));
    const checked = begun.filter((b) => b.ok);
    expect(checked).toHaveLength(10);
    // Each gives the larger of its two counts (username, address), taken one after the other: the twenty
    // may reach the two keys in different orders (seen under load: one checked sign-in was the address's
    // eleventh), so the counts are not exactly 1 to 10, only within the twenty.
    for (const one of checked) expect(one.count).toBeGreaterThanOrEqual(1);
    for (const one of checked) expect(one.count).toBeLessThanOrEqual(20);
    for (const refused of begun.filter((b) => !b.ok)) expect(refused.retryAfterSeconds).toBeGreaterThan(14 * 60);
  });
});
