import { describe, expect, it } from 'vitest';
import type { ArchivingGuard } from '../../src/server/archiving/archiving-guard.ts';
import { liveHeldOf } from '../../src/server/live/live-held.ts';
import { SILENT_LOGGER } from '../../src/server/log/log.ts';
import type { ServedEnvironment } from '../../src/server/lookup/served-environment.ts';

/** An environment with a webhook secret and its key's guard, whose finding reads are counted. */
function environment(options: { hasStatusKey?: boolean; webhookSecret?: string } = {}) {
  const state = { reads: 0, safe: false };
  const archiving = {
    finding: async () => {
      state.reads += 1;
      return { found: false };
    },
    shownSafe: () => state.safe,
    checkFailed: () => undefined,
  } as unknown as ArchivingGuard;
  const served = {
    environment: { webhookSecret: 'webhookSecret' in options ? options.webhookSecret : 's3cret' },
    deps: { hasStatusKey: options.hasStatusKey ?? false, archiving },
  } as unknown as ServedEnvironment;
  return { served, state };
}

describe('liveHeldOf: /api/meta read often, the finding read at most once a second', () => {
  it('a reason while no lookup has shown the key safe; the finding read once for many metas within the second', async () => {
    const { served, state } = environment();
    let now = 1_000;
    const clock = () => now;
    for (let i = 0; i < 5; i += 1) expect(await liveHeldOf(served, SILENT_LOGGER, clock)).toMatch(/keeps identity data/);
    expect(state.reads).toBe(1);
    now += 1_000;
    await liveHeldOf(served, SILENT_LOGGER, clock);
    expect(state.reads).toBe(2);
    // A lookup here shows the key safe: seen at once, not a second later.
    state.safe = true;
    expect(await liveHeldOf(served, SILENT_LOGGER, clock)).toBeUndefined();
  });

  it('nothing held, nothing read, without a webhook secret or with a status-level key', async () => {
    for (const options of [{ webhookSecret: undefined }, { hasStatusKey: true }]) {
      const { served, state } = environment(options);
      expect(await liveHeldOf(served, SILENT_LOGGER)).toBeUndefined();
      expect(state.reads).toBe(0);
    }
  });
});
