import { act, renderHook } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { noteStep, STEP_SETTLE_MS, useStepSettled } from '../../src/app/candidate/step-settle.ts';

afterEach(() => vi.useRealTimers());

describe('a candidate page reached by j or k', () => {
  it('waits STEP_SETTLE_MS from when it is shown, also when drawing it took longer than that after the step', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
    noteStep();
    // A busy machine: the page the step leads to is drawn 400 ms after the key.
    vi.advanceTimersByTime(STEP_SETTLE_MS + 100);
    const page = renderHook(() => useStepSettled());
    // Before: the wait had ended before the page showed, and the candidate passed over was looked up at once.
    expect(page.result.current).toBe(false);
    act(() => vi.advanceTimersByTime(STEP_SETTLE_MS - 1));
    expect(page.result.current).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(page.result.current).toBe(true);
    page.unmount();
  });

  it('a page opened otherwise (no step since the last page shown) looks up at once', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
    noteStep();
    const stepped = renderHook(() => useStepSettled());
    expect(stepped.result.current).toBe(false);
    stepped.unmount();
    const opened = renderHook(() => useStepSettled());
    expect(opened.result.current).toBe(true);
    opened.unmount();
  });

  it('a step taken while a page is being shown (a key held for it) is not cleared by that page', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
    noteStep();
    // The second page's own keys take a held j in its first effects, before its wait starts.
    const second = renderHook(() => {
      useEffect(() => noteStep(), []);
      return useStepSettled();
    });
    second.unmount();
    const third = renderHook(() => useStepSettled());
    expect(third.result.current).toBe(false);
    third.unmount();
  });
});
