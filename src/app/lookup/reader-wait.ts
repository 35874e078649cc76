/** How long a lookup waits for a reader that neither comes nor fails before it goes ahead without it. */
const READER_WAIT_MS = 3000;
const readerWaitMs = () => new Promise<void>((resolve) => setTimeout(resolve, READER_WAIT_MS));
let readerWait = readerWaitMs;

/** The end of the wait for the paste reader (use-lookup-form.ts, afterReader). */
export const waitForReader = () => readerWait();

/** That wait ended by `wait` from now on (a test's, to end it when it says), or by READER_WAIT_MS again. */
export function readerWaitBy(wait = readerWaitMs) {
  readerWait = wait;
}
