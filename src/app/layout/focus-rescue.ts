import { useEffect, useRef } from 'react';
import { useLocation } from '../navigation.tsx';

/** How long after a navigation the page may still be coming in (its answer, a lazy module): 5 s. */
const WATCH_MS = 5000;

/**
 * Focus lost to a navigation goes to the new page's heading. The element that had focus is often gone
 * with the page it was on (a queue row's link, a sample card, the header's search box, which is made anew
 * for each page), and the browser then puts focus on the document itself: a screen reader says nothing of
 * the new page, and Tab starts again from the skip link. So, for a few seconds after each navigation
 * (until the page's heading has come, its answer too), focus found on nothing moves to `main`'s `h1`; focus
 * that is somewhere (the queue's row after Back to queue, the search box after `/`) is left where it is,
 * and a key or a click of the reader's ends the watch. Not at the first page load: the browser's own
 * start is kept.
 */
export function useFocusRescue(): void {
  const location = useLocation();
  const initial = useRef(location);
  useEffect(() => {
    if (location === initial.current) return;
    const until = performance.now() + WATCH_MS;
    let frame = 0;
    const stop = () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('pointerdown', stop, true);
      window.removeEventListener('keydown', stop, true);
    };
    const watch = () => {
      if (performance.now() > until) return stop();
      const active = document.activeElement;
      if (!active || active === document.body) {
        const heading = document.querySelector<HTMLElement>('main h1');
        if (heading) {
          heading.tabIndex = -1;
          heading.focus({ preventScroll: true });
        }
      }
      frame = requestAnimationFrame(watch);
    };
    frame = requestAnimationFrame(watch);
    window.addEventListener('pointerdown', stop, true);
    window.addEventListener('keydown', stop, true);
    return stop;
  }, [location]);
}
