import { afterEach, describe, expect, it, vi } from 'vitest';
import { runBatch, type OneResult } from '../../src/server/lookup/batch-runner.ts';
import { createRateLimiter } from '../../src/server/ops/rate-limit.ts';
import { createMemoryStore } from '../../src/server/state/store.ts';

function recorder() {
  const results = new Map<number, OneResult<string>>();
  const waits: number[] = [];
  return { results, waits, onResult: (i: number, r: OneResult<string>) => results.set(i, r), onWait: (s: number) => waits.push(s) };
}

describe('runBatch', () => {
  it('runs every id once, never more than the concurrency at a time', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const rec = recorder();
    await runBatch({
      count: 40,
      concurrency: 6,
      signal: new AbortController().signal,
      ...rec,
      lookup: async (index) => {
        started.push(index);
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 1 + (index % 3)));
        running--;
        return { ok: true, row: `row ${index}` };
      },
    });
    expect(most).toBe(6);
    expect(started).toEqual([...Array(40).keys()]);
    expect([...rec.results.keys()].sort((a, b) => a - b)).toEqual([...Array(40).keys()]);
    expect(rec.results.get(7)).toEqual({ ok: true, row: 'row 7' });
  });

  it('pauses every worker for the Retry-After of a 429, then tries the id again', async () => {
    let clock = 0;
    const slept: number[] = [];
    const tries = new Map<number, number>();
    const rec = recorder();
    await runBatch({
      count: 5,
      concurrency: 2,
      signal: new AbortController().signal,
      ...rec,
      now: () => clock,
      sleep: async (ms) => {
        slept.push(ms);
        clock += ms;
      },
      lookup: async (index) => {
        tries.set(index, (tries.get(index) ?? 0) + 1);
        if (index === 1 && tries.get(1)! < 3)
          return { ok: false, code: 'upstream_rate_limited', message: 'slow down', retryAfterSeconds: 7 };
        return { ok: true, row: `row ${index}` };
      },
    });
    expect(tries.get(1)).toBe(3);
    expect(rec.waits).toEqual([7, 7]);
    expect(slept.every((ms) => ms <= 7000)).toBe(true);
    expect(slept.length).toBeGreaterThanOrEqual(2);
    expect([...rec.results.values()].every((r) => r.ok)).toBe(true);
  });

  it('backs off exponentially without Retry-After, cuts long waits, and gives up once the service limited it for maxLimitedSeconds', async () => {
    let clock = 0;
    const rec = recorder();
    const stops: number[] = [];
    await runBatch({
      count: 3,
      concurrency: 1,
      maxLimitedSeconds: 10,
      maxWaitSeconds: 3,
      signal: new AbortController().signal,
      ...rec,
      onStop: (_result, inARow) => stops.push(inARow),
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
      lookup: async () => ({ ok: false, code: 'upstream_rate_limited', message: 'slow down' }),
    });
    // 429s at 0, 1, 3, 6 and 9 s: the next try, at 12 s, would be past the 10 s.
    expect(rec.waits).toEqual([1, 2, 3, 3]);
    expect(clock).toBe(9000);
    expect([...rec.results.entries()]).toEqual([[0, expect.objectContaining({ ok: false, code: 'upstream_rate_limited' })]]);
    expect(stops).toEqual([5]);
  });

  it('reports other failures at once, as the row of that id', async () => {
    const rec = recorder();
    await runBatch({
      count: 2,
      concurrency: 2,
      signal: new AbortController().signal,
      ...rec,
      lookup: async (index) => (index === 0 ? { ok: false, code: 'not_found', message: 'No candidate' } : { ok: true, row: 'x' }),
    });
    expect(rec.results.get(0)).toEqual({ ok: false, code: 'not_found', message: 'No candidate' });
    expect(rec.waits).toEqual([]);
  });

  it('stops starting lookups after 5 results in a row found the service unreachable (a timeout counts), not after 5 apart', async () => {
    const unreachable = { ok: false as const, code: 'upstream_unreachable' as const, message: 'could not be reached' };
    const timeout = { ok: false as const, code: 'upstream_timeout' as const, message: 'did not answer' };
    // Index 3 answers: the first streak (0-2) is broken; 4-8 are five in a row (8 a timeout).
    const answer = (index: number): OneResult<string> =>
      index === 3 ? { ok: true, row: 'row 3' } : index === 8 ? timeout : index < 20 ? unreachable : { ok: true, row: 'late' };
    const rec = recorder();
    const stops: Array<[OneResult<string>, number]> = [];
    const started: number[] = [];
    await runBatch({
      count: 40,
      concurrency: 1,
      signal: new AbortController().signal,
      ...rec,
      onStop: (result, inARow) => stops.push([result, inARow]),
      lookup: async (index) => {
        started.push(index);
        return answer(index);
      },
    });
    expect(started).toEqual([...Array(9).keys()]);
    expect(stops).toEqual([[timeout, 5]]);
    expect([...rec.results.keys()]).toEqual([...Array(9).keys()]);
  });

  it("waits for the environment's wait before any row, says it once, and keeps the answer alive every 15 s of it", async () => {
    let clock = 0;
    const servicePausedUntil = 40_000;
    const asked: Array<[number, number]> = [];
    let alive = 0;
    const rec = recorder();
    await runBatch({
      count: 6,
      concurrency: 3,
      signal: new AbortController().signal,
      ...rec,
      servicePausedUntil: () => servicePausedUntil,
      onStillWaiting: () => alive++,
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
      lookup: async (index) => {
        asked.push([index, clock]);
        return { ok: true, row: `row ${index}` };
      },
    });
    expect(rec.waits).toEqual([40]);
    expect(asked.every(([, at]) => at >= 40_000)).toBe(true);
    expect(asked).toHaveLength(6);
    // At 15 s and 30 s of the 40 s, once each, however many workers sleep through it.
    expect(alive).toBe(2);
  });

  it("a 429 that says how long is waited for through the environment's wait, not a second pause of the batch's own", async () => {
    let clock = 0;
    let servicePausedUntil = 0;
    const tries = new Map<number, number>();
    const rec = recorder();
    await runBatch({
      count: 3,
      concurrency: 1,
      signal: new AbortController().signal,
      ...rec,
      servicePausedUntil: () => servicePausedUntil,
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
      lookup: async (index) => {
        tries.set(index, (tries.get(index) ?? 0) + 1);
        if (index !== 1 || tries.get(1) !== 1) return { ok: true, row: `row ${index}` };
        // As the upstream client does: it remembers the wait before the row's result comes back.
        servicePausedUntil = clock + 30_000;
        return { ok: false, code: 'upstream_rate_limited', message: 'wait', retryAfterSeconds: 30 };
      },
    });
    expect(rec.waits).toEqual([30]);
    expect(clock).toBe(30_000);
    expect([...rec.results.values()].every((r) => r.ok)).toBe(true);
  });

  it('starts nothing new once aborted, and wakes from a pause', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const rec = recorder();
    const run = runBatch({
      count: 100,
      concurrency: 3,
      signal: controller.signal,
      ...rec,
      lookup: async (index) => {
        started.push(index);
        if (index === 4) return { ok: false, code: 'upstream_rate_limited', message: 'wait', retryAfterSeconds: 60 };
        return { ok: true, row: 'x' };
      },
    });
    // Once the workers are in the 60 s pause (it is announced as it begins), the browser goes away.
    await vi.waitFor(() => expect(rec.waits).toEqual([60]), { timeout: 10_000 });
    controller.abort();
    await run; // returns although a 60 s pause was under way: the test's timeout is far shorter
    const count = started.length;
    expect(count).toBeLessThan(100);
    // Nothing left behind that starts a lookup later: not even after the tasks queued by then.
    await new Promise((resolve) => setImmediate(resolve));
    expect(started.length).toBe(count);
  });
});

describe('the batch budget', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reserves one per id at once, or none, and is full again when its minute ends', async () => {
    // The window ends by the clock rate-limiter-flexible reads (Date): only Date is moved.
    vi.useFakeTimers({ toFake: ['Date'] });
    const limiter = createRateLimiter(createMemoryStore(), 'batch-ids', 600);
    expect((await limiter.take('u', 500)).ok).toBe(true);
    // 100 left: a second batch of 200 waits for the minute to end, and takes nothing.
    const refused = await limiter.take('u', 200);
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.retryAfterSeconds).toBe(60);
    expect((await limiter.take('u', 100)).ok).toBe(true);
    expect((await limiter.take('u', 1)).ok).toBe(false);
    vi.setSystemTime(Date.now() + 60_001);
    expect((await limiter.take('u', 600)).ok).toBe(true);
    expect(limiter.capacity).toBe(600);
    expect(createRateLimiter(createMemoryStore(), 'batch-ids', 0).capacity).toBe(Number.POSITIVE_INFINITY);
  });
});
