import { Button } from '../ui/button.tsx';
import { useRecordedCopy } from '../ui/recorded-copy.ts';

/**
 * A button that records the hand-off, then copies text; the result is said next to it (for screen
 * readers too). Nothing is copied when the audit line cannot be written; a second press while the first
 * is under way is ignored (useRecordedCopy).
 */
export function CopyAction({
  label,
  doneLabel,
  record,
  text,
}: {
  label: string;
  doneLabel: string;
  record: () => Promise<void>;
  text: () => string;
}) {
  // "Copied" goes after a while; a failure stays until the next try.
  const { state, busy, press } = useRecordedCopy(text, record, 3000);
  return (
    <span className="inline-flex items-center gap-2">
      <Button variant="secondary" busy={busy} onClick={press}>
        {label}
      </Button>
      <span aria-live="polite" className={state.kind === 'failed' ? 'text-sm text-red-700' : 'text-sm text-slate-600'}>
        {state.kind === 'copied'
          ? doneLabel
          : state.kind === 'failed'
            ? (state.message ?? 'The browser refused access to the clipboard.')
            : ''}
      </span>
    </span>
  );
}
