import { useSyncExternalStore } from 'react';

/** Tailwind's `sm` breakpoint (40rem, 640 px): below it the page is laid out for a phone. */
const PHONE_WIDTH = '(width < 40rem)';

const query = () => (typeof window.matchMedia === 'function' ? window.matchMedia(PHONE_WIDTH) : undefined);

/**
 * Whether the window is narrower than `sm`, and again each time that changes (a phone turned, a window
 * resized). For a page that puts its parts in another DOM order on a phone, so that reading and focus
 * follow what is seen (CSS `order` would make the focus jump). A browser without matchMedia is wide.
 */
export function usePhoneWidth(): boolean {
  return useSyncExternalStore(
    (listener) => {
      const list = query();
      list?.addEventListener('change', listener);
      return () => list?.removeEventListener('change', listener);
    },
    () => query()?.matches ?? false,
  );
}
