import fc from 'fast-check';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { z } from 'zod';
import type { ResolvedLimits } from '../../src/server/config/config.ts';
import { type Limits, limitsSchema } from '../../src/server/config/file-schema.ts';
import type { ApiSettings } from '../../src/server/config/settings.ts';
import type { LookupDeps } from '../../src/server/lookup/lookup-steps.ts';
import { wireEnvironments } from '../../src/server/composition/api-handler.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp, testEnvironment } from './http.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { type SettingsOverrides, type TestLimits, testSettings } from './settings.ts';

/**
 * Issue 35: one settings object, one set of defaults. A setting is written once (a schema entry, with its
 * default) and read where it is used: the layers between the configuration and a lookup step pass the
 * settings on whole, so none of them changes when a setting is added.
 */

// What the admission step of every lookup was given: the real step runs, this only looks at its deps.
const admitted = vi.hoisted(() => [] as Array<Pick<LookupDeps, 'settings'>>);
vi.mock('../../src/server/lookup/lookup-steps.ts', async (importOriginal) => {
  const steps = await importOriginal<typeof import('../../src/server/lookup/lookup-steps.ts')>();
  return {
    ...steps,
    admit: (...args: Parameters<typeof steps.admit>) => {
      admitted.push(args[0]);
      return steps.admit(...args);
    },
  };
});

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  admitted.length = 0;
});

describe('the settings reach the lookup steps whole', () => {
  it('a made-up setting, added in one place (the test helper’s overrides), reaches the admission step of a real lookup', async () => {
    const upstream = await startFakeUpstream();
    // No type has this setting: nothing between the helper and the step may pick fields, or it is lost.
    const madeUp = { madeUpSetting: 'seen by the step' } as unknown as SettingsOverrides;
    const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' }, settings: madeUp });
    cleanups.push(upstream.close, app.close);

    expect((await app.get('/api/candidates/refId/abc')).status).toBe(200);
    expect(admitted).toHaveLength(1);
    expect(admitted[0]!.settings).toMatchObject({ madeUpSetting: 'seen by the step' });
    // And every setting the helper resolved, unchanged.
    expect(admitted[0]!.settings).toEqual({ ...testSettings({ refuseProxied: true }), madeUpSetting: 'seen by the step' });
  });

  it('every limit the configuration’s schema resolves reaches each environment’s lookup deps unchanged (property)', () => {
    // The schema's own bounds: a limit added to limitsSchema is generated here too, with no change to this test.
    const { properties } = z.toJSONSchema(limitsSchema, { io: 'input' }) as {
      properties: Record<string, { minimum: number; maximum: number }>;
    };
    const anyLimits = fc.record(
      Object.fromEntries(
        Object.entries(properties).map(([name, { minimum, maximum }]) => [name, fc.integer({ min: minimum, max: maximum })]),
      ),
    ) as fc.Arbitrary<Required<TestLimits>>;
    const environments = [
      testEnvironment({ baseUrl: 'http://127.0.0.1:9', clientId: 'c', apiKey: 'k' }),
      testEnvironment({ baseUrl: 'http://127.0.0.1:9', clientId: 'c', apiKey: 'k' }, { name: 'staging' }),
    ];
    fc.assert(
      fc.property(anyLimits, (limits) => {
        fc.pre(limits.requestTimeoutMs >= limits.headersTimeoutMs && limits.upstreamAnswerTimeoutMs >= limits.upstreamTimeoutMs);
        const settings = testSettings({ limits });
        expect(settings.limits).toEqual(limits);
        const { served } = wireEnvironments(settings, { environments, audit: memoryAuditLog(), queueCrawl: { start: false } });
        for (const { deps } of served) expect(deps.settings).toBe(settings);
      }),
      { numRuns: 60 },
    );
  });

  it('the steps’ settings are typed by the schema: a limit added to limitsSchema is in LookupDeps with no other type to change', () => {
    expectTypeOf<LookupDeps['settings']>().toEqualTypeOf<ApiSettings>();
    expectTypeOf<ApiSettings['limits']>().toEqualTypeOf<ResolvedLimits>();
    expectTypeOf<ResolvedLimits>().toExtend<Limits>();
    expectTypeOf<Limits>().toEqualTypeOf<z.output<typeof limitsSchema>>();
    // Every default resolved: a step never has to supply one.
    expectTypeOf<ResolvedLimits['upstreamTimeoutMs']>().toEqualTypeOf<number>();
    expectTypeOf<ResolvedLimits['queueIndexLookupsPerSecond']>().toEqualTypeOf<number>();
  });
});

describe('one set of defaults', () => {
  it('the tests’ settings and production’s come from the same schema: what a test does not set is the configuration’s default', () => {
    const settings = testSettings();
    const defaults = limitsSchema.parse({});
    // The test baseline's own limits (TEST_LIMITS) apart, every limit is the schema's default.
    for (const name of ['maxResponseBytes', 'upstreamInFlightPerUser', 'previewLookupsAtOnce', 'webhookBodyTimeoutMs'] as const) {
      expect(settings.limits[name]).toBe(defaults[name]);
    }
    expect(settings.partsMemoryBytes).toBe(256 * 1024 * 1024);
    expect(settings.browserStallMs).toBe(settings.limits.upstreamTimeoutMs);
  });

  it('a limit the schema refuses is refused by the test helper too', () => {
    expect(() => testSettings({ limits: { upstreamTimeoutMs: 5 } })).toThrow(/limits\.upstreamTimeoutMs: must be at least 100/);
  });
});
