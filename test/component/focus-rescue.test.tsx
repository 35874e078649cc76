import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FOCUS_WATCH_MS, useFocusRescue } from '../../src/app/layout/focus-rescue.ts';
import { BrowserHistory, navigate } from '../../src/app/navigation.tsx';

/**
 * Focus lost to a navigation goes to the new page's heading (layout/focus-rescue.ts), also when the page's
 * answer is slow: the heading may come only after the server's whole wait for the service (15 s).
 */
function Harness({ show }: { show: (set: (heading: string | undefined) => void) => void }) {
  const [heading, setHeading] = useState<string>();
  show(setHeading);
  useFocusRescue();
  return <main>{heading ? <h1>{heading}</h1> : <p>Looking the candidate up…</p>}</main>;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('focus after a navigation', () => {
  it('goes to the heading of a page whose answer came after 12 s, once it is there; not before, and not at the first load', async () => {
    vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame', 'performance', 'Date'] });
    let setHeading!: (heading: string | undefined) => void;
    render(
      <BrowserHistory>
        <Harness show={(set) => (setHeading = set)} />
      </BrowserHistory>,
    );
    act(() => setHeading('Home'));
    await act(async () => vi.advanceTimersByTimeAsync(100));
    expect(document.activeElement).toBe(document.body);
    act(() => {
      setHeading(undefined);
      navigate('/candidates/refId/slow');
    });
    await act(async () => vi.advanceTimersByTimeAsync(12_000));
    expect(document.activeElement).toBe(document.body);
    act(() => setHeading('Amélie Dubois-Léger'));
    await act(async () => vi.advanceTimersByTimeAsync(100));
    expect(screen.getByRole('heading', { level: 1 })).toHaveFocus();
    expect(FOCUS_WATCH_MS).toBeGreaterThan(15_000);
  });
});
