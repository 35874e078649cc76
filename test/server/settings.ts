import { parseConfig } from '../../src/server/config/config.ts';
import type { ConfigFile } from '../../src/server/config/file-schema.ts';
import { type ApiSettings, settingsOf } from '../../src/server/config/settings.ts';

/** CONFIG_FILE's limits as a test writes them: checked by the server's own schema, defaults and all. */
export type TestLimits = NonNullable<ConfigFile['limits']>;

/** What a test changes of the settings: limits as CONFIG_FILE says them, anything else as the handler takes it. */
export type SettingsOverrides = Partial<Omit<ApiSettings, 'limits'>> & { limits?: TestLimits };

/**
 * What every test starts from, as a configuration would say it: a service that answers within 2 s (a
 * fault is seen as what it is, quickly), no rate limit (a test of something else is never refused for
 * asking often; a test of the limit sets it), and a crawler that is not held back when a test starts it.
 */
const TEST_LIMITS: TestLimits = {
  upstreamTimeoutMs: 2000,
  lookupsPerMinute: 0,
  batchIdsPerMinute: 0,
  webhookDeliveriesPerMinute: 0,
  queueViewsPerMinute: 0,
  auditSearchesPerMinute: 0,
  queueIndexLookupsPerSecond: 1000,
};

/**
 * The API handler's settings for a test: a configuration (the test's limits over TEST_LIMITS) parsed by
 * the server's schema and turned into settings by production's own `settingsOf`, then the overrides
 * that are not configuration (browserStallMs, refuseProxied, …). Every default is the schema's: none is
 * written here, and a limit the schema refuses is refused here too.
 */
export function testSettings(overrides: SettingsOverrides = {}): ApiSettings {
  const { limits, ...rest } = overrides;
  const config = parseConfig({}, { limits: { ...TEST_LIMITS, ...limits } });
  return { ...settingsOf(config), ...rest };
}
