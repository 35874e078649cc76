import { useEffect, useRef } from 'react';

/** Focus is where a key types: a text field, a list box, editable content. */
function isTypingTarget(element: Element | null): boolean {
  if (!(element instanceof HTMLElement)) return false;
  if (element.isContentEditable) return true;
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  return element instanceof HTMLInputElement && !['radio', 'checkbox', 'button', 'submit', 'reset'].includes(element.type);
}

/**
 * A page's one-letter shortcuts (`j`, `k`, `u`…): each key calls its action, unless focus is in a field,
 * a modifier is held, a dialog (the picture viewer, the shortcuts list) is open or the key was handled
 * already. The latest actions are called, not those of the first render.
 */
export function usePageKeys(actions: Partial<Record<string, () => void>>): void {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return;
      const action = latest.current[event.key];
      if (!action || isTypingTarget(document.activeElement) || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
