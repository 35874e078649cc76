import { useEffect, useRef } from 'react';
import { addDialogNoticePlace } from './dialog-notice-places.ts';

/**
 * A region added with its words is not always read out, nor one whose words come in the same moment as
 * it: the place takes words only once it has been on the page, empty, for this long.
 */
const EMPTY_FIRST_MS = 150;

/**
 * The place for the page's notices in a modal dialog (dialog-notice-places.ts says why): a polite live
 * region, empty from when the dialog opens; a notice puts only its words in it, so they always come into a
 * region already there. Without the status role: a page's own status messages stay the only ones.
 */
export function DialogNotices({ className }: { className?: string }) {
  const place = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let remove: (() => void) | undefined;
    const ready = setTimeout(() => {
      remove = addDialogNoticePlace(place.current!);
    }, EMPTY_FIRST_MS);
    return () => {
      clearTimeout(ready);
      remove?.();
    };
  }, []);
  return <div ref={place} aria-live="polite" data-testid="dialog-notices" className={className} />;
}
