import { useLayoutEffect, useRef } from 'react';
import { addDialogNoticePlace } from './dialog-notice-places.ts';

/** The place for the page's notices in a modal dialog, open while it is rendered (dialog-notice-places.ts says why). */
export function DialogNotices({ className }: { className?: string }) {
  const place = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => addDialogNoticePlace(place.current!), []);
  return <div ref={place} className={className} />;
}
