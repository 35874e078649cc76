import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/api-error.ts';
import { serverUnreachable, useServerBackSince } from '../session/server-back.ts';
import { useHoldPage, useSessionEnd } from '../session/session-end.ts';
import { lookupTooOld } from './hand-off-note.tsx';

/** Why the copy did not happen; `stale`: the page's lookup is too old for it (Refresh offered), said at `at` (its fetchedAt). */
export interface CopyProblem {
  text: string;
  stale: boolean;
  at: number;
  /** The server could not be reached (Date.now() then): once it answers again, Copy is offered again (useServerBackSince). */
  unreachableAt?: number;
}

/**
 * The copy, and what stands in its way: a session that ended keeps the draft here (the page stays
 * behind the dialog), and the copy is finished once the same user has signed in again; if someone
 * else signs in, the draft is not theirs to see, and the editor closes. A refusal for a lookup too old
 * goes once a new lookup's answer has arrived (`fetchedAt` changed): the Refresh that let it through was
 * pressed, and the reply is still there to copy.
 */
export function useCopy(
  { record, user, fetchedAt = 0 }: { record: (template: string) => Promise<void>; user: string | undefined; fetchedAt?: number },
  onDone: (copied: boolean) => void,
) {
  const [problem, setProblem] = useState<CopyProblem>();
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
      const unreachableAt = serverUnreachable(error) ? Date.now() : undefined;
      return setProblem({ text: (error as Error).message, stale: lookupTooOld(error), at: fetchedAt, unreachableAt });
    }
    try {
      await navigator.clipboard.writeText(text);
      onDone(true);
    } catch {
      setBusy(false);
      setProblem({ text: 'The browser refused access to the clipboard.', stale: false, at: fetchedAt });
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
  const shown = problem && !(problem.stale && problem.at !== fetchedAt) ? problem : undefined;
  // The server is back after a copy that could not reach it: said, so that the agent knows Copy will work now.
  const back = useServerBackSince(shown?.unreachableAt);
  return { copy, problem: shown, back, busy, ended: session === 'ended', waiting: waiting !== undefined };
}
