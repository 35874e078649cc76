import { type RefObject, useEffect } from 'react';

/**
 * The keys that go to the search box, as the keyboard help lists them: with the platform's own modifier,
 * ⌘ on Apple's and Ctrl elsewhere (both work everywhere, but a Linux or Windows keyboard has no ⌘ key).
 */
export function searchShortcuts(platform: string = browserPlatform()): readonly string[] {
  return ['/', /^(mac|iphone|ipad|ipod)/i.test(platform) ? '⌘K' : 'Ctrl+K'];
}

/** The browser's platform: User-Agent Client Hints where the browser has them (Chromium), else `navigator.platform`. */
function browserPlatform(): string {
  const hints = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData;
  return hints?.platform || navigator.platform || '';
}

/** Focus is where a key types: a text field, a list box, editable content. */
export function isTypingTarget(element: Element | null): boolean {
  if (!(element instanceof HTMLElement)) return false;
  if (element.isContentEditable) return true;
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  return element instanceof HTMLInputElement && !['radio', 'checkbox', 'button', 'submit', 'reset'].includes(element.type);
}

/** Asks the header to show its search panel (folded away on a phone) before this returns, so that the box can take focus. */
export const OPEN_SEARCH_EVENT = 'candidate-lookup:open-search';

/**
 * `/` (when not typing elsewhere) and Ctrl+K or Cmd+K (always) move focus to the search box, from
 * anywhere on the page; never while a dialog (the picture viewer) is open.
 */
export function useSearchShortcut(input: RefObject<HTMLInputElement | null>): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.isComposing) return;
      const slash = event.key === '/' && !event.ctrlKey && !event.metaKey;
      const commandK = event.key.toLowerCase() === 'k' && (event.ctrlKey || event.metaKey) && !event.shiftKey;
      if (!slash && !commandK) return;
      if (slash && isTypingTarget(document.activeElement)) return;
      if (document.querySelector('dialog[open]')) return;
      const box = input.current;
      if (!box) return;
      event.preventDefault();
      // The header shows a folded search panel at once (flushSync), so the box can take focus now.
      if (box.checkVisibility && !box.checkVisibility()) window.dispatchEvent(new Event(OPEN_SEARCH_EVENT));
      if (document.activeElement === box) box.select();
      else box.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [input]);
}
