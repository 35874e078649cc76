import { type MouseEvent, useEffect, useRef, useState } from 'react';

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
 * A queue row's handlers: a click anywhere on it (its id link too) opens its candidate, unless it selected
 * text (a drag) or is the first of a double-click (which selects a word). Replaces a link stretched over
 * the row, under which no text could be selected and whose first click of a double-click already opened.
 * `chosen` is true from a mouse click until the row opens (and stays so while the candidate's page is
 * drawn): the wait is ROW_OPEN_DELAY_MS, and a click that shows nothing for that long reads as missed
 * (reviewers clicked again, and the second click, a double-click now, cancelled the open). A second
 * click or a selection clears it, as it cancels the open.
 */
export function useRowOpen(open: () => void) {
  const pending = useRef<ReturnType<typeof setTimeout>>(undefined);
  const [chosen, setChosen] = useState(false);
  const cancel = () => {
    clearTimeout(pending.current);
    pending.current = undefined;
    setChosen(false);
  };
  // A row that leaves (a live update moved it, the page changed) opens nothing later.
  useEffect(() => () => clearTimeout(pending.current), []);
  const handlers = {
    onMouseDown: (event: MouseEvent) => {
      if (event.detail > 1) cancel();
    },
    onClick: (event: MouseEvent) => {
      const control = (event.target as Element).closest(CONTROLS);
      if (control && !control.matches(ROW_LINK)) return;
      if (event.detail > 1 || selecting()) return cancel();
      if (!mayBeDoubleClick(event)) {
        // Enter or a tap on the row's link: the link opened it. A tap elsewhere on the row opens it now.
        if (!control && event.detail > 0 && event.button === 0 && !modified(event)) open();
        return;
      }
      cancel();
      setChosen(true);
      pending.current = setTimeout(() => {
        pending.current = undefined;
        if (selecting()) setChosen(false);
        else open();
      }, ROW_OPEN_DELAY_MS);
    },
  };
  return { handlers, chosen };
}
