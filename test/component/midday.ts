import { vi } from 'vitest';

/**
 * Sets the clock (Date only; it still moves on with real time) to noon of a fixed day in the process's
 * zone, for tests that write "today" or "3 minutes ago" of moments a few minutes before now. On the real
 * clock a run just after midnight reads those moments as "yesterday", as the page should (one rule of
 * every page, time.ts's formatRelative), and such a test failed in CI at 00:01. Undo with
 * vi.useRealTimers().
 */
export function atMidday(): void {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(new Date(2026, 5, 15, 12, 0, 0));
}
