/**
 * Moves the keyboard to the page's `h1` (made focusable for it, not put in the Tab order), without
 * scrolling: where focus goes when what held it is gone (a dismissed notice, a page left behind).
 */
export function focusPageHeading(): void {
  const heading = document.querySelector<HTMLElement>('main h1');
  if (!heading) return;
  heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
}
