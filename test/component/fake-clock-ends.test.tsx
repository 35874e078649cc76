import { describe, expect, it, vi } from 'vitest';
import { fakeClock, START } from './wait-clock.ts';

/**
 * A fake clock ends with the test that set it (setup.ts). Before, the second file of a worker to use
 * wait-clock.ts left its clock on for every file after it (a helper module's hook is registered once per
 * worker): their countdowns stood still, and waitFor, which polls with setInterval, saw only DOM changes.
 */
describe("a test's fake clock", () => {
  it('is set by fakeClock', () => {
    fakeClock();
    expect(vi.isFakeTimers()).toBe(true);
    expect(Date.now()).toBe(START.getTime());
  });

  it('is gone in the next test: real dates, and a one-second tick that ticks', async () => {
    expect(vi.isFakeTimers()).toBe(false);
    expect(Date.now()).toBeGreaterThan(START.getTime());
    const ticked = await new Promise<boolean>((resolve) => {
      const tick = setInterval(() => {
        clearInterval(tick);
        resolve(true);
      }, 1);
    });
    expect(ticked).toBe(true);
  });
});
