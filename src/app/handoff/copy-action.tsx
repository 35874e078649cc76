import { Button } from '../ui/button.tsx';
import { useFlash } from '../ui/use-flash.ts';

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
  // "Copied" goes after a while; a failure stays until the next try.
  const [state, setState] = useFlash<State>({ kind: 'idle' }, 3000);

  const run = async () => {
    try {
      await record();
    } catch (error) {
      return setState({ kind: 'failed', message: (error as Error).message }, { stays: true });
    }
    try {
      await navigator.clipboard.writeText(text());
      setState({ kind: 'done' });
    } catch {
      setState({ kind: 'failed', message: 'The browser refused access to the clipboard.' }, { stays: true });
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
