import { useSyncExternalStore } from 'react';

/**
 * An open modal dialog puts the rest of the page behind its backdrop (the browser's top layer) and makes
 * it inert, so a notice above the page is neither seen nor read out while one is open: a support agent
 * typing a reply never learnt that the server was gone. Each modal dialog holds a place for the page's
 * notices (dialog-notices.tsx); a notice (session-retry.tsx) puts its words in the place of the dialog
 * opened last, while there is one. A place is added only once its empty live region has been on the page
 * for a moment, so words never come with the region. Apart from the place itself, which only the dialogs
 * (never the first load) need.
 */
const places: HTMLElement[] = [];
const listeners = new Set<() => void>();

function changed() {
  for (const listener of listeners) listener();
}

/** Adds an open dialog's place, ready for words; the returned function takes it away when the dialog goes. */
export function addDialogNoticePlace(place: HTMLElement): () => void {
  places.push(place);
  changed();
  return () => {
    places.splice(places.indexOf(place), 1);
    changed();
  };
}

/** The place for the page's notices of the modal dialog opened last; undefined while none is open. */
export function useDialogNotices(): HTMLElement | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    () => places.at(-1),
  );
}
