import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '../../src/kyc/contract/live-events.ts';
import { createMemoryIntake } from '../../src/server/live/delivery-intake.ts';
import { deliveryProcessor } from '../../src/server/live/delivery-processing.ts';
import type { StatusChecked } from '../../src/server/lookup/queue-lookup.ts';
import { createMetrics } from '../../src/server/ops/metrics.ts';
import type { Logger } from '../../src/server/log/log.ts';

/**
 * A webhook delivery that arrives as the service's 429 wait begins (up to 300 s): its check sends nothing
 * while the wait holds, and the delivery is neither dropped nor its tries spent; once the wait ends, its
 * check is sent and the change published.
 */
afterEach(() => vi.useRealTimers());

const quiet = { warn: () => {}, info: () => {}, error: () => {}, debug: () => {} } as unknown as Logger;
const live: LiveEvent = {
  environment: 'production',
  event: 'review.approved',
  refId: 'ref-1',
  recordId: 'rec-1',
  status: 'approved',
  isArchived: false,
  at: '2026-11-29T10:00:00.000Z',
};

describe("a delivery's check during the service's 429 wait", () => {
  it('a 300 s wait is sat out, nothing is sent meanwhile, and the delivery is published after it, not dropped', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-29T10:00:00.000Z') });
    const waitEnds = Date.now() + 300_000;
    const sent: number[] = [];
    const check = async (): Promise<StatusChecked> => {
      if (Date.now() < waitEnds) return { ok: false, code: 'not_asked', until: waitEnds };
      sent.push(Date.now());
      return { ok: true, record: { status: 'approved', refId: 'ref-1', recordId: 'rec-1' } };
    };
    const published: unknown[] = [];
    const hub = { publish: async (event: unknown) => void published.push(event) };
    const process = deliveryProcessor({
      hub: hub as never,
      metrics: createMetrics(),
      logger: quiet,
      checkStatus: () => check,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
    const dropped: string[] = [];
    const intake = createMemoryIntake();
    intake.start(process, (reason, detail) => dropped.push(`${reason}: ${detail}`));
    await intake.add({
      environment: 'production',
      delivery: { event: 'review.approved', refId: 'ref-1', recordId: 'rec-1', guid: 'g' },
      live,
    } as never);
    for (let second = 0; second < 320 && published.length === 0; second++) await vi.advanceTimersByTimeAsync(1000);
    expect(dropped).toEqual([]);
    expect(published).toHaveLength(1);
    // Asked once, after the wait: never during it.
    expect(sent).toHaveLength(1);
    expect(sent[0]).toBeGreaterThanOrEqual(waitEnds);
    await intake.close();
  });
});
