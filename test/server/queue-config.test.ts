import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueFromConfig } from '../../src/server/api.ts';
import { parseConfig } from '../../src/server/config/config.ts';
import { createQueueFiller } from '../../src/server/lookup/queue-filler.ts';
import { createQueueIndex } from '../../src/server/state/queue-index.ts';
import { createMemoryStore } from '../../src/server/state/store.ts';
import { resolveUpstream } from '../../src/server/resolve-upstream.ts';
import { configErrorOf } from './config-error.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, type RunningRedis, startRedis } from './redis-fixture.ts';

const PRODUCTION = { name: 'production', label: 'Production', baseUrl: 'https://kyc.example.org', clientId: 'acme', apiKeyEnv: 'PROD_KEY' };
const STAGING = { ...PRODUCTION, name: 'staging', label: 'Staging', baseUrl: 'https://staging.example.org' };

describe("the queue's settings in CONFIG_FILE", () => {
  it('reads queueIndexMax and queueSlaHours per environment, and queueIndexLookupsPerSecond in limits, to the served environments', async () => {
    const config = parseConfig(
      { PROD_KEY: 'k-prod' },
      {
        environments: [{ ...PRODUCTION, queueIndexMax: 200, queueSlaHours: 24.5 }, STAGING],
        limits: { queueIndexLookupsPerSecond: 12 },
      },
    );
    expect(config.queueIndexLookupsPerSecond).toBe(12);
    const { environments } = await resolveUpstream(config);
    expect(environments[0]).toMatchObject({ queueIndexMax: 200, queueSlaHours: 24.5 });
    // Unset: the defaults (1000 and 48 hours) are the server's, applied where the queue is served.
    expect(environments[1]!.queueIndexMax).toBeUndefined();
    expect(environments[1]!.queueSlaHours).toBeUndefined();
  });

  it('defaults to 5 lookups a second', () => {
    expect(parseConfig({ PROD_KEY: 'k' }, { environments: [PRODUCTION] }).queueIndexLookupsPerSecond).toBe(5);
  });

  it('refuses values that are not counts or hours, naming the field', () => {
    const message = configErrorOf(
      { PROD_KEY: 'k' },
      {
        environments: [
          { ...PRODUCTION, queueIndexMax: 1.5, queueSlaHours: 'two days' },
          { ...STAGING, queueIndexMax: -1, queueSlaHours: 9000 },
        ],
        limits: { queueIndexLookupsPerSecond: 5000 },
      },
    );
    expect(message).toContain('environments[0].queueIndexMax: must be a whole number');
    expect(message).toContain('environments[0].queueSlaHours: must be a number of hours');
    expect(message).toContain('environments[1].queueIndexMax: must be at least 0');
    expect(message).toContain('environments[1].queueSlaHours: must be at most 8760 (a year)');
    expect(message).toContain('limits.queueIndexLookupsPerSecond: must be at most 1000');
  });
});

describe('the queue index as the API starts it (queueFromConfig)', () => {
  it('keeps the index in memory without REDIS_URL', async () => {
    const queue = queueFromConfig(parseConfig({ PROD_KEY: 'k' }, { environments: [PRODUCTION] }), createMemoryStore());
    expect(queue.queueIndex.kind).toBe('memory');
    await queue.queueIndex.close();
  });

  it('bounds the lookups that fill the index at limits.queueIndexLookupsPerSecond: the filler takes that many a round', async () => {
    const config = parseConfig({ PROD_KEY: 'k' }, { environments: [PRODUCTION], limits: { queueIndexLookupsPerSecond: 3 } });
    const { queueIndex, queueLookups } = queueFromConfig(config, createMemoryStore());
    const looked: string[] = [];
    const filler = createQueueFiller({
      environment: 'production',
      index: createQueueIndex(queueIndex),
      lookup: async (id) => {
        looked.push(id);
        return { status: 'waiting', dates: { waitingDate: '2026-01-01T00:00:00.000Z' } };
      },
      counter: queueLookups ?? undefined,
      maxPending: 1000,
      intervalMs: 60_000,
    });
    filler.want(Array.from({ length: 10 }, (_, i) => `recordId:id-${i}` as const));
    expect(await filler.drain()).toBe(3);
    expect(looked).toEqual(['recordId:id-0', 'recordId:id-1', 'recordId:id-2']);
    filler.close();
    // 0: no lookups at all, no counter.
    const none = parseConfig({ PROD_KEY: 'k' }, { environments: [PRODUCTION], limits: { queueIndexLookupsPerSecond: 0 } });
    expect(queueFromConfig(none, createMemoryStore()).queueLookups).toBeNull();
  });

  describe.skipIf(!hasRedisServer)(hasRedisServer ? 'with REDIS_URL (a real redis-server)' : NO_REDIS_MESSAGE, () => {
    let redis: RunningRedis;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(() => redis.stop());

    it('keeps the index in Redis: what one instance writes, another instance started alike reads', async () => {
      const config = parseConfig({ PROD_KEY: 'k', REDIS_URL: redis.url }, { environments: [PRODUCTION] });
      const [one, two] = [queueFromConfig(config, createMemoryStore()), queueFromConfig(config, createMemoryStore())];
      expect(one.queueIndex.kind).toBe('redis');
      const facts = { status: 'waiting', dates: { waitingDate: '2026-01-01T00:00:00.000Z' } };
      await one.queueIndex.write('production', new Map([['rec-shared', facts]]));
      expect((await two.queueIndex.read('production', ['rec-shared'])).get('rec-shared')).toEqual(facts);
      await Promise.all([one.queueIndex.close(), two.queueIndex.close()]);
    });
  });
});
