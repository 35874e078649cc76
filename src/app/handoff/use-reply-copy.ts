import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/api-error.ts';
import { useHoldPage, useSessionEnd } from '../session/session-end.ts';

/**
 * The copy, and what stands in its way: a session that ended keeps the draft here (the page stays
 * behind the dialog), and the copy is finished once the same user has signed in again; if someone
 * else signs in, the draft is not theirs to see, and the editor closes.
 */
export function useCopy(
  { record, user }: { record: (template: string) => Promise<void>; user: string | undefined },
  onDone: (copied: boolean) => void,
) {
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [waiting, setWaiting] = useState<{ template: string; text: string }>();
  const session = useSessionEnd(user);
  const ended = useRef(false);
  if (session === 'ended') ended.current = true;
  useHoldPage(true);

  const copy = async (template: string, text: string) => {
    setBusy(true);
    setProblem(undefined);
    try {
      await record(template);
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError && error.code === 'unauthenticated') setWaiting({ template, text });
      return setProblem((error as Error).message);
    }
    try {
      await navigator.clipboard.writeText(text);
      onDone(true);
    } catch {
      setBusy(false);
      setProblem('The browser refused access to the clipboard.');
    }
  };
  const latest = useRef(copy);
  latest.current = copy;
  useEffect(() => {
    if (session === 'other') onDone(false);
    if (session !== 'on' || !waiting || !ended.current) return;
    ended.current = false;
    setWaiting(undefined);
    void latest.current(waiting.template, waiting.text);
  }, [session, waiting, onDone]);
  return { copy, problem, busy, ended: session === 'ended', waiting: waiting !== undefined };
}
