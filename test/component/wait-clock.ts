import { act } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * A fake clock for the countdowns of the service's waits (retry-wait.tsx): dates and the pages' one-second
 * tick are faked from START, the rest (promises, React's scheduling) runs as ever. Restored after each test
 * by setup.ts (not here: see its note on hooks).
 */
export const START = new Date('2026-11-24T14:02:01.000Z');

export const fakeClock = () => vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now: START });

/** `n` seconds pass on the fake clock. */
export const seconds = (n: number) =>
  act(() => {
    vi.advanceTimersByTime(n * 1000);
  });

/** The page's effects run (its one-second tick starts in one): a busy machine may not have run them when the text shows. */
export const effectsRun = () => act(async () => {});
