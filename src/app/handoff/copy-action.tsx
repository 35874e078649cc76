import type { Ref } from 'react';
import { Button } from '../ui/button.tsx';
import { useRecordedCopy } from '../ui/recorded-copy.ts';

/**
 * A button that records the hand-off, then copies text; the result is said next to it (for screen
 * readers too). Nothing is copied when the audit line cannot be written; a second press while the first
 * is under way is ignored (useRecordedCopy). Why the line was refused is the bar's to say, once for all
 * its buttons (`onRecorded`, hand-off-note.tsx); the clipboard's refusal is said here.
 */
export function CopyAction({
  label,
  doneLabel,
  record,
  text,
  onRecorded,
  buttonRef,
}: {
  label: string;
  doneLabel: string;
  record: () => Promise<void>;
  text: () => string;
  /** The line was written (undefined), or refused (why). */
  onRecorded: (refusal: Error | undefined) => void;
  buttonRef?: Ref<HTMLButtonElement>;
}) {
  const recordAndTell = async () => {
    try {
      await record();
    } catch (error) {
      onRecorded(error as Error);
      throw error;
    }
    onRecorded(undefined);
  };
  // "Copied" goes after a while; a failure stays until the next try.
  const { state, busy, press } = useRecordedCopy(text, recordAndTell, 3000);
  // A failure with a message is the audit's refusal, said by the bar; without one, the clipboard's.
  const clipboardRefused = state.kind === 'failed' && state.message === undefined;
  return (
    <span className="inline-flex items-center gap-2">
      <Button ref={buttonRef} variant="secondary" busy={busy} onClick={press}>
        {label}
      </Button>
      <span aria-live="polite" className={clipboardRefused ? 'text-sm text-red-700' : 'text-sm text-slate-600'}>
        {state.kind === 'copied' ? doneLabel : clipboardRefused ? 'The browser refused access to the clipboard.' : ''}
      </span>
    </span>
  );
}
