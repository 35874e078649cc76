/**
 * The event loop's next turn: what waits on a timer or a socket (other requests, `/healthz`) goes first.
 * Awaited between the chunks of work that a hostile list makes large (the queue index's writes and
 * evictions, the crawler's pages): a resolved promise alone yields to other promises, never to I/O.
 */
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
