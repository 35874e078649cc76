import { type RefCallback, type RefObject, useCallback, useEffect, useRef } from 'react';

/** Where the keyboard goes once a batch stops running: its refs, handed to BatchProgress. */
export interface OutcomeFocus {
  /** The button that goes on with (or retries) the ids left, when there is one. */
  offer: RefObject<HTMLButtonElement | null>;
  /** The sentence saying what the batch came to (tabIndex -1). */
  outcome: RefObject<HTMLParagraphElement | null>;
}

/**
 * Cancel is shown only while the batch runs: pressed, it went with the keyboard's focus, which fell to the
 * document, and "Cancelled after 8 of 9… Go on with the 1 left" was never reached from where the user was.
 * The same when the batch stopped on its own with the focus on Cancel. The focus goes to the button that
 * goes on with the ids left instead, or, with none, to the sentence. `cancel` is Cancel's ref: when it
 * goes, it notes whether it had the focus (a ref's cleanup runs while the button is still in the page);
 * when it comes with the focus nowhere (the button that started the run went), it takes the focus.
 */
export function useFocusAfterRun(running: boolean): { cancel: RefCallback<HTMLButtonElement>; focus: OutcomeFocus } {
  const offer = useRef<HTMLButtonElement>(null);
  const outcome = useRef<HTMLParagraphElement>(null);
  const hadFocus = useRef(false);
  const cancel = useCallback((button: HTMLButtonElement | null) => {
    if (!button) return;
    // A run started by a button that goes as it starts (Go on with the N left, Retry): the focus fell to
    // the page with it. Cancel, the one control of the run, takes it, and hands it back when the run ends.
    const page = button.ownerDocument;
    if (page.activeElement === null || page.activeElement === page.body) button.focus();
    return () => {
      hadFocus.current = button === page.activeElement;
    };
  }, []);
  useEffect(() => {
    if (running || !hadFocus.current) return;
    hadFocus.current = false;
    (offer.current ?? outcome.current)?.focus();
  }, [running]);
  return { cancel, focus: { offer, outcome } };
}
