import { type MouseEvent, type RefObject, useEffect, useRef, useState } from 'react';

/**
 * How long a mouse click on a queue row waits before it opens the candidate: long enough for the second
 * press of a double-click to come first. Opening a row is a full lookup, written to the audit log and to
 * the candidate's Activity, so a reviewer double-clicking an id or a date to copy it must not open the
 * candidate by the way.
 */
export const ROW_OPEN_DELAY_MS = 300;

/** The row's other controls (Show all, Dashboard) keep their own click; the row's id link is the row's. */
const CONTROLS = 'a, button, summary, input, select, textarea, label';
const ROW_LINK = 'a[data-open]';

const modified = (event: MouseEvent) => event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;

/**
 * A plain click of the mouse's main button: the kind a second click may follow. Not Enter on a link (a
 * click of detail 0) and not a tap (a double tap zooms, it does not select), which open at once.
 */
export function mayBeDoubleClick(event: MouseEvent): boolean {
  const pointer = (event.nativeEvent as Partial<PointerEvent>).pointerType;
  return event.detail > 0 && pointer !== 'touch' && event.button === 0 && !modified(event);
}

/** Text is selected (a drag or a double-click did it): the click that ended it opens nothing. */
function selecting(): boolean {
  const selection = window.getSelection();
  return Boolean(selection && !selection.isCollapsed && selection.toString().trim() !== '');
}

/**
 * The queue's one open that waits (a mouse click on a row), and how to take that row's mark away. One per
 * queue (ApplicantsTable), shared by its rows: with a wait for each row, a click on one row and then on
 * another within the wait opened both, one page after the other, and each open is a full lookup written
 * to the audit log and to the candidate's Activity, where compliance leads read who looked at whom.
 * `opened`, the address a row opened once its wait ended, while its page is still being drawn and the
 * queue still shown: a row clicked then opens in place of that history entry, not after it.
 */
export type PendingOpen = RefObject<{ timer?: ReturnType<typeof setTimeout>; unmark: () => void; opened?: string } | undefined>;

/** A row of this queue opened, and the address is still its page (not Back to the queue meanwhile). */
const openedHere = (queue: PendingOpen): boolean => queue.current?.opened === window.location.href;

/**
 * The open waiting in the queue opens nothing, and its row is no longer marked. An open already made (its
 * page still being drawn) is remembered, so that the next row's open takes its place.
 */
function cancelPending(queue: PendingOpen): void {
  const waiting = queue.current;
  if (!waiting) return;
  queue.current = waiting.opened ? { unmark: () => {}, opened: waiting.opened } : undefined;
  clearTimeout(waiting.timer);
  waiting.unmark();
}

/**
 * A queue row's handlers: a click anywhere on it (its id link too) opens its candidate, unless it selected
 * text (a drag) or is the first of a double-click (which selects a word). Replaces a link stretched over
 * the row, under which no text could be selected and whose first click of a double-click already opened.
 * `chosen` is true from a mouse click until the row opens (and stays so while the candidate's page is
 * drawn): the wait is ROW_OPEN_DELAY_MS, and a click that shows nothing for that long reads as missed
 * (reviewers clicked again, and the second click, a double-click now, cancelled the open). A second
 * click or a selection clears it, as it cancels the open. Only the last row clicked opens: a click on
 * another row, or a row opened at once (Enter, a tap), cancels the open waiting in `queue` and its mark;
 * and a row clicked after another row opened but before its page was drawn opens in place of it (`open`'s
 * `replace`): one page, the last clicked.
 */
export function useRowOpen(open: (replace: boolean) => void, queue: PendingOpen) {
  const mine = useRef<ReturnType<typeof setTimeout>>(undefined);
  const [chosen, setChosen] = useState(false);
  // A row that leaves (a live update moved it, the page changed) opens nothing later.
  useEffect(
    () => () => {
      if (queue.current && queue.current.timer === mine.current) cancelPending(queue);
    },
    [queue],
  );
  const handlers = {
    onMouseDown: (event: MouseEvent) => {
      if (event.detail > 1) cancelPending(queue);
    },
    onClick: (event: MouseEvent) => {
      const control = (event.target as Element).closest(CONTROLS);
      if (control && !control.matches(ROW_LINK)) return;
      if (event.detail > 1 || selecting()) return cancelPending(queue);
      if (!mayBeDoubleClick(event)) {
        // A modified click opens in another tab or window (or nothing): the open waiting here stands.
        if (event.button !== 0 || modified(event)) return;
        // Enter or a tap opens this row now, so the row clicked before it must not open after it. On the
        // row's link, the link opened it; a tap elsewhere on the row opens it here.
        cancelPending(queue);
        if (!control && event.detail > 0) open(openedHere(queue));
        return;
      }
      cancelPending(queue);
      setChosen(true);
      const unmark = () => setChosen(false);
      const timer = setTimeout(() => {
        const opened = queue.current?.opened;
        if (selecting()) {
          queue.current = opened ? { unmark: () => {}, opened } : undefined;
          return setChosen(false);
        }
        // Marked until its page is drawn, and remembered until then: a click on another row meanwhile (the
        // page slow to draw) opened a second page after this one, where only the last row clicked opens.
        open(openedHere(queue));
        queue.current = { unmark, opened: window.location.href };
      }, ROW_OPEN_DELAY_MS);
      mine.current = timer;
      queue.current = { timer, unmark, opened: queue.current?.opened };
    },
  };
  return { handlers, chosen };
}
