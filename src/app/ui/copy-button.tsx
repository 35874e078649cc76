import { Button } from './button.tsx';
import { useFlash } from './use-flash.ts';

/** Copies a value to the clipboard and says so (for screen readers too). */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useFlash<'idle' | 'copied' | 'failed'>('idle', 2000);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed', { stays: true });
    }
  };
  return (
    <Button variant="secondary" size="sm" onClick={copy} aria-label={`Copy ${label}`} className="inline-flex shrink-0 items-center gap-1">
      {state === 'copied' ? (
        <span aria-hidden="true">✓</span>
      ) : (
        <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="1.5">
          <rect x="5" y="5" width="9" height="9" rx="1.5" />
          <path d="M11 5V3.5A1.5 1.5 0 0 0 9.5 2h-6A1.5 1.5 0 0 0 2 3.5v6A1.5 1.5 0 0 0 3.5 11H5" />
        </svg>
      )}
      <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}</span>
    </Button>
  );
}
