import { useEffect, useState } from 'react';
import { Button } from '../ui/button.tsx';

type State = { kind: 'idle' } | { kind: 'done' } | { kind: 'failed'; message: string };

/**
 * A button that records the hand-off, then copies text; the result is said next to it (for screen
 * readers too). Nothing is copied when the audit line cannot be written.
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
  const [state, setState] = useState<State>({ kind: 'idle' });
  useEffect(() => {
    if (state.kind !== 'done') return;
    const timer = setTimeout(() => setState({ kind: 'idle' }), 3000);
    return () => clearTimeout(timer);
  }, [state]);

  const run = async () => {
    try {
      await record();
    } catch (error) {
      return setState({ kind: 'failed', message: (error as Error).message });
    }
    try {
      await navigator.clipboard.writeText(text());
      setState({ kind: 'done' });
    } catch {
      setState({ kind: 'failed', message: 'The browser refused access to the clipboard.' });
    }
  };
  return (
    <span className="inline-flex items-center gap-2">
      <Button variant="secondary" onClick={run}>
        {label}
      </Button>
      <span aria-live="polite" className={state.kind === 'failed' ? 'text-sm text-red-700' : 'text-sm text-slate-600'}>
        {state.kind === 'done' ? doneLabel : state.kind === 'failed' ? state.message : ''}
      </span>
    </span>
  );
}
