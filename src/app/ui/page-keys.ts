import { useEffect, useRef } from 'react';

/** Focus is where a key types: a text field, a list box, editable content. */
function isTypingTarget(element: Element | null): boolean {
  if (!(element instanceof HTMLElement)) return false;
  if (element.isContentEditable) return true;
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  return element instanceof HTMLInputElement && !['radio', 'checkbox', 'button', 'submit', 'reset'].includes(element.type);
}

/** Where a page is drawn, as its location says it (the app's `useLocation()`): its path and query. */
export interface DrawnAt {
  pathname: string;
  search: string;
}

const addressOf = ({ pathname, search }: DrawnAt) => pathname + search;
const address = () => addressOf(window.location);

/**
 * Keys pressed after the address moved on (`j` opened the next candidate) and before its page was drawn
 * (its render is a transition), in the order pressed, each with the address it was pressed for. The page
 * still shown then is not the one the reviewer is on: its `j` opened the same neighbour again, and the
 * key was lost. They are the drawn page's once it is (replayHeld).
 */
let held: Array<{ key: string; at: string }> = [];

type Actions = Partial<Record<string, () => void>>;

/**
 * The held keys pressed for `drawnAt`, now that its page is drawn, in order. A key whose action moved the
 * address on again leaves the rest for the page after; a key pressed for a page since left is dropped.
 */
function replayHeld(actions: { current: Actions }, drawnAt: string): void {
  while (held.length > 0 && address() === drawnAt) {
    const [first, ...rest] = held;
    held = rest;
    if (first!.at === drawnAt) actions.current[first!.key]?.();
  }
  const now = address();
  if (now !== drawnAt) held = held.map((key) => ({ ...key, at: now }));
}

/**
 * A page's one-letter shortcuts (`j`, `k`, `u`…): each key calls its action, unless focus is in a field,
 * a modifier is held, a dialog (the picture viewer, the shortcuts list) is open or the key was handled
 * already. The latest actions are called, not those of the first render. `drawnAt` is the location the
 * page is drawn for: a key pressed once the address has moved on is held for the page drawn next.
 */
export function usePageKeys(actions: Actions, drawnAt: DrawnAt): void {
  const latest = useRef(actions);
  latest.current = actions;
  const drawn = addressOf(drawnAt);
  // The address of the page on screen: the one committed, not one a transition is still rendering.
  const shown = useRef(drawn);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return;
      const action = latest.current[event.key];
      if (!action || isTypingTarget(document.activeElement) || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      if (address() === shown.current) action();
      else held.push({ key: event.key, at: address() });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  // Drawn (or drawn anew) where the address is: the keys pressed on the way are this page's now.
  useEffect(() => {
    shown.current = drawn;
    replayHeld(latest, drawn);
  }, [drawn]);
}
