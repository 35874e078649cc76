import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueFromConfig } from '../../src/server/composition/api.ts';
import { parseConfig } from '../../src/server/config/config.ts';
import { settingsOf } from '../../src/server/config/settings.ts';
import { createQueueIndex, indexBound } from '../../src/server/state/queue-index.ts';
import { resolveUpstream } from '../../src/server/composition/resolve-upstream.ts';
import { configErrorOf } from './config-error.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, type RunningRedis, startRedis } from './redis-fixture.ts';

const PRODUCTION = { name: 'production', label: 'Production', baseUrl: 'https://kyc.example.org', clientId: 'acme', apiKeyEnv: 'PROD_KEY' };
const STAGING = { ...PRODUCTION, name: 'staging', label: 'Staging', baseUrl: 'https://staging.example.org' };

describe("the queue's settings in CONFIG_FILE", () => {
  it('reads queueIndexMax and queueSlaHours per environment, queueIndexLookupsPerSecond and queueViewsPerMinute in limits', async () => {
    const config = parseConfig(
      { PROD_KEY: 'k-prod' },
      {
        environments: [{ ...PRODUCTION, queueIndexMax: 200_000, queueSlaHours: 24.5 }, STAGING],
        limits: { queueIndexLookupsPerSecond: 12, queueViewsPerMinute: 90 },
      },
    );
    expect(config.limits).toMatchObject({ queueIndexLookupsPerSecond: 12, queueViewsPerMinute: 90 });
    const { environments } = await resolveUpstream(config);
    expect(environments[0]).toMatchObject({ queueIndexMax: 200_000, queueSlaHours: 24.5 });
    // Unset: the defaults (600 000 and 48 hours) are the server's, applied where the queue is served.
    expect(environments[1]!.queueIndexMax).toBeUndefined();
    expect(environments[1]!.queueSlaHours).toBeUndefined();
    expect(indexBound(undefined)).toEqual({ maxEntries: 600_000, maxBytes: 600_000 * 512 });
    expect(indexBound(200_000)).toEqual({ maxEntries: 200_000, maxBytes: 200_000 * 512 });
  });

  it('defaults to 5 requests a second (100 for the embedded sandbox) and 300 views a minute', () => {
    expect(parseConfig({ PROD_KEY: 'k' }, { environments: [PRODUCTION] }).limits).toMatchObject({
      queueIndexLookupsPerSecond: 5,
      queueViewsPerMinute: 300,
    });
    expect(parseConfig({}, {}).limits.queueIndexLookupsPerSecond).toBe(100);
  });

  it('refuses values that are not counts or hours, naming the field', () => {
    const message = configErrorOf(
      { PROD_KEY: 'k' },
      {
        environments: [
          { ...PRODUCTION, queueIndexMax: 1.5, queueSlaHours: 'two days' },
          { ...STAGING, queueIndexMax: 999, queueSlaHours: 9000 },
        ],
        limits: { queueIndexLookupsPerSecond: 5000, queueViewsPerMinute: -1 },
      },
    );
    expect(message).toContain('environments[0].queueIndexMax: must be a whole number');
    expect(message).toContain('environments[0].queueSlaHours: must be a number of hours');
    expect(message).toContain('environments[1].queueIndexMax: must be at least 1000');
    expect(message).toContain('environments[1].queueSlaHours: must be at most 8760 (a year)');
    expect(message).toContain('limits.queueIndexLookupsPerSecond: must be at most 1000');
    expect(message).toContain('limits.queueViewsPerMinute: must be at least 0');
  });
});

describe('the queue index as the API starts it (queueFromConfig)', () => {
  it('keeps the index in memory without REDIS_URL; the crawler’s rate and the views limit are the handler’s settings', async () => {
    const config = parseConfig(
      { PROD_KEY: 'k' },
      { environments: [PRODUCTION], limits: { queueIndexLookupsPerSecond: 3, queueViewsPerMinute: 2 } },
    );
    const queue = queueFromConfig(config);
    expect(queue.queueIndex.kind).toBe('memory');
    expect(settingsOf(config).limits).toMatchObject({ queueIndexLookupsPerSecond: 3, queueViewsPerMinute: 2 });
    await queue.queueIndex.close();
  });

  describe.skipIf(!hasRedisServer)(hasRedisServer ? 'with REDIS_URL (a real redis-server)' : NO_REDIS_MESSAGE, () => {
    let redis: RunningRedis;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(() => redis.stop());

    it('keeps the index in Redis: what one instance writes, another instance started alike reads', async () => {
      const config = parseConfig({ PROD_KEY: 'k', REDIS_URL: redis.url }, { environments: [PRODUCTION] });
      const [one, two] = [queueFromConfig(config), queueFromConfig(config)];
      expect(one.queueIndex.kind).toBe('redis');
      await createQueueIndex(one.queueIndex).learnRecord('production', {
        recordId: 'rec-shared',
        status: 'waiting',
        since: 1_700_000_000_000,
      });
      expect((await two.queueIndex.find('production', ['recordId:rec-shared'])).get('recordId:rec-shared')?.entry).toEqual({
        recordId: 'rec-shared',
        status: 'waiting',
        since: 1_700_000_000_000,
      });
      await Promise.all([one.queueIndex.close(), two.queueIndex.close()]);
    });
  });
});
