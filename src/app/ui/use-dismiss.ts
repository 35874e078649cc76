import { type RefObject, useEffect } from 'react';

/**
 * A panel that opens over the page from a button (not a modal dialog) closes as one does: on Escape,
 * focus back on its button (when focus was in the panel or on the button), and on a press outside both
 * or focus moving outside both (Tab past its end, `/` to the search box), focus left where it went.
 * Listens only while open. `inner`: a popover open inside this one, whose Escape it is (the innermost closes first).
 */
export function useDismiss(
  open: boolean,
  close: () => void,
  panel: RefObject<HTMLElement | null>,
  button: RefObject<HTMLElement | null>,
  inner?: () => boolean,
): void {
  useEffect(() => {
    if (!open) return;
    const inside = (node: EventTarget | null) =>
      node instanceof Node && (panel.current?.contains(node) === true || button.current?.contains(node) === true);
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || inner?.()) return;
      const hadFocus = inside(document.activeElement);
      close();
      if (hadFocus) button.current?.focus();
    };
    const onPress = (event: PointerEvent) => {
      if (!inside(event.target)) close();
    };
    const onFocus = (event: FocusEvent) => {
      if (!inside(event.target)) close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPress);
    document.addEventListener('focusin', onFocus);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPress);
      document.removeEventListener('focusin', onFocus);
    };
  }, [open, close, panel, button, inner]);
}
