import { useContext } from 'react';
import { Button } from './button.tsx';
import { useRecordedCopy } from './recorded-copy.ts';
import { SERVER_BACK_TEXT, ServerAnswersContext, useAnsweredSince } from './server-answers.ts';

/**
 * Copies a value to the clipboard and says so (for screen readers too). With `record` (a hand-off's
 * audit line), that comes first: when it fails nothing is copied, and its message is said beside the
 * button until the next try, as Copy summary does. The button is busy until the copy is done: a second
 * press meanwhile (a double-click) is ignored, where it wrote a second audit line.
 */
export function CopyButton({ value, label, record }: { value: string; label: string; record?: () => Promise<void> }) {
  const { state, busy, press } = useRecordedCopy(() => value, record, 2000);
  const copied = state.kind === 'copied';
  // Refused because the server could not be reached: once it answers again, Copy will work, and the line says so.
  const answers = useContext(ServerAnswersContext);
  const back = useAnsweredSince(answers, state.kind === 'failed' && answers?.unreachable(state.refusal) ? state.at : undefined);
  // Once the server is back the failure is over: the line beside says to press Copy again, as the reply editor's Copy does.
  const failed = state.kind === 'failed' && !back;
  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        busy={busy}
        onClick={press}
        aria-label={`Copy ${label}`}
        className="inline-flex shrink-0 items-center gap-1"
      >
        {copied ? (
          <span aria-hidden="true">✓</span>
        ) : (
          <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="1.5">
            <rect x="5" y="5" width="9" height="9" rx="1.5" />
            <path d="M11 5V3.5A1.5 1.5 0 0 0 9.5 2h-6A1.5 1.5 0 0 0 2 3.5v6A1.5 1.5 0 0 0 3.5 11H5" />
          </svg>
        )}
        <span aria-live="polite">{copied ? 'Copied' : failed ? 'Copy failed' : 'Copy'}</span>
      </Button>
      {record && (
        <span aria-live="polite" className={back ? 'text-sm text-slate-700' : 'text-sm text-red-700'}>
          {back ? SERVER_BACK_TEXT : state.kind === 'failed' ? state.message : ''}
        </span>
      )}
    </>
  );
}
