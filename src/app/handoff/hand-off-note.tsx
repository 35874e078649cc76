import { type RefObject, useEffect, useRef } from 'react';
import type { ExportAnswer } from '../../kyc/contract/api.ts';
import { ApiError } from '../api/api-error.ts';
import { serverUnreachable } from '../session/server-back.ts';
import { Button } from '../ui/button.tsx';

/**
 * The page's lookup and its Refresh (a new lookup), as the hand-off needs them: a copy refused because
 * the lookup is too old (409 not_looked_up) is let through by a new one, so the refusal offers Refresh
 * beside it, and goes once a new lookup's answer has arrived (`fetchedAt` changed).
 */
export interface PageRefresh {
  /** When the record shown was fetched: a new lookup's answer changes it. */
  fetchedAt: number;
  refreshing: boolean;
  start: () => void;
}

/** What the hand-off bar says of its last copy or print: one line under its buttons. */
export interface HandOffNote {
  text: string;
  tone: 'problem' | 'note';
  /** The page's lookup is too old for it: Refresh is offered, and the note goes with the next lookup's answer. */
  stale: boolean;
  /** Where the focus goes when the note leaves from under the Refresh pressed in it. */
  from: 'summary' | 'print';
  /** The page's `fetchedAt` when it was said. */
  at: number;
  /** A copy that could not reach the server (Date.now() then): once it answers again, the bar says so (useServerBackSince). */
  unreachableAt?: number;
}

/** A copy refused for a lookup too old (409 not_looked_up): a new lookup is what lets it through. */
export const lookupTooOld = (error: unknown): boolean => error instanceof ApiError && error.code === 'not_looked_up';

/** Copy summary refused: why, with Refresh for a lookup too old, and when the server could not be reached (to say when it is back). */
export const copyRefusal = (refusal: Error): Omit<HandOffNote, 'at'> => ({
  text: refusal.message,
  tone: 'problem',
  stale: lookupTooOld(refusal),
  from: 'summary',
  unreachableAt: serverUnreachable(refusal) ? Date.now() : undefined,
});

/** What a print's answer says of its line: nothing to say for a plain one. */
export function printNote(answer: ExportAnswer): Pick<HandOffNote, 'text' | 'tone' | 'stale'> | undefined {
  if (answer.notLookedUp) return { text: 'This print was recorded as not looked up lately.', tone: 'note', stale: true };
  if (answer.openedUnknown)
    return {
      text: 'This print was recorded, but whether you looked this candidate up lately could not be checked.',
      tone: 'note',
      stale: false,
    };
  return undefined;
}

/**
 * A print whose line could not be written. The paper was printed all the same (the dialog does not wait),
 * so the server's message, written for a copy that was stopped, is said after what happened.
 */
export const printFailure = (error: Error): Pick<HandOffNote, 'text' | 'tone' | 'stale'> => ({
  text: `This print was not recorded in the audit log: ${error.message}`,
  tone: 'problem',
  stale: false,
});

/** The note said, unless it was of a lookup since replaced: a stale note goes with the next lookup's answer. */
export const noteShown = (note: HandOffNote | undefined, fetchedAt: number): HandOffNote | undefined =>
  note && !(note.stale && note.at !== fetchedAt) ? note : undefined;

/**
 * The bar's one line (UX review: at 390 px Print and Copy summary each said the same refusal, one under
 * the other), with Refresh when the page's lookup is too old for the hand-off. A Refresh pressed here
 * leaves with the note once the new answer arrives: the focus then goes back to the button the note was
 * of (`buttons`), not to the page's <body>.
 */
export function HandOffNoteLine({
  note,
  refresh,
  buttons,
}: {
  note: HandOffNote | undefined;
  refresh: PageRefresh | undefined;
  buttons: Record<HandOffNote['from'], RefObject<HTMLButtonElement | null>>;
}) {
  const pressed = useRefreshFocus(note !== undefined);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <p
        aria-live="polite"
        data-testid="hand-off-note"
        className={note?.tone === 'problem' ? 'text-sm text-red-700' : 'text-sm text-amber-900'}
      >
        {note?.text ?? ''}
      </p>
      {note?.stale && refresh && <RefreshButton refresh={refresh} onPress={() => pressed(buttons[note.from])} />}
    </div>
  );
}

/** Refresh as the page's own does it (a new lookup), beside a hand-off refused for a lookup too old. */
export function RefreshButton({ refresh, onPress }: { refresh: PageRefresh; onPress: () => void }) {
  return (
    <Button
      variant="secondary"
      size="sm"
      busy={refresh.refreshing}
      onClick={() => {
        onPress();
        refresh.start();
      }}
    >
      {refresh.refreshing ? 'Refreshing…' : 'Refresh'}
    </Button>
  );
}

/**
 * A Refresh pressed beside a note, told the element the focus is to go to: once `shown` turns false (the
 * note left with the new answer, and the button with it), the focus goes there.
 */
export function useRefreshFocus(shown: boolean): (target: RefObject<HTMLElement | null>) => void {
  const target = useRef<RefObject<HTMLElement | null>>(undefined);
  useEffect(() => {
    if (shown || !target.current) return;
    target.current.current?.focus();
    target.current = undefined;
  }, [shown]);
  return (next) => {
    target.current = next;
  };
}
