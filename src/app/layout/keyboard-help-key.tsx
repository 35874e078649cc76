import { Suspense, useEffect, useState } from 'react';
import { isTypingTarget } from '../lookup/use-search-shortcut.ts';
import { lazyNamed } from '../ui/lazy-named.ts';

// The dialog and its lists (the viewer's keys among them) are fetched the first time they are asked for.
const KeyboardHelpDialog = lazyNamed(() => import('./keyboard-help.tsx'), 'KeyboardHelpDialog');

/** `?` (when not typing) opens the list of the shortcuts of the page it is on. */
export function KeyboardHelp({ signedIn }: { signedIn: boolean }) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '?' || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTypingTarget(document.activeElement)) return;
      event.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <KeyboardHelpDialog signedIn={signedIn} onClose={() => setOpen(false)} />
    </Suspense>
  );
}
