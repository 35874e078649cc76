import { useEffect, useRef } from 'react';
import { useLocation } from '../navigation.tsx';
import { focusPageHeading, takeHeadingAsked } from '../ui/focus-heading.ts';

/**
 * How long after a navigation the page may still be coming in: a lookup's answer may take the server's
 * whole wait for the service (`limits.upstreamTimeoutMs`, 15 s by default) and then some. A key or a click
 * of the reader's ends the watch sooner, so a long one takes nothing from anyone.
 */
export const FOCUS_WATCH_MS = 30_000;

/**
 * Focus lost to a navigation goes to the new page's heading. The element that had focus is often gone
 * with the page it was on (a queue row's link, a sample card, the header's search box, which is made anew
 * for each page), and the browser then puts focus on the document itself: a screen reader says nothing of
 * the new page, and Tab starts again from the skip link. So, for a while after each navigation
 * (FOCUS_WATCH_MS: until the page's heading has come, however slow its answer), focus found on nothing
 * moves to `main`'s `h1`; focus that is somewhere (the queue's row after Back to queue, the search box
 * after `/`) is left where it is, and a key or a click of the reader's ends the watch. Not at the first
 * page load: the browser's own start is kept. After a navigation that asked for its heading (a step of
 * the reviewer's loop: askForHeading), a key or a click ends it only once the heading has had focus.
 */
export function useFocusRescue(): void {
  const location = useLocation();
  const initial = useRef(location);
  useEffect(() => {
    if (location === initial.current) return;
    const step = takeHeadingAsked(location.pathname + location.search);
    const until = performance.now() + FOCUS_WATCH_MS;
    let frame = 0;
    let ending = false;
    const stop = () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('pointerdown', stop, true);
      window.removeEventListener('keydown', stop, true);
    };
    const endOnInput = () => {
      ending = true;
      window.addEventListener('pointerdown', stop, true);
      window.addEventListener('keydown', stop, true);
    };
    const watch = () => {
      if (performance.now() > until) return stop();
      const active = document.activeElement;
      if (!active || active === document.body) focusPageHeading();
      if (!ending && document.activeElement?.matches('main h1')) endOnInput();
      frame = requestAnimationFrame(watch);
    };
    frame = requestAnimationFrame(watch);
    if (!step) endOnInput();
    return stop;
  }, [location]);
}
