import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/server/config/config.ts';
import { resolveUpstream } from '../../src/server/resolve-upstream.ts';
import { configErrorOf } from './config-error.ts';

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
