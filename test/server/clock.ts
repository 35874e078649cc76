import { vi } from 'vitest';

/**
 * Runs `step` with the clock `ms` ahead, rather than waiting for the time to pass: what `clocks` names
 * (Date, which the audit writer and an OpenID provider read; performance, which the readiness cache
 * reads) jumps ahead and stands still until `step` settles; timers, sockets and files run as usual.
 */
export async function withClockAhead<T>(ms: number, step: () => Promise<T>, clocks: Array<'Date' | 'performance'> = ['Date']): Promise<T> {
  const startPerformance = performance.now();
  vi.useFakeTimers({ toFake: clocks, now: Date.now() + ms });
  // A faked performance.now() counts from 0: it is moved to where the real one stood, plus `ms`.
  if (clocks.includes('performance')) vi.advanceTimersByTime(startPerformance + ms);
  try {
    return await step();
  } finally {
    vi.useRealTimers();
  }
}

/**
 * A clock for code that takes one (a batch's pauses): a sleep moves it ahead at once instead of waiting.
 * `elapsed()` is the time that would have passed.
 */
export function virtualClock(start = Date.now()) {
  let now = start;
  return {
    now: () => now,
    sleep: async (ms: number) => {
      now += ms;
    },
    elapsed: () => now - start,
  };
}
