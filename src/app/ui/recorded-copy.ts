import { useState } from 'react';
import { useFlash } from './use-flash.ts';

/**
 * What a copy came to: nothing yet, copied, or failed (with the audit's refusal, said beside the button, and
 * when: a refusal for want of the server gives way once it answers again, CopyButton).
 */
export type CopyState = { kind: 'idle' } | { kind: 'copied' } | { kind: 'failed'; message?: string; refusal?: unknown; at?: number };

/**
 * A copy that may carry a candidate's data out of the page: `record` (the hand-off's audit line) first,
 * and when it fails nothing is copied and its message stays until the next try; then the text, and
 * "copied" for `flashMs`. Busy until the copy is done: a second press meanwhile (a double-click) is
 * ignored, where it wrote a second audit line. One rule for Copy summary (CopyAction) and the value
 * copy buttons (CopyButton: a certificate's JSON).
 */
export function useRecordedCopy(text: () => string, record: (() => Promise<void>) | undefined, flashMs: number) {
  const [state, setState] = useFlash<CopyState>({ kind: 'idle' }, flashMs);
  const [busy, setBusy] = useState(false);
  const copy = async () => {
    try {
      await record?.();
    } catch (error) {
      return setState({ kind: 'failed', message: (error as Error).message, refusal: error, at: Date.now() }, { stays: true });
    }
    try {
      await navigator.clipboard.writeText(text());
      setState({ kind: 'copied' });
    } catch {
      setState({ kind: 'failed' }, { stays: true });
    }
  };
  const press = () => {
    if (busy) return;
    setBusy(true);
    void copy().finally(() => setBusy(false));
  };
  return { state, busy, press };
}
