import { createContext, useEffect } from 'react';

/**
 * Whether the server answers again after a call that could not reach it (a restart), for a primitive that
 * may not read the session (CopyButton): the context lives with the primitives that read it, and the page
 * above fills it (session/server-back.ts, useServerAnswers). Without it nothing is said of the server's return.
 */
export interface ServerAnswers {
  /** Whether a failed call found nobody at the server (its code: this folder knows no ApiError). */
  unreachable: (error: unknown) => boolean;
  /** When the server last answered (Date.now(); 0 before it has). */
  answeredAt: number;
  /** Asks the server again, so that its answer does not wait for something else to ask. */
  askAgain: () => void;
}

export const ServerAnswersContext = createContext<ServerAnswers | undefined>(undefined);

/** Whether the server has answered since `since` (a Date.now() of a call that could not reach it), asked again then. */
export function useAnsweredSince(answers: ServerAnswers | undefined, since: number | undefined): boolean {
  const askAgain = answers?.askAgain;
  useEffect(() => {
    if (since !== undefined) askAgain?.();
  }, [since, askAgain]);
  return since !== undefined && answers !== undefined && answers.answeredAt > since;
}

/** Said where the server could not be reached to record a copy, once it answers again (a certificate's Copy, the reply editor). */
export const SERVER_BACK_TEXT = 'The server is back: press Copy again.';
