import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { useFlash } from '../../src/app/ui/use-flash.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

it("goes back to rest after its time, and a second show starts its own wait (the first one's timer does not cut it short)", () => {
  const { result } = renderHook(() => useFlash<'idle' | 'copied'>('idle', 2000));
  act(() => result.current[1]('copied'));
  act(() => vi.advanceTimersByTime(1500));
  act(() => result.current[1]('copied'));
  act(() => vi.advanceTimersByTime(1000));
  // 2.5 s after the first copy, 1 s after the second: still said.
  expect(result.current[0]).toBe('copied');
  act(() => vi.advanceTimersByTime(1000));
  expect(result.current[0]).toBe('idle');
});

it('keeps a state shown with stays until the next show, and rests after a show that fades', () => {
  const { result } = renderHook(() => useFlash<{ kind: string }>({ kind: 'idle' }, 3000));
  act(() => result.current[1]({ kind: 'failed' }, { stays: true }));
  act(() => vi.advanceTimersByTime(60_000));
  expect(result.current[0]).toEqual({ kind: 'failed' });
  act(() => result.current[1]({ kind: 'done' }));
  act(() => vi.advanceTimersByTime(3000));
  expect(result.current[0]).toEqual({ kind: 'idle' });
});

it('leaves no timer behind when the component goes', () => {
  const { result, unmount } = renderHook(() => useFlash(false, 3000));
  act(() => result.current[1](true));
  expect(vi.getTimerCount()).toBe(1);
  unmount();
  expect(vi.getTimerCount()).toBe(0);
});
